//go:build !cgo || !unix

package cl

import (
	"strings"
	"testing"
)

// Built without cgo, the backend is registered and says why it cannot run
// and what to do.
func TestWithoutCgoSaysWhy(t *testing.T) {
	err := Backend{}.Available()
	if err == nil || !strings.Contains(err.Error(), "CGO_ENABLED=0") || !strings.Contains(err.Error(), "pocl-opencl-icd") {
		t.Errorf("Available() = %v, want an error naming CGO_ENABLED=0 and what to install", err)
	}
}
