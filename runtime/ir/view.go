package ir

// Views: movement ops (reshape, permute, expand, shrink, flip, pad) change a
// View instead of copying data. A View maps a multi-index over its Shape to a
// flat element of a contiguous base (see View in kernel.go).

// ContiguousStrides are the row-major strides of shape.
func ContiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		st[d] = s
		s *= shape[d]
	}
	return st
}

// ContiguousView is the row-major view of shape.
func ContiguousView(shape []int) View {
	return View{Shape: append([]int(nil), shape...), Strides: ContiguousStrides(shape)}
}

// IsContiguous reports whether v reads a base of v.Shape in row-major order.
func (v View) IsContiguous() bool { return v.Offset == 0 && DenseView(v) }

// Clone is a deep copy of v.
func (v View) Clone() View {
	c := View{Shape: append([]int(nil), v.Shape...), Strides: append([]int(nil), v.Strides...), Offset: v.Offset}
	if v.Mask != nil {
		c.Mask = append([][2]int(nil), v.Mask...)
	}
	return c
}

// Permute reorders v's axes: axis i of the result is axis order[i] of v.
func (v View) Permute(order []int) View {
	c := View{Shape: make([]int, len(order)), Strides: make([]int, len(order)), Offset: v.Offset}
	if v.Mask != nil {
		c.Mask = make([][2]int, len(order))
	}
	for i, o := range order {
		c.Shape[i], c.Strides[i] = v.Shape[o], v.Strides[o]
		if v.Mask != nil {
			c.Mask[i] = v.Mask[o]
		}
	}
	return c
}

// Expand broadcasts size-1 axes to shape (stride 0).
func (v View) Expand(shape []int) View {
	c := v.Clone()
	for d, n := range shape {
		if c.Shape[d] != n {
			c.Shape[d], c.Strides[d] = n, 0
			if c.Mask != nil && c.Mask[d] == [2]int{0, 1} {
				c.Mask[d] = [2]int{0, n}
			} else if c.Mask != nil {
				c.Mask[d] = [2]int{0, 0}
			}
		}
	}
	return c
}

// Shrink keeps [r[d][0], r[d][1]) of each axis.
func (v View) Shrink(r [][2]int) View {
	c := v.Clone()
	for d, lr := range r {
		c.Offset += lr[0] * c.Strides[d]
		c.Shape[d] = lr[1] - lr[0]
		if c.Mask != nil {
			m := c.Mask[d]
			c.Mask[d] = [2]int{max(m[0]-lr[0], 0), max(min(m[1]-lr[0], c.Shape[d]), 0)}
		}
	}
	return c.NormMask()
}

// Flip reverses the given axes (negative strides).
func (v View) Flip(axes []int) View {
	c := v.Clone()
	for _, d := range axes {
		n := c.Shape[d]
		if n > 0 {
			c.Offset += (n - 1) * c.Strides[d]
		}
		c.Strides[d] = -c.Strides[d]
		if c.Mask != nil {
			m := c.Mask[d]
			c.Mask[d] = [2]int{n - m[1], n - m[0]}
		}
	}
	return c
}

// Pad adds p[d][0] zeros before and p[d][1] after axis d (masked).
func (v View) Pad(p [][2]int) View {
	c := v.Clone()
	if c.Mask == nil {
		c.Mask = make([][2]int, len(c.Shape))
		for d, n := range c.Shape {
			c.Mask[d] = [2]int{0, n}
		}
	}
	for d, lr := range p {
		c.Offset -= lr[0] * c.Strides[d]
		c.Mask[d] = [2]int{c.Mask[d][0] + lr[0], c.Mask[d][1] + lr[0]}
		c.Shape[d] += lr[0] + lr[1]
	}
	return c.NormMask()
}

// NormMask drops a mask that covers everything.
func (v View) NormMask() View {
	if v.Mask == nil {
		return v
	}
	for d, m := range v.Mask {
		if m != [2]int{0, v.Shape[d]} {
			return v
		}
	}
	v.Mask = nil
	return v
}

// Reshape returns the view with a new shape without copying, or false when
// the layout does not allow it (the caller copies to a contiguous buffer).
func (v View) Reshape(shape []int) (View, bool) {
	if Prod(shape) == 0 {
		return ContiguousView(shape), v.Mask == nil && Prod(v.Shape) == 0
	}
	if v.Mask != nil {
		return View{}, false
	}
	// Drop size-1 axes of the old view; they carry no layout.
	var od, os []int
	for d, n := range v.Shape {
		if n != 1 {
			od, os = append(od, n), append(os, v.Strides[d])
		}
	}
	ns := make([]int, len(shape))
	oi, oj, ni, nj := 0, 1, 0, 1
	for ni < len(shape) && oi < len(od) {
		if shape[ni] == 1 {
			ni, nj = ni+1, nj+1
			continue
		}
		np, op := shape[ni], od[oi]
		for np != op {
			if np < op {
				np *= shape[nj]
				nj++
			} else {
				op *= od[oj]
				oj++
			}
		}
		for k := oi; k < oj-1; k++ {
			if os[k] != od[k+1]*os[k+1] {
				return View{}, false
			}
		}
		ns[nj-1] = os[oj-1]
		for k := nj - 1; k > ni; k-- {
			ns[k-1] = ns[k] * shape[k]
		}
		ni, nj = nj, nj+1
		oi, oj = oj, oj+1
	}
	return View{Shape: append([]int(nil), shape...), Strides: ns, Offset: v.Offset}, true
}

// DenseView reports whether v reads a contiguous run of its base (row-major,
// any offset, no mask).
func DenseView(v View) bool {
	if v.Mask != nil {
		return false
	}
	cs := ContiguousStrides(v.Shape)
	for d, n := range v.Shape {
		if n != 1 && v.Strides[d] != cs[d] {
			return false
		}
	}
	return true
}
