//go:build !race

package gocompile

const raceEnabled = false
