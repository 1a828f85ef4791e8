//go:build cgo

package gocompile

// cgoEnabled: plugins need cgo (the plugin package's Open is
// implemented with dlopen).
const cgoEnabled = true
