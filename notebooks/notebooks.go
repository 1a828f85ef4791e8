// Package notebooks holds the tutorial notebooks (generated from
// gen/src by `go run ./notebooks/gen`), embedded for `tick warm`, which
// runs them to compile their C kernels into the disk cache ahead of a
// first session.
package notebooks

import "embed"

// Files are the tutorial notebooks, NN-name.ipynb.
//
//go:embed *.ipynb
var Files embed.FS
