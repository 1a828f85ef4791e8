package device

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// backends is the process-wide registry: backends register from init
// functions and devices are found by name.
var backends = struct {
	sync.Mutex
	m map[string]Backend
}{m: map[string]Backend{}}

// Register makes a backend available under name (upper case by
// convention: "GO", "CPU", "NULL", "CL"). Registering a name twice, or a
// name with a ':' in it, panics: it is a programming error in the
// backend's init.
func Register(name string, b Backend) {
	name = strings.ToUpper(name)
	if name == "" || strings.Contains(name, ":") {
		panic(fmt.Sprintf("device: Register(%q): a backend name is non-empty and has no ':'", name))
	}
	backends.Lock()
	defer backends.Unlock()
	if _, dup := backends.m[name]; dup {
		panic("device: Register called twice for " + name)
	}
	backends.m[name] = b
}

// Lookup returns the backend registered as name (any case), or nil.
func Lookup(name string) Backend {
	backends.Lock()
	defer backends.Unlock()
	return backends.m[strings.ToUpper(name)]
}

// Names lists the registered backend names, sorted.
func Names() []string {
	backends.Lock()
	defer backends.Unlock()
	names := make([]string, 0, len(backends.m))
	for n := range backends.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseName splits a device name into its backend and ordinal: "CL:1" is
// ("CL", 1), "cpu" is ("CPU", 0).
func ParseName(name string) (backend string, ordinal int, err error) {
	backend = strings.ToUpper(strings.TrimSpace(name))
	i := strings.IndexByte(backend, ':')
	if i < 0 {
		return backend, 0, nil
	}
	n, err := strconv.Atoi(backend[i+1:])
	if err != nil || n < 0 {
		return "", 0, fmt.Errorf("device name %q: after the ':' comes a device number (CL:0, CL:1, ...)", name)
	}
	return backend[:i], n, nil
}
