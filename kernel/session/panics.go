package session

import (
	"fmt"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rt"
)

// panicError converts a panic of running code of c.
func (vm *vm) panicError(c cell.Cell, p interp.Panic) *Error {
	vm.mu.Lock()
	frames := vm.frames
	vm.frames = nil
	vm.mu.Unlock()
	switch v := p.Value.(type) {
	case rt.InterruptSignal:
		return diagnose.Interrupted()
	case rt.DepthSignal:
		return cell.Errorf(cell.RuntimeError, "%s", depthMessage(vm.recursionSite(c, frames), v))
	}
	var tb []string
	first, inFunc := "", false
	for i, f := range frames {
		if i == 20 {
			tb = append(tb, fmt.Sprintf("    ... %d more frames", len(frames)-20))
			break
		}
		m := diagnose.YaegiFrame.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		where := c.N
		fn := strings.TrimSuffix(m[2], "(...)")
		fn = strings.TrimPrefix(fn, "main.")
		if n, ok := vm.decls.FuncCell(strings.SplitN(fn, ".", 2)[0]); ok {
			where = n
		}
		pos := fmt.Sprintf("cell[%d]:%s", where, m[1])
		if first == "" {
			first, inFunc = pos, fn != "" && fn != "main"
		}
		if fn == "" || fn == "main" {
			tb = append(tb, "    at "+pos)
		} else {
			tb = append(tb, "    at "+pos+" in "+fn)
		}
	}
	msg := fmt.Sprint(p.Value)
	if err, ok := p.Value.(error); ok {
		msg = err.Error()
	} else if text, ok := vm.ct.PanicText(rt.PlainValue(p.Value)); ok {
		msg = text
	}
	var note string
	reported := msg
	msg, note = diagnose.GoPanicMessage(c, msg)
	if detail := vm.diag.BoundsDetail(c, msg, inFunc); detail != "" {
		msg, note = detail, fmt.Sprintf("(the interpreter reported %q, without the index and length: tick read them from the cell's variables)", reported)
	}
	if note != "" {
		tb = append([]string{"  " + note}, tb...)
	}
	if first != "" {
		// yaegi knows the function a panic unwinds through, not the
		// statement: the position is where the innermost function starts.
		msg = msg + " (in the function at " + first + ")"
	}
	if go_ := diagnose.GoFrames(p.Stack); len(go_) > 0 {
		tb = append(tb, "  Go frames (native code):")
		tb = append(tb, go_...)
	}
	return cell.Errorf(cell.Panic, "%s", msg).Trace(tb...)
}
