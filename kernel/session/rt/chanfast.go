package rt

// The fast paths of the interruptible channel helpers (blocking.go): a
// send or receive that can go ahead at once, on a channel of a common
// element type, without reflection.

// fastRecvInto receives from c into *p (p may be nil: the value is
// dropped) when c is a channel of a common element type with a value
// ready, or closed; done is false when it did nothing.
func fastRecvInto(c, p any) (ok, done bool) {
	switch ch := c.(type) {
	case chan int:
		return tryRecv(ch, p)
	case <-chan int:
		return tryRecv(ch, p)
	case chan string:
		return tryRecv(ch, p)
	case <-chan string:
		return tryRecv(ch, p)
	case chan float64:
		return tryRecv(ch, p)
	case <-chan float64:
		return tryRecv(ch, p)
	case chan bool:
		return tryRecv(ch, p)
	case <-chan bool:
		return tryRecv(ch, p)
	case chan struct{}:
		return tryRecv(ch, p)
	case <-chan struct{}:
		return tryRecv(ch, p)
	case chan error:
		return tryRecv(ch, p)
	case <-chan error:
		return tryRecv(ch, p)
	case chan any:
		return tryRecv(ch, p)
	case <-chan any:
		return tryRecv(ch, p)
	}
	return false, false
}

func tryRecv[T any](ch <-chan T, p any) (ok, done bool) {
	dst, isPtr := p.(*T)
	if p != nil && !isPtr {
		return false, false
	}
	select {
	case v, ok := <-ch:
		if dst != nil {
			*dst = v
		}
		return ok, true
	default:
		return false, false
	}
}

// fastSend sends v on c when c is a channel of a common element type, v
// has that type and the send can go ahead at once; false when it did
// nothing.
func fastSend(c, v any) bool {
	switch ch := c.(type) {
	case chan int:
		return trySend(ch, v)
	case chan<- int:
		return trySend(ch, v)
	case chan string:
		return trySend(ch, v)
	case chan<- string:
		return trySend(ch, v)
	case chan float64:
		return trySend(ch, v)
	case chan<- float64:
		return trySend(ch, v)
	case chan bool:
		return trySend(ch, v)
	case chan<- bool:
		return trySend(ch, v)
	case chan struct{}:
		return trySend(ch, v)
	case chan<- struct{}:
		return trySend(ch, v)
	}
	return false
}

func trySend[T any](ch chan<- T, v any) bool {
	x, ok := v.(T)
	if !ok {
		return false
	}
	select {
	case ch <- x:
		return true
	default:
		return false
	}
}
