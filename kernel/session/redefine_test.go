package session

import "testing"

// TestRedefinedFunctionSeenByCallers: a function redefined in a later
// cell is what the functions declared before call, directly or through
// another function.
func TestRedefinedFunctionSeenByCallers(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "define", code: "import \"fmt\"\nfunc helper() int { return 1 }\nfunc caller() int { return helper() * 10 }\nfunc outer() int { return caller() + 1 }\nfmt.Println(caller(), outer())", out: "10 11\n"},
		{name: "redefine", code: "func helper() int { return 2 }\nfmt.Println(caller(), outer())", out: "20 21\n"},
		{name: "again", code: "func helper() int { return 3 }", out: ""},
		{name: "later_cell", code: "fmt.Println(caller(), outer())", out: "30 31\n"},
		{name: "mutual_recursion", code: "func even(n int) bool { if n == 0 { return true }; return odd(n - 1) }\nfunc odd(n int) bool { if n == 0 { return false }; return even(n - 1) }\nfmt.Println(even(4))", out: "true\n"},
		{name: "redefine_in_cycle", code: "func odd(n int) bool { if n == 0 { return false }; return even(n - 1) }\nfmt.Println(even(5))", out: "false\n"},
	})
}
