package magic

import (
	"fmt"
	goscanner "go/scanner"
	"go/token"
	"hash/maphash"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/tick-kernel/tick/timing"
)

// inputSnapshot is a hash of the Go slices and arrays a statement reads
// (session variables it mentions and does not assign), taken before the
// measurement, to tell afterwards whether the statement changed them: a
// statement like sort.Ints(data) sorts data on its first call, and every
// later call times sorting a sorted slice. Tensors are immutable and are
// not hashed.
type inputSnapshot struct {
	h      Evaluator
	seed   maphash.Seed
	names  []string
	hashes []uint64
}

// maxHashed is the most bytes of one variable hashed (a few ms at most).
const maxHashed = 256 << 20

// snapshotInputs hashes the slices and arrays stmt reads.
func snapshotInputs(h Evaluator, stmt string) *inputSnapshot {
	s := &inputSnapshot{h: h, seed: maphash.MakeSeed()}
	n := namesOf(stmt)
	// Not h.Vars(): it formats every variable's value, which for a tensor
	// runs the runtime. A package is always followed by '.'; a slice or an
	// array never needs to be.
	selectors := selectorRoots(stmt)
	var names []string
	for _, name := range uniq(n.mentions) {
		if !selectors[name] && !slices.Contains(n.assigns, name) && !slices.Contains(n.declares, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return s
	}
	for i, v := range h.Values(names) { // one trip to the engine, whatever the statement
		if sum, ok := s.hash(v); ok {
			s.names, s.hashes = append(s.names, names[i]), append(s.hashes, sum)
		}
	}
	return s
}

// selectorRoots are the identifiers of stmt that are followed by '.' each
// time they appear (packages, and values whose methods or fields it uses).
func selectorRoots(stmt string) map[string]bool {
	var sc goscanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", fset.Base(), len(stmt)), []byte(stmt), nil, 0)
	roots, bare := map[string]bool{}, map[string]bool{}
	last := ""
	for {
		_, tok, lit := sc.Scan()
		if last != "" {
			if tok == token.PERIOD {
				roots[last] = true
			} else {
				bare[last] = true
			}
		}
		if tok == token.EOF {
			break
		}
		last = ""
		if tok == token.IDENT {
			last = lit
		}
	}
	for name := range bare {
		delete(roots, name)
	}
	return roots
}

// hash hashes a session variable's value when it is a slice or array of
// plain values (numbers, bools): their bytes as they are in memory.
func (s *inputSnapshot) hash(v reflect.Value) (uint64, bool) {
	if !v.IsValid() {
		return 0, false
	}
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Array {
		if v.IsNil() {
			return 0, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return 0, false
	}
	switch v.Type().Elem().Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
	default:
		return 0, false
	}
	size := v.Len() * int(v.Type().Elem().Size())
	if size == 0 || size > maxHashed {
		return 0, false
	}
	if v.Kind() == reflect.Array && !v.CanAddr() {
		return 0, false // a copy: nothing the statement could change
	}
	var p unsafe.Pointer
	if v.Kind() == reflect.Slice {
		p = v.UnsafePointer()
	} else {
		p = v.Addr().UnsafePointer()
	}
	return maphash.Bytes(s.seed, unsafe.Slice((*byte)(p), size)), true
}

// warning compares the inputs with the snapshot after the measurement
// and, when the statement changed some, says what that did to the result
// and how to give each call fresh data. setup reports a --setup (run once
// per sample: with more than one loop, the later calls of a sample still
// see what the first changed).
func (s *inputSnapshot) warning(r *timing.Result, setup bool) *timing.Warning {
	var changed []string
	if len(s.names) > 0 {
		for i, v := range s.h.Values(s.names) { // one trip to the engine
			if sum, ok := s.hash(v); ok && sum != s.hashes[i] {
				changed = append(changed, s.names[i])
			}
		}
	}
	if len(changed) == 0 || setup && r.Loops <= 1 {
		return nil
	}
	what := strings.Join(changed, ", ")
	msg := fmt.Sprintf("the statement changes data it reads: %s differed after the measurement, so each call after the first "+
		"ran on data an earlier call had changed (a sort then sorts sorted data), and the time is not that of the first call on fresh data", what)
	fix := fmt.Sprintf("give every call fresh data: copy inside the statement (c := slices.Clone(%s), then use c; the copy is timed "+
		"too, so time it alone to subtract it), or restore it in --setup and time one call per sample with -n 1", changed[0])
	if setup {
		msg = fmt.Sprintf("the statement changes data it reads: %s differed after the measurement; --setup runs once per sample, "+
			"so the %d later calls of each sample ran on data the first call had changed", what, r.Loops-1)
		fix = "time one call per sample with -n 1, or copy inside the statement"
	}
	return &timing.Warning{Kind: timing.WarnMutatesInput, Message: msg, Fix: fix}
}
