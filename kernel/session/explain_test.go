package session

import "testing"

// TestErrorsPointTheRightWay: errors whose interpreter message points
// elsewhere name the construct and what to write instead.
func TestErrorsPointTheRightWay(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "setup", code: "import \"tick/runtime/tensor\"\nstep := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Realize() })\nx := tensor.Arange(4)"},
		{name: "jit_called_like_a_function", code: "step(x)", err: "step is a *tensor.JITFunc, not a function: call it with step.Call(...)"},
		{name: "call_without_arguments_named", code: "x.Transpose()", err: "not enough arguments in call to x.Transpose"},
		{name: "misspelled_std_package", code: "import \"strngs\"", err: `did you mean "strings"?`},
		{name: "module_not_available", code: "import \"gonum.org/v1/gonum/mat\"", err: "A module (gonum.org/v1/gonum/mat) is imported when the kernel can build Go"},
		{name: "main_undefined_answers", code: "main()", err: "undefined: main (no cell has declared func main"},
		{name: "func_main_runs_at_the_end", code: "func main() { fmt.Println(\"main\") }\nfmt.Println(\"cell\")", out: "cell\nmain\n"},
		{name: "main_called_after", code: "main()", out: "main\n"},
	})
}
