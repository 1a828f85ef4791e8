// Package compat measures how much Go tick runs as written, against two
// references: `go run` (what the program means) and plain yaegi (the
// interpreter tick is built on, run the way `yaegi run` runs a file).
//
// It holds tests only. TestYaegiCorpus runs the yaegi module's own test
// programs (its `_test` directory, at the version go.mod pins) three ways:
// compiled by the Go toolchain, through a fresh tick session as one pasted
// cell (the production session of kernel/app, magics included), and
// through a fresh yaegi interpreter. The rule it enforces: every program
// plain yaegi gets right, tick gets right; the programs tick gets wrong
// are listed, with the reason, in testdata/known.txt and
// docs/compatibility.md. See docs/compatibility.md for the figures and how
// to run it.
package compat
