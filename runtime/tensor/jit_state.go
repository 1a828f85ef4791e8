package tensor

// A JIT's state: the buffers its captured kernels read that are neither
// its inputs nor computed by the step before being read — a training
// step's parameters and optimizer state (read, then updated in place by an
// assignment), and tensors the step reads but never writes (constants
// made outside it). Replays read and write them where the capture did;
// provenance and %viz list them, since they are as much what a replay
// computes on as its inputs.

import (
	"fmt"
	"slices"
	"strings"
)

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

// compactKernels is the most captured kernels JITFunc.Plan draws
// expression by expression; a larger capture (a training step's forty or
// so) is drawn a node per kernel, or its graph would be thousands of
// points wide.
const compactKernels = 16

// compactKernel adds kernel ki of a capture to p as one node — its name
// and ops — reading the buffers it loads and feeding the one it writes
// (read and write return a buffer's node as read, as written), and returns
// the written buffer's node.
func compactKernel(p *Plan, ki int, cl capturedLaunch, read, write func(*Buffer) int) int {
	k := cl.l.k
	var ops []string
	var srcs []int
	seen := map[*Node]bool{}
	var walk func(n *Node)
	walk = func(n *Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, s := range n.Src {
			walk(s)
		}
		switch n.Op {
		case OpLoad:
			if id := read(cl.l.bufs[n.Buf]); !slices.Contains(srcs, id) {
				srcs = append(srcs, id)
			}
		case OpConst:
		default:
			if op := n.Op.String(); !slices.Contains(ops, op) {
				ops = append(ops, op)
			}
		}
	}
	walk(k.Expr)
	if k.Reduce != ReduceNone {
		ops = append(ops, k.Reduce.String()+" over "+fmt.Sprint(k.ReduceAxes))
	}
	id := len(p.Nodes)
	p.Nodes = append(p.Nodes, GraphNode{ID: id, Kind: "op", Label: strings.Join(ops, ", "), Shape: append([]int(nil), k.Shape...), DType: k.Bufs[0].DType,
		Device: cl.dev.name, Srcs: srcs, Kernel: ki})
	out := write(cl.l.bufs[0])
	p.Nodes[out].Srcs = append(p.Nodes[out].Srcs, id)
	return out
}

// capturedKernel describes captured launch ki, writing node out.
func capturedKernel(ki int, cl capturedLaunch, out int) PlannedKernel {
	k := cl.l.k
	pk := PlannedKernel{Name: k.Name, Device: cl.dev.name, Shape: append([]int(nil), k.Shape...), Reduce: k.Reduce.String(),
		Output: out, Reason: fmt.Sprintf("captured launch %d", ki+1), IR: k.Key(),
		Source: cl.l.prog.Source(), FLOPs: k.FLOPs(), Bytes: k.Bytes(), Cached: true,
		Global: cl.l.prog.Dims().Global, Local: cl.l.prog.Dims().Local, Region: cl.l.region}
	if cl.l.region != "" {
		pk.Reason += " (" + cl.l.region + ")"
	}
	return pk
}
