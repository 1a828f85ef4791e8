package kernel_test

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel"
)

// Handle refuses what http.ServeMux refuses: a second handler for a type,
// an empty type, a nil handler.
func TestMuxRefusesBadRegistrations(t *testing.T) {
	ok := func(kernel.Responder, *kernel.Request) {}
	for _, tc := range []struct {
		name     string
		register func(m *kernel.Mux)
		want     string
	}{
		{"duplicate", func(m *kernel.Mux) { m.HandleFunc("x_request", ok); m.HandleFunc("x_request", ok) }, "multiple registrations for x_request"},
		{"empty type", func(m *kernel.Mux) { m.HandleFunc("", ok) }, "empty message type"},
		{"nil handler", func(m *kernel.Mux) { m.Handle("y_request", nil) }, "nil handler"},
		{"nil func", func(m *kernel.Mux) { m.HandleFunc("y_request", nil) }, "nil handler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tc.want) {
					t.Errorf("panic %v, want one containing %q", r, tc.want)
				}
			}()
			tc.register(kernel.NewMux(nil))
		})
	}
}
