//go:build !linux

package main

// consoleTerm: the console's terminal is watched on Linux only.
type consoleTerm struct{}

func findConsoleTerm() *consoleTerm { return nil }

func (*consoleTerm) prompting() bool { return false }
