// Interpreted in every session (see stdgo.go): sync.OnceValue and
// sync.OnceValues (a channel of one is the lock).

package stdgo

func ᐩstdsyncᐩOnceValue[T any](f func() T) func() T {
	g := ᐩstdsyncᐩOnceValues(func() (T, bool) { return f(), true })
	return func() T {
		v, _ := g()
		return v
	}
}

func ᐩstdsyncᐩOnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		done     bool
		v1       T1
		v2       T2
		p        any
		panicked bool
		lock     = make(chan struct{}, 1)
	)
	return func() (T1, T2) {
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
