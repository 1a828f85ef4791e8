package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// printEdge is how many items per axis String shows at each end when the
// tensor has more than printThreshold elements (numpy's defaults: 3, 1000).
const (
	printEdge      = 3
	printThreshold = 1000
)

// String synchronizes and prints the tensor like numpy, eliding the middle
// of long axes, followed by its shape, dtype and device.
func (t *Tensor) String() string {
	vals := t.Float64s()
	shape := t.l.shape
	elide := len(vals) > printThreshold
	var sb strings.Builder
	sb.WriteString("tensor(")
	strs := make([]string, len(vals))
	w := 0
	for i, v := range vals {
		strs[i] = formatValue(v, t.l.dtype)
		w = max(w, len(strs[i]))
	}
	writeNested(&sb, strs, shape, 0, 0, w, elide, len("tensor("))
	fmt.Fprintf(&sb, ", shape=%v, dtype=%s, device=%s)", shape, t.l.dtype, t.l.dev.name)
	return sb.String()
}

func formatValue(v float64, dt DType) string {
	switch dt {
	case Bool:
		if v != 0 {
			return "true"
		}
		return "false"
	case Int32:
		return strconv.FormatInt(int64(v), 10)
	}
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += "."
	}
	return s
}

func writeNested(sb *strings.Builder, strs []string, shape []int, axis, off, w int, elide bool, indent int) {
	if axis == len(shape) {
		sb.WriteString(fmt.Sprintf("%*s", w, strs[off]))
		return
	}
	n := shape[axis]
	inner := prod(shape[axis+1:])
	sb.WriteByte('[')
	for i := 0; i < n; i++ {
		if elide && n > 2*printEdge && i == printEdge {
			sb.WriteString("...")
			i = n - printEdge - 1
			if axis == len(shape)-1 {
				sb.WriteString(", ")
			} else {
				sb.WriteString(",\n" + strings.Repeat(" ", indent+axis+1))
			}
			continue
		}
		writeNested(sb, strs, shape, axis+1, off+i*inner, w, elide, indent)
		if i < n-1 {
			if axis == len(shape)-1 {
				sb.WriteString(", ")
			} else {
				sb.WriteString(",\n" + strings.Repeat("\n", len(shape)-axis-2) + strings.Repeat(" ", indent+axis+1))
			}
		}
	}
	sb.WriteByte(']')
}
