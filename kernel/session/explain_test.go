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
		{name: "misspelled_field_of_a_cell_type", code: "type P struct{ Name string }\np := P{}\np.Nme", err: "undefined method or field Nme of P (a type a cell declared); did you mean Name?"},
		{name: "cell_type_with_methods", code: "type Q struct{ Name string }\nfunc (q Q) Greet() string { return \"hi \" + q.Name }\nfunc (q *Q) Rename(n string) { q.Name = n }\nq := Q{}"},
		{name: "misspelled_method_of_a_cell_type", code: "q.Gret()", err: "1:3: undefined method or field Gret of Q (a type a cell declared); did you mean Greet?"},
		{name: "misspelled_method_of_a_pointer_to_a_cell_type", code: "qp := &q\nqp.Renme(\"x\")", err: "2:4: undefined method or field Renme of Q (a type a cell declared); did you mean Rename?"},
		{name: "misspelled_method_of_a_named_float_declared_in_the_cell", code: "type Celsius float64\nfunc (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }\nc := Celsius(3)\nc.Farenheit()", err: "4:3: undefined method or field Farenheit of Celsius (a type a cell declared); did you mean Fahrenheit?"},
		{name: "misspelled_method_of_a_cell_funcs_result", code: "func mk() Q { return Q{} }\nmk().Gret()", err: "2:6: undefined method or field Gret of Q (a type a cell declared); did you mean Greet?"},
		{name: "named_compiled_type_in_slices_sort", code: "import (\"cmp\"; \"slices\"; \"time\")\nds := []time.Duration{3, 1, 2}\nslices.Sort(ds)\nfmt.Println(ds, slices.Max(ds), cmp.Compare(ds[0], ds[1]), max(ds[0], ds[1]))", out: "[1ns 2ns 3ns] 3ns -1 2ns\n"},
		{name: "named_cell_type_in_slices_sort", code: "type Celsius float64\ncs := []Celsius{3, 1, 2}\nslices.Sort(cs)\nfmt.Println(cs, slices.Min(cs), cmp.Less(cs[0], cs[1]))", out: "[1 2 3] 1 true\n"},
		{name: "named_key_in_maps_keys", code: "import \"maps\"\ntype Name string\nages := map[Name]int{\"bo\": 3, \"al\": 5}\nfmt.Println(slices.Sorted(maps.Keys(ages)))", out: "[al bo]\n"},
		{name: "unsafe_refused_saying_why", code: "import \"unsafe\"", err: "tick's interpreter does not provide package unsafe"},
		{name: "os_exec_refused_saying_what_instead", code: "import \"os/exec\"", err: "Run a command with a ! line"},
		{name: "newer_std_package", code: "import \"unique\"", err: "it is in Go's standard library, but not in tick's interpreter"},
		{name: "module_not_available", code: "import \"gonum.org/v1/gonum/mat\"", err: "A module (gonum.org/v1/gonum/mat) is imported when the kernel can build Go"},
		{name: "main_undefined_answers", code: "main()", err: "undefined: main (no cell has declared func main"},
		{name: "func_main_runs_at_the_end", code: "func main() { fmt.Println(\"main\") }\nfmt.Println(\"cell\")", out: "cell\nmain\n"},
		{name: "main_called_after", code: "main()", out: "main\n"},
	})
}
