package session

import (
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rt"
)

// recursionSite names the function runaway recursion went too deep in
// (diagnose.RecursionSite).
func (vm *vm) recursionSite(c cell.Cell, frames []string) string {
	return diagnose.RecursionSite(c, frames, &vm.funcs, vm.decls)
}

// depthMessage says what runaway recursion did and what to do.
func depthMessage(site string, sig rt.DepthSignal) string {
	return diagnose.DepthMessage(site, sig.Depth)
}

// depthError is the error of a cell whose code recursed past the limit.
func (vm *vm) depthError(c cell.Cell, sig rt.DepthSignal) *Error {
	return cell.Errorf(cell.RuntimeError, "%s", depthMessage(vm.recursionSite(c, vm.takeFrames()), sig))
}
