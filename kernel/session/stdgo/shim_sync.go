// Interpreted in every session (see stdgo.go): sync.OnceValue and
// sync.OnceValues (a channel of one is the lock).

package stdgo

func ᐩstdsyncᐩOnceValue[ᐩT any](f func() ᐩT) func() ᐩT {
	g := ᐩstdsyncᐩOnceValues(func() (ᐩT, bool) { return f(), true })
	return func() ᐩT {
		v, _ := g()
		return v
	}
}

func ᐩstdsyncᐩOnceValues[ᐩT1, ᐩT2 any](f func() (ᐩT1, ᐩT2)) func() (ᐩT1, ᐩT2) {
	var (
		done     bool
		v1       ᐩT1
		v2       ᐩT2
		p        any
		panicked bool
		lock     = make(chan struct{}, 1)
	)
	return func() (ᐩT1, ᐩT2) {
		lock <- struct{}{}
		if !done {
			done = true
			func() {
				panicked = true
				defer func() {
					if panicked {
						p = recover()
					}
				}()
				v1, v2 = f()
				panicked = false
			}()
		}
		<-lock
		if panicked {
			panic(p)
		}
		return v1, v2
	}
}
