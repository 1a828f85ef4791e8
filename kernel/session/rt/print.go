package rt

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// goPrint formats the operands of the print and println builtins as Go's
// runtime does (floats as +1.500000e+000, no spaces for print), for
// ᐩrt.Print and ᐩrt.Println (rewrite pass builtins).
func goPrint(args []any, ln bool) string {
	var b strings.Builder
	for i, a := range args {
		if ln && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(printOperand(a))
	}
	if ln {
		b.WriteByte('\n')
	}
	return b.String()
}

func printOperand(a any) string {
	v := reflect.ValueOf(a)
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return printFloat(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return "(" + printFloat(real(c)) + printFloat(imag(c)) + "i)"
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return fmt.Sprintf("%#x", v.Pointer())
	case reflect.Slice:
		return fmt.Sprintf("[%d/%d]%#x", v.Len(), v.Cap(), v.Pointer())
	case reflect.Invalid:
		return "nil"
	case reflect.Interface, reflect.Struct, reflect.Array:
		return fmt.Sprintf("(%v)", a)
	}
	return fmt.Sprint(a)
}

// printFloat formats f as Go's runtime printfloat: sign, one digit, six
// decimals, a signed three-digit exponent.
func printFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	s := fmt.Sprintf("%+e", f) // +2.500000e+00
	i := strings.LastIndexAny(s, "+-")
	exp := s[i+1:]
	for len(exp) < 3 {
		exp = "0" + exp
	}
	return s[:i+1] + exp
}
