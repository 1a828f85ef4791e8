//go:build !cgo

package gocompile

const cgoEnabled = false
