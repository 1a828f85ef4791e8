package rt

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// The blocking operations of cell code made interruptible. The loop and
// function-entry checkpoints stop code that computes; code that waits
// (time.Sleep, a channel operation, select, WaitGroup.Wait, Mutex.Lock)
// would never reach one. So the session gives the running cell a done
// channel, closed by Interrupt (stopSignal), and:
//   - the rewrite pass interruptible (package rewrite) turns the channel
//     operations of statements into calls of compiled helpers that also
//     wait on it (pass recv-expr first makes receives inside expressions
//     and ranges over channels such statements);
//   - time.Sleep and the sync types Mutex, RWMutex and WaitGroup are
//     replaced, for interpreted code, by versions that wait on it
//     (blockingSymbols);
//   - what still blocks (a receive after another call of its statement,
//     native code) is abandoned at the second interrupt (abandon.go).

// stopSignal is a channel closed when the running cell is interrupted,
// replaced by a fresh one when the next cell starts.
type stopSignal struct {
	mu     sync.Mutex
	ch     chan struct{}
	closed bool
	// cur is ch for interpreted code, read through ᐩrt.DoneP without
	// synchronisation, as the loop checkpoints read the stop flag: it
	// changes only between cells. Race-detector builds call ᐩrt.Done().
	cur chan struct{}
}

// done returns the channel that the current interrupt closes.
func (s *stopSignal) done() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
		s.cur = s.ch
	}
	return s.ch
}

// fire closes the channel (once).
func (s *stopSignal) fire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
		s.cur = s.ch
	}
	if !s.closed {
		close(s.ch)
		s.closed = true
	}
}

// reset gives the next cell an open channel.
func (s *stopSignal) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		s.ch, s.closed = make(chan struct{}), false
		if !CheckpointByCall {
			s.cur = s.ch
		}
	}
}

// running is the stop signal of the session whose cell runs now: the
// replacement sync types are types, not values of one session, so they
// find the session to watch here. Process-wide on purpose, like
// display's publisher: one tick process serves one notebook session, and
// ExecuteWith sets it for the duration of a cell.
var running struct {
	mu  sync.Mutex
	sig *stopSignal
}

// useStopSignal makes sig the running session's signal until restore.
func useStopSignal(sig *stopSignal) (restore func()) {
	running.mu.Lock()
	prev := running.sig
	running.sig = sig
	running.mu.Unlock()
	return func() {
		running.mu.Lock()
		running.sig = prev
		running.mu.Unlock()
	}
}

// runningDone is the done channel of the running cell, or nil (never
// ready) between cells.
func runningDone() <-chan struct{} {
	running.mu.Lock()
	sig := running.sig
	running.mu.Unlock()
	if sig == nil {
		return nil
	}
	return sig.done()
}

// blockingSymbols returns the symbols that replace the standard library's
// blocking calls for interpreted code, and (under "rt") the runtime's
// helpers that the interruptible pass calls.
func (r *Runtime) blockingSymbols() map[string]map[string]reflect.Value {
	sleep := func(d time.Duration) {
		if d <= 0 {
			return
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.sig.done():
			panic(InterruptSignal{})
		}
	}
	neverP := &never
	return map[string]map[string]reflect.Value{
		"time/time": {"Sleep": reflect.ValueOf(sleep)},
		"sync/sync": {
			"Mutex":     reflect.ValueOf((*Mutex)(nil)),
			"RWMutex":   reflect.ValueOf((*RWMutex)(nil)),
			"WaitGroup": reflect.ValueOf((*WaitGroup)(nil)),
		},
		"rt": {
			"Done":     reflect.ValueOf(r.sig.done),
			"DoneP":    reflect.ValueOf(&r.sig.cur),
			"ZeroOf":   reflect.ValueOf(zeroChan),
			"Recv":     reflect.ValueOf(r.recvOp),
			"RecvInto": reflect.ValueOf(r.recvInto),
			"Send":     reflect.ValueOf(r.sendOp),
			"Never":    reflect.ValueOf(&neverP).Elem(),
		},
	}
}

// never is *ᐩrt.Never, always false: the interruptible pass keeps a send
// of a constant in `if *ᐩrt.Never { c <- v }`, never run, so that the
// interpreter compiles it and rejects a constant of the wrong type, as Go
// does, before the cell runs. Read through a pointer, so the interpreter
// cannot fold it (it folds `if ᐩrt.Never`, a native bool, and skips the
// branch).
var never = false

// closedChans caches one closed channel per channel type (with its
// direction) for zeroChan.
var closedChans sync.Map // reflect.Type → reflect.Value

// zeroChan sets the channel variable p points to to a closed channel of
// the same element type (shared, cached per type): receiving from it
// gives the element type's zero value at once. The interruptible pass
// declares the variable a receive defines that way, without naming its
// type.
func zeroChan(p any) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Chan {
		panic("rt: ZeroOf: want a pointer to a channel variable")
	}
	t := v.Elem().Type()
	c, ok := closedChans.Load(t)
	if !ok {
		ch := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, t.Elem()), 0)
		ch.Close()
		c, _ = closedChans.LoadOrStore(t, ch.Convert(t))
	}
	v.Elem().Set(c.(reflect.Value))
}

// Mutex is sync.Mutex for interpreted code: Lock waits for the lock or for
// an interrupt of the running cell, which ends the cell as Interrupted.
// The zero value is an unlocked mutex.
type Mutex struct {
	once sync.Once
	ch   chan struct{}
}

func (m *Mutex) c() chan struct{} {
	m.once.Do(func() { m.ch = make(chan struct{}, 1) })
	return m.ch
}

// Lock locks m, waiting while another holder has it.
func (m *Mutex) Lock() {
	c := m.c()
	select {
	case c <- struct{}{}:
		return
	default:
	}
	select {
	case c <- struct{}{}:
	case <-runningDone():
		panic(InterruptSignal{})
	}
}

// TryLock locks m if it is free and reports whether it did.
func (m *Mutex) TryLock() bool {
	select {
	case m.c() <- struct{}{}:
		return true
	default:
		return false
	}
}

// Unlock unlocks m; unlocking an unlocked mutex panics, as Go's does
// (Go's is a fatal error).
func (m *Mutex) Unlock() {
	select {
	case <-m.c():
	default:
		panic("sync: unlock of unlocked mutex")
	}
}

// RWMutex is sync.RWMutex for interpreted code, interruptible like Mutex.
// A waiting writer does not hold back new readers (Go's does). Its state
// lives behind a pointer set once, so that the interpreter's copies of
// the struct do not read memory the lock writes.
type RWMutex struct {
	state atomic.Pointer[rwState]
}

type rwState struct {
	w       Mutex // held by the writer, or by the readers as a group
	mu      sync.Mutex
	readers int
}

func (rw *RWMutex) s() *rwState {
	if st := rw.state.Load(); st != nil {
		return st
	}
	rw.state.CompareAndSwap(nil, &rwState{})
	return rw.state.Load()
}

// Lock locks rw for writing.
func (rw *RWMutex) Lock() { rw.s().w.Lock() }

// Unlock unlocks rw for writing.
func (rw *RWMutex) Unlock() { rw.s().w.Unlock() }

// TryLock locks rw for writing if it is free.
func (rw *RWMutex) TryLock() bool { return rw.s().w.TryLock() }

// RLock locks rw for reading.
func (rw *RWMutex) RLock() {
	st := rw.s()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.readers == 0 {
		// the first reader takes the write lock for the group; a writer
		// holding it keeps readers waiting (interruptibly).
		st.mu.Unlock()
		st.w.Lock()
		st.mu.Lock()
	}
	st.readers++
}

// RUnlock undoes one RLock.
func (rw *RWMutex) RUnlock() {
	st := rw.s()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.readers <= 0 {
		panic("sync: RUnlock of unlocked RWMutex")
	}
	st.readers--
	if st.readers == 0 {
		st.w.Unlock()
	}
}

// RLocker returns a Locker whose Lock and Unlock are RLock and RUnlock.
func (rw *RWMutex) RLocker() sync.Locker { return rlocker{rw} }

type rlocker struct{ rw *RWMutex }

func (r rlocker) Lock()   { r.rw.RLock() }
func (r rlocker) Unlock() { r.rw.RUnlock() }

// WaitGroup is sync.WaitGroup for interpreted code: Wait returns when the
// counter is zero, or ends the running cell as Interrupted. Its state
// lives behind a pointer, as RWMutex's does.
type WaitGroup struct {
	state atomic.Pointer[wgState]
}

type wgState struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n drops to zero; nil while n is zero
}

func (wg *WaitGroup) s() *wgState {
	if st := wg.state.Load(); st != nil {
		return st
	}
	wg.state.CompareAndSwap(nil, &wgState{})
	return wg.state.Load()
}

// Add adds delta to the counter; a negative counter panics, as in Go.
func (wg *WaitGroup) Add(delta int) {
	st := wg.s()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.n += delta
	switch {
	case st.n < 0:
		panic("sync: negative WaitGroup counter")
	case st.n == 0 && st.zero != nil:
		close(st.zero)
		st.zero = nil
	case st.n > 0 && st.zero == nil:
		st.zero = make(chan struct{})
	}
}

// Done decrements the counter by one.
func (wg *WaitGroup) Done() { wg.Add(-1) }

// Wait waits until the counter is zero.
func (wg *WaitGroup) Wait() {
	st := wg.s()
	st.mu.Lock()
	z := st.zero
	st.mu.Unlock()
	if z == nil {
		return
	}
	select {
	case <-z:
	case <-runningDone():
		panic(InterruptSignal{})
	}
}

// The channel operations the interruptible pass makes of statements:
// compiled Go that waits for the operation or for an interrupt of the
// running cell (the interpreter's own select keeps its cases in the
// select's node, shared by all goroutines that run it).

// Each first tries the operation without waiting (fastRecvInto,
// fastSend: a type switch for channels of common element types, else
// reflect's TryRecv and TrySend), and waits with reflect.Select only when
// it would block: an operation that can go ahead costs about what the
// interpreter's own did (docs/benchmarks.md).

// recvOp is ᐩrt.Recv: `<-c` as a statement.
func (r *Runtime) recvOp(c any) {
	if _, done := fastRecvInto(c, nil); done {
		return
	}
	cv := reflect.ValueOf(c)
	if cv.Kind() == reflect.Chan && !cv.IsNil() {
		if v, _ := cv.TryRecv(); v.IsValid() {
			return
		}
	}
	r.chanOp(reflect.SelectRecv, cv, reflect.Value{})
}

// recvInto is ᐩrt.RecvInto: receives from c into *p (a variable of c's
// element type) and returns Go's ok (false when c is closed and drained).
func (r *Runtime) recvInto(c, p any) bool {
	if ok, done := fastRecvInto(c, p); done {
		return ok
	}
	cv := reflect.ValueOf(c)
	var v reflect.Value
	var ok bool
	if cv.Kind() == reflect.Chan && !cv.IsNil() {
		v, ok = cv.TryRecv()
	}
	if !v.IsValid() {
		v, ok = r.chanOp(reflect.SelectRecv, cv, reflect.Value{})
	}
	dst := reflect.ValueOf(p).Elem()
	switch {
	case !v.IsValid():
		dst.Set(reflect.Zero(dst.Type()))
	case v.Type().AssignableTo(dst.Type()):
		dst.Set(v)
	default:
		dst.Set(v.Convert(dst.Type()))
	}
	return ok
}

// sendOp is ᐩrt.Send: `c <- v` as a statement. v arrives as an interface
// value: nil stands for the element type's zero value, and an untyped
// constant (an int or float64 to the interpreter) is converted to a
// numeric element type as Go's assignment would. It returns false, having
// sent nothing, when the element type is an interface v does not
// implement natively: v is then a value of a cell type (a struct the
// interpreter made, its methods the interpreter's), and the cell's own
// send (pass interruptible) converts it.
func (r *Runtime) sendOp(c, v any) bool {
	if fastSend(c, v) {
		return true
	}
	cv := reflect.ValueOf(c)
	if cv.Kind() != reflect.Chan {
		panic(fmt.Sprintf("runtime error: send to a %T, not a channel", c))
	}
	et := cv.Type().Elem()
	x := reflect.ValueOf(v)
	switch {
	case !x.IsValid():
		x = reflect.Zero(et)
	case x.Type().AssignableTo(et):
	case numeric(x.Kind()) && numeric(et.Kind()):
		if truncates(x, et) {
			panic(fmt.Sprintf("cannot use %v (a %s) as %s value in send (truncated)", x, x.Type(), et))
		}
		x = x.Convert(et)
	case et.Kind() == reflect.Interface:
		return false
	default:
		panic(fmt.Sprintf("cannot send a value of type %s on a %s", x.Type(), cv.Type()))
	}
	if cv.IsNil() || !cv.TrySend(x) {
		r.chanOp(reflect.SelectSend, cv, x)
	}
	return true
}

// truncates reports whether converting the float x to the integer type et
// loses its fraction: `ch <- 1.5` on a chan int, a compile error in Go,
// arrives here as a float64 (the interpreter converts numeric constants
// without a check). A float64 variable of integral value is converted,
// where Go would refuse it.
func truncates(x reflect.Value, et reflect.Type) bool {
	switch x.Kind() {
	case reflect.Float32, reflect.Float64:
		switch et.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			return false
		}
		f := x.Float()
		return f != float64(int64(f))
	}
	return false
}

func numeric(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Complex128
}

// chanOp does one send or receive on c, or ends the cell as Interrupted
// when the running cell's done channel closes first. A nil channel
// blocks until the interrupt, as in Go.
func (r *Runtime) chanOp(dir reflect.SelectDir, c, send reflect.Value) (reflect.Value, bool) {
	cases := [2]reflect.SelectCase{
		{Dir: dir, Chan: c, Send: send},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(r.sig.done())},
	}
	if !c.IsValid() || c.IsNil() {
		cases[0] = reflect.SelectCase{Dir: reflect.SelectRecv}
	}
	chosen, v, ok := reflect.Select(cases[:])
	if chosen == 1 {
		panic(InterruptSignal{})
	}
	return v, ok
}
