package tensor

// A JIT's state: the buffers its captured kernels read that are neither
// its inputs nor computed by the step before being read — a training
// step's parameters and optimizer state (read, then updated in place by an
// assignment), and tensors the step reads but never writes (constants
// made outside it). Replays read and write them where the capture did;
// provenance and %viz list them, since they are as much what a replay
// computes on as its inputs.

import "fmt"

// stateBuffers lists, in first-read order, the buffers the launches read
// before any launch writes them, other than the inputs.
func stateBuffers(launches []capturedLaunch, inputs []*Buffer) []*Buffer {
	written := map[*Buffer]bool{}
	seen := map[*Buffer]bool{}
	for _, b := range inputs {
		seen[b] = true
	}
	var out []*Buffer
	for _, cl := range launches {
		for _, b := range cl.l.bufs[1:] {
			if !seen[b] && !written[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
		if len(cl.l.bufs) > 0 {
			written[cl.l.bufs[0]] = true
		}
	}
	return out
}

// updatedState reports which of the state buffers a captured launch
// writes (parameters and optimizer state, updated in place).
func (j *JITFunc) updatedState() map[*Buffer]bool {
	st := map[*Buffer]bool{}
	for _, b := range j.state {
		st[b] = false
	}
	for _, cl := range j.launches {
		if len(cl.l.bufs) > 0 {
			if _, ok := st[cl.l.bufs[0]]; ok {
				st[cl.l.bufs[0]] = true
			}
		}
	}
	return st
}

// stateStrings describes the state buffers: "[256 784] float32 on CPU
// (updated in place)" or "(read only)".
func (j *JITFunc) stateStrings() []string {
	upd := j.updatedState()
	out := make([]string, len(j.state))
	for i, b := range j.state {
		how := "read only"
		if upd[b] {
			how = "updated in place"
		}
		out[i] = fmt.Sprintf("%s (%s)", bufferFact(b), how)
	}
	return out
}

// bufferFact describes b as a TensorFact.
func bufferFact(b *Buffer) TensorFact {
	shape := b.shape
	if shape == nil {
		shape = []int{b.n}
	}
	return TensorFact{Shape: append([]int(nil), shape...), DType: b.dtype, Device: b.dev.name}
}

// regionKernels counts the captured launches per region, in first-seen
// order: "forward 6, backward 9, optimizer 12".
func (j *JITFunc) regionKernels() (names []string, counts []int) {
	idx := map[string]int{}
	for _, cl := range j.launches {
		r := cl.l.region
		if r == "" {
			r = "no region"
		}
		i, ok := idx[r]
		if !ok {
			i = len(names)
			idx[r] = i
			names = append(names, r)
			counts = append(counts, 0)
		}
		counts[i]++
	}
	return names, counts
}
