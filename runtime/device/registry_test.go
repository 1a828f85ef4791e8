package device

import (
	"strings"
	"testing"
)

func TestParseName(t *testing.T) {
	tests := []struct {
		in      string
		backend string
		ordinal int
		err     string
	}{
		{"cpu", "CPU", 0, ""},
		{" CL ", "CL", 0, ""},
		{"CL:1", "CL", 1, ""},
		{"cl:0", "CL", 0, ""},
		{"CL:", "", 0, "device number"},
		{"CL:x", "", 0, "device number"},
		{"CL:-1", "", 0, "device number"},
	}
	for _, tc := range tests {
		b, n, err := ParseName(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseName(%q) error %v, want one saying %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || b != tc.backend || n != tc.ordinal {
			t.Errorf("ParseName(%q) = %q, %d, %v; want %q, %d", tc.in, b, n, err, tc.backend, tc.ordinal)
		}
	}
}

type noBackend struct{}

func (noBackend) Available() error         { return nil }
func (noBackend) Open(int) (Device, error) { return nil, nil }

func TestRegisterRefusesDuplicatesAndOrdinals(t *testing.T) {
	Register("TESTREG", noBackend{})
	if Lookup("testreg") == nil {
		t.Fatal("Lookup is not case-insensitive")
	}
	for _, name := range []string{"TESTREG", "testreg", "BAD:1", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			Register(name, noBackend{})
		}()
	}
}
