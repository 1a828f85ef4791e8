// Package opts reads the options at the start of a magic's line: tokens
// that start with '-' (values may be quoted), up to the first token that
// does not, or "--"; the rest of the line is Go code and is returned
// untouched, never split like a shell command line. A bad option is a
// *UsageError that names the option, says why and gives the magic's usage
// line. Package magic and the magics of its subpackages (compiled,
// profiling) declare their options as Specs and read them with Parse.
package opts

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// UsageError reports bad arguments to a magic: which option (or argument)
// was wrong, why, and the magic's usage line. Nothing has run when it is
// returned, so the session's state is unchanged.
type UsageError struct {
	Magic  string // magic name without %
	Option string // the offending option or argument as written
	Reason string
	Usage  string // the usage line
}

func (e *UsageError) Error() string {
	return fmt.Sprintf("%%%s: %s: %s\nusage: %s\n(%%%s? shows every option with an example)",
		e.Magic, e.Option, e.Reason, e.Usage, e.Magic)
}

// Kind is how an option's value is read.
type Kind int

// The kinds of options.
const (
	Bool     Kind = iota // no value: -q, --svg
	Int                  // -n 10
	String               // --check 'x > 0'
	Duration             // -T 500ms (a bare number means seconds)
)

// Spec describes one option a magic accepts. Names holds every
// spelling ("-n", "--loops"); the first is the canonical key.
type Spec struct {
	Names []string
	Kind  Kind
	// Min is the smallest value an Int option accepts.
	Min int
	// Choices, when set, are the values a String option accepts; a value may
	// list several, comma-separated, when Multi is set.
	Choices []string
	Multi   bool
}

// Options holds the options found on a magic's line (Parse),
// keyed by the canonical name, and the raw text that followed them.
type Options struct {
	set  map[string]bool
	ints map[string]int
	strs map[string]string
	durs map[string]time.Duration
	// Rest is the text after the options, untouched (Go code).
	Rest string
}

// Has reports whether the option was given.
func (p *Options) Has(name string) bool { return p.set[name] }

// Int is the value of an Int option (0 when not given).
func (p *Options) Int(name string) int { return p.ints[name] }

// Str is the value of a String option, and whether it was given.
func (p *Options) Str(name string) (string, bool) {
	v, ok := p.strs[name]
	return v, ok
}

// Text is the value of a String option ("" when not given).
func (p *Options) Text(name string) string { return p.strs[name] }

// Duration is the value of a Duration option (0 when not given).
func (p *Options) Duration(name string) time.Duration { return p.durs[name] }

// Parse reads the leading options of magic's line against specs: tokens
// that start with '-' (values may be quoted with '...' or "..."), up to the
// first token that does not, or "--". The rest of the line is returned
// untouched in Rest: Go code is never split like a shell command line.
// usage is the magic's usage line, for the *UsageError of a bad option.
func Parse(magic, usage, line string, specs []Spec) (*Options, error) {
	p := &Options{set: map[string]bool{}, ints: map[string]int{}, strs: map[string]string{}, durs: map[string]time.Duration{}}
	bad := func(opt, format string, a ...any) error {
		return &UsageError{Magic: magic, Option: opt, Reason: fmt.Sprintf(format, a...), Usage: usage}
	}
	sc := &scanner{s: line}
	for {
		sc.skipSpace()
		if !sc.peekOption() {
			break
		}
		tok, err := sc.word()
		if err != nil {
			return nil, bad(tok, "%v", err)
		}
		if tok == "--" {
			sc.skipSpace()
			break
		}
		name, value, hasValue := strings.Cut(tok, "=")
		spec, attached := lookup(specs, name)
		if spec == nil {
			return nil, bad(name, "unknown option")
		}
		if hasValue && !strings.HasPrefix(name, "--") {
			return nil, bad(tok, "write short options without '=': %s VALUE", name)
		}
		if attached != "" { // -n10
			value, hasValue = attached, true
		}
		key := spec.Names[0]
		if p.set[key] {
			return nil, bad(name, "given twice")
		}
		p.set[key] = true
		if spec.Kind == Bool {
			if hasValue {
				return nil, bad(name, "takes no value")
			}
			continue
		}
		if !hasValue {
			sc.skipSpace()
			if sc.done() {
				return nil, bad(name, "needs a value")
			}
			if value, err = sc.word(); err != nil {
				return nil, bad(name, "%v", err)
			}
		} // a value after '=' was unquoted with its token: once is all
		if err := p.store(key, value, spec); err != nil {
			return nil, bad(name, "%v", err)
		}
	}
	p.Rest = strings.TrimSpace(sc.s[sc.i:])
	return p, nil
}

// lookup finds the spec of an option as written. For a short option with
// an attached value (-n10) it returns the value too.
func lookup(specs []Spec, name string) (*Spec, string) {
	for i := range specs {
		for _, n := range specs[i].Names {
			if n == name {
				return &specs[i], ""
			}
		}
	}
	if len(name) > 2 && name[1] != '-' {
		for i := range specs {
			for _, n := range specs[i].Names {
				if len(n) == 2 && strings.HasPrefix(name, n) && specs[i].Kind != Bool {
					return &specs[i], name[2:]
				}
			}
		}
	}
	return nil, ""
}

func (p *Options) store(key, value string, spec *Spec) error {
	switch spec.Kind {
	case Int:
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", value)
		}
		if n < spec.Min {
			return fmt.Errorf("%d is too small (at least %d)", n, spec.Min)
		}
		p.ints[key] = n
	case Duration:
		d, err := parseDuration(value)
		if err != nil {
			return err
		}
		p.durs[key] = d
	case String:
		if value == "" {
			return fmt.Errorf("empty value")
		}
		if len(spec.Choices) > 0 {
			if err := checkChoices(value, spec); err != nil {
				return err
			}
		}
		p.strs[key] = value
	}
	return nil
}

func checkChoices(value string, spec *Spec) error {
	vals := []string{value}
	if spec.Multi {
		vals = strings.Split(value, ",")
	}
	for _, v := range vals {
		ok := false
		for _, c := range spec.Choices {
			ok = ok || v == c
		}
		if !ok {
			return fmt.Errorf("%q is not one of %s", v, strings.Join(spec.Choices, ", "))
		}
	}
	return nil
}

// parseDuration reads a Go duration ("500ms", "2s"); a bare number is
// seconds, as in IPython.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return 0, fmt.Errorf("%q is not a duration (write 500ms, 2s or 1m)", s)
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be positive", s)
	}
	return d, nil
}

// scanner walks a magic's argument line.
type scanner struct {
	s string
	i int
}

func (sc *scanner) done() bool { return sc.i >= len(sc.s) }

func (sc *scanner) skipSpace() {
	for !sc.done() && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

// peekOption reports whether the next token is an option: '-' followed by
// a letter or a second '-' (so "-1" or "-x" in Go code is not taken).
func (sc *scanner) peekOption() bool {
	r := sc.s[sc.i:]
	if len(r) < 2 || r[0] != '-' {
		return false
	}
	c := r[1]
	if c == '-' {
		return len(r) == 2 || r[2] == ' ' || r[2] == '\t' || isLetter(r[2])
	}
	return isLetter(c) && (len(r) == 2 || r[2] == ' ' || r[2] == '\t' || r[2] == '=' || isDigit(r[2]))
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// word reads one whitespace-delimited token; quoted parts ('...' or "...",
// the latter with \" and \\ escapes) may contain spaces.
func (sc *scanner) word() (string, error) {
	start := sc.i
	for !sc.done() && sc.s[sc.i] != ' ' && sc.s[sc.i] != '\t' {
		switch q := sc.s[sc.i]; q {
		case '\'', '"':
			sc.i++
			for !sc.done() && sc.s[sc.i] != q {
				if q == '"' && sc.s[sc.i] == '\\' {
					sc.i++
				}
				sc.i++
			}
			if sc.done() {
				return sc.s[start:], fmt.Errorf("unterminated %c quote", q)
			}
		}
		sc.i++
	}
	return unquote(sc.s[start:sc.i])
}

// unquote removes the quotes of a token: 'a b' → a b, "a \"b\"" → a "b".
func unquote(tok string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		q := tok[i]
		if q != '\'' && q != '"' {
			b.WriteByte(q)
			continue
		}
		j := i + 1
		for ; j < len(tok) && tok[j] != q; j++ {
			if q == '"' && tok[j] == '\\' && j+1 < len(tok) {
				j++
			}
			b.WriteByte(tok[j])
		}
		if j >= len(tok) {
			return "", fmt.Errorf("unterminated %c quote", q)
		}
		i = j
	}
	return b.String(), nil
}
