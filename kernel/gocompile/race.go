//go:build race

package gocompile

const raceEnabled = true
