package tensor

// The NULL device: allocates memory and runs nothing. It lets the scheduler,
// queue, counters and JIT be tested (and timed) without computing anything,
// like tinygrad's null device. Results read from NULL tensors are zeros.

func init() { RegisterBackend("NULL", nullBackend{}) }

type nullBackend struct{}

func (nullBackend) Available() error { return nil }

func (nullBackend) Alloc(dt DType, n int) (Memory, error) {
	return hostMemory(make([]byte, n*dt.Size())), nil
}

func (nullBackend) Compile(k *Kernel) (Program, error) { return nullProgram{src: k.Key()}, nil }

type nullProgram struct{ src string }

func (nullProgram) Run([]Memory, int, int) {}

func (p nullProgram) Source() string { return "// NULL device: does nothing\n" + p.src }

// hostMemory is Go-heap storage, freed by the garbage collector.
type hostMemory []byte

func (m hostMemory) Bytes() []byte { return m }
func (hostMemory) Free()           {}

// Describe says the NULL device computes nothing.
func (nullBackend) Describe() string { return "NULL (runs nothing; results are zeros)" }
