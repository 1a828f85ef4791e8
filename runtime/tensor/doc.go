// Package tensor is tick's tensor runtime: lazy tensors, a scheduler that fuses
// elementwise chains (and the reduce that consumes them) into kernels, devices
// with asynchronous queues, a capture-and-replay JIT, counters and DEBUG output.
//
// A *Tensor is a lazy node. Realize schedules its graph into kernels (see
// Kernel, the IR every backend consumes), compiles each kernel once per backend
// (cached by its source key), and enqueues it on the device's queue; it returns
// before the device finishes. A graph that is one kernel is keyed by a tape of
// its structure (eager.go), so a repeated eager op reuses its kernel without
// scheduling it again; buffers come from per-device pools (buffer.go). Reading data (ToSlice, Float32s, Item) and
// Device(name).Synchronize wait. JIT(fn) runs fn on call 1, captures the
// launched kernels on call 2 and replays them from call 3 on.
//
// RequiresGrad, Backward and Grad are reverse-mode automatic differentiation
// (autograd.go): gradients are lazy tensors too. Assign writes a value into
// a tensor's own buffer, so a training step (packages nn, optim) updates its
// parameters in place and a JIT replays it; Region names the part of a step
// a kernel belongs to, for profiles.
//
// The exported API is non-generic so the yaegi interpreter can import it.
// Library code never writes to os.Stdout: DEBUG output goes to the writer set
// with SetDebugWriter. See docs/runtime.md for the model.
package tensor
