package diagnose

import (
	"fmt"
	"regexp"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The interruptible pass sends through ᐩrt.Send, whose arguments are
// `any`: a constant of the wrong type would panic only when the send is
// reached. So a send of a constant is also kept, never run, where the
// interpreter compiles it (`if *ᐩrt.Never { c <- v }`), and the
// interpreter's compiler crashes converting the constant. constantError
// reports that crash as the compile error Go gives.

var convertCrash = regexp.MustCompile(`^(\d+:\d+): CFG post-order panic: reflect\.Value\.Convert: value of type (\S+) cannot be converted to type (\S+)$`)

// constantError returns the compile error for the interpreter's crash v
// when it converted a constant to a type it cannot have, or nil.
func constantError(c cell.Cell, v any) *cell.Error {
	m := convertCrash.FindStringSubmatch(fmt.Sprint(v))
	if m == nil {
		return nil
	}
	return cell.Errorf(cell.CompileError, "%s", cell.Message(c.N, fmt.Sprintf(
		"%s: cannot use a %s constant as %s value (in a send, an assignment or an argument): give a value of type %s",
		m[1], m[2], m[3], m[3])))
}
