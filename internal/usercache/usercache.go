// Package usercache keeps the files that libraries write while the
// program starts in the user's own cache directory, not in a shared /tmp.
//
// go-graphviz (linked for %viz) compiles its WebAssembly module when its
// package initializes and caches the result in os.TempDir()/go-graphviz,
// created with the first user's ownership and mode 0700 inside: on a
// machine several people share (a JupyterHub), every other user's tick
// then panics before main ("open /tmp/go-graphviz/…: permission denied").
// This package is initialized before go-graphviz (it imports only the
// standard library, so Go's initialization order, by import path among
// the packages whose imports are ready, reaches it while go-graphviz still
// waits for wazero's); its init points TMPDIR at the user's cache,
// $TICK_CACHE_DIR or os.UserCacheDir()/tick, and Restore, called first
// thing in main, gives the program (and the cells it runs) back the
// TMPDIR it started with.
package usercache

import (
	"os"
	"path/filepath"
	"strconv"
)

// saved is the start-up TMPDIR, restored by Restore; set once by init.
var saved struct {
	value   string
	set, ok bool
}

// Dir is the directory start-up caches go to: $TICK_CACHE_DIR, else
// os.UserCacheDir()/tick, else os.TempDir()/tick-UID.
func Dir() string {
	if d := os.Getenv("TICK_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "tick")
	}
	return filepath.Join(os.TempDir(), "tick-"+strconv.Itoa(os.Getuid()))
}

func init() {
	dir := Dir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return // the libraries fall back to the shared temp dir
	}
	saved.value, saved.set = os.LookupEnv("TMPDIR")
	saved.ok = os.Setenv("TMPDIR", dir) == nil
}

// Restore sets TMPDIR back to its value at start-up (or unsets it).
func Restore() {
	if !saved.ok {
		return
	}
	if saved.set {
		os.Setenv("TMPDIR", saved.value)
	} else {
		os.Unsetenv("TMPDIR")
	}
}
