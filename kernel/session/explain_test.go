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
		{name: "arity_of_a_method_on_a_call", code: "tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3).Transpose()", err: "not enough arguments in call to tensor.FromSlice(...).Transpose"},
		{name: "misspelled_method_on_a_call", code: "import \"tick/runtime/tensor\"\ny := tensor.Arange(3).Frobnicate()", err: "2:23: undefined method or field Frobnicate of *tensor.Tensor (what tensor.Arange returns)."},
		{name: "misspelled_method_of_a_variable", code: "x.Realise()", err: "undefined method or field Realise of *tensor.Tensor (the type of x); did you mean Realize?"},
		{name: "misspelled_std_method", code: "import \"strings\"\nvar sb strings.Builder\nsb.WriteStrin(\"x\")", err: "did you mean WriteString?"},
		{name: "misspelled_field_of_a_cell_type", code: "type P struct{ Name string }\np := P{}\np.Nme", err: "undefined method or field Nme of the type of p; did you mean Name?"},
		{name: "named_compiled_type_in_slices_sort", code: "import (\"slices\"; \"time\")\nds := []time.Duration{3, 1, 2}\nslices.Sort(ds)", err: "time.Duration is ordered in Go (its underlying type is), but tick's interpreter does not match"},
		{name: "what_it_says_to_write_works", code: "import \"sort\"\nds := []time.Duration{3, 1, 2}\nsort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })\nfmt.Sprint(ds)", value: `"[1ns 2ns 3ns]"`},
		{name: "unsafe_refused_saying_why", code: "import \"unsafe\"", err: "tick's interpreter does not provide package unsafe"},
		{name: "os_exec_refused_saying_what_instead", code: "import \"os/exec\"", err: "Run a command with a ! line"},
		{name: "newer_std_package", code: "import \"unique\"", err: "it is in Go's standard library, but not in tick's interpreter"},
		{name: "module_not_available", code: "import \"gonum.org/v1/gonum/mat\"", err: "A module (gonum.org/v1/gonum/mat) is imported when the kernel can build Go"},
		{name: "main_undefined_answers", code: "main()", err: "undefined: main (no cell has declared func main"},
		{name: "func_main_runs_at_the_end", code: "func main() { fmt.Println(\"main\") }\nfmt.Println(\"cell\")", out: "cell\nmain\n"},
		{name: "main_called_after", code: "main()", out: "main\n"},
	})
}
