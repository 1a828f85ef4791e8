package ir

// Gemm is a kernel recognized as a float32 matrix multiply: the scheduler
// expresses Matmul as a reduce-sum over the last axis of
// A[..., M, 1, K] * B[..., 1, N, K], and backends with a GEMM of their own
// (the GO backend's tiled loops, the CPU's packed C, OpenCL's tiles in
// local memory) run it instead of their generic reduce. Output element
// (batch..., i, j) is Σ_k A[OffA + Σ batch·BsA + i·SAi + k·SAk] ·
// B[OffB + Σ batch·BsB + j·SBj + k·SBk], summed in k order.
type Gemm struct {
	Batch      []int // batch sizes (the leading axes)
	BsA, BsB   []int // batch strides of A and B
	M, N, K    int
	OffA       int // A's offset and its strides along i and k
	SAi, SAk   int
	OffB       int // B's offset and its strides along j and k
	SBj, SBk   int
	BufA, BufB int // the kernel buffers A and B are read from
}

// MatchGemm returns k as a Gemm when it is a float32 contraction, else nil.
func MatchGemm(k *Kernel) *Gemm {
	nd := len(k.Shape)
	e := k.Expr
	if k.Reduce != ReduceSum || nd < 3 || len(k.ReduceAxes) != 1 || k.ReduceAxes[0] != nd-1 ||
		e.Op != OpMul || e.DType != Float32 || len(e.Src) != 2 {
		return nil
	}
	a, b := e.Src[0], e.Src[1]
	for _, l := range []*Node{a, b} {
		if l.Op != OpLoad || l.View.Mask != nil || l.DType != Float32 {
			return nil
		}
	}
	m, n, kd := nd-3, nd-2, nd-1
	if a.View.Strides[n] != 0 || b.View.Strides[m] != 0 {
		a, b = b, a
	}
	if a.View.Strides[n] != 0 || b.View.Strides[m] != 0 {
		return nil
	}
	g := &Gemm{M: k.Shape[m], N: k.Shape[n], K: k.Shape[kd],
		OffA: a.View.Offset, SAi: a.View.Strides[m], SAk: a.View.Strides[kd],
		OffB: b.View.Offset, SBj: b.View.Strides[n], SBk: b.View.Strides[kd],
		BufA: a.Buf, BufB: b.Buf}
	for d := 0; d < m; d++ {
		g.Batch = append(g.Batch, k.Shape[d])
		g.BsA = append(g.BsA, a.View.Strides[d])
		g.BsB = append(g.BsB, b.View.Strides[d])
	}
	return g
}
