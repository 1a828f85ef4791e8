package supervisor

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
)

// The engine's stderr is a pipe to the supervisor: every line is copied to
// the kernel log, and the last crash report Go's runtime wrote there is
// kept, so that the cell that was running can quote it. A report starts
// with a line such as "fatal error: concurrent map writes", "panic: ...",
// "runtime: out of memory: ..." or "SIGSEGV: segmentation violation",
// continues with more such lines, and is followed by the goroutines'
// stacks, the goroutine that raised it first.

// crashStart matches the first line of a report of Go's runtime.
var crashStart = regexp.MustCompile(`^(fatal error: |panic: |runtime: |SIG[A-Z]+: |unexpected fault address|unexpected signal)`)

// fatalLine matches the line that names what ended the process.
var fatalLine = regexp.MustCompile(`^(fatal error: |panic: |SIG[A-Z]+: |unexpected fault address|unexpected signal)`)

// goroutineHeader matches "goroutine 23 [running]:" and variants.
var goroutineHeader = regexp.MustCompile(`^goroutine \d+ (gp=\S+ m=\S+ mp=\S+ )?\[[^\]]*\]:$`)

// Bounds of what a report keeps (the log has all of it).
const (
	maxHeaderLines    = 20
	maxGoroutineLines = 60
	tailLines         = 20
)

// crashReport is what the cell quotes of a dead engine's stderr.
type crashReport struct {
	// Header holds the report's first lines: the fatal message, and the
	// runtime's details before the stacks.
	Header []string
	// Goroutine is the stack of the goroutine that raised it, starting
	// with its "goroutine N [...]:" line; Truncated counts lines left out.
	Goroutine []string
	Truncated int
	// Tail is the last lines of stderr when there is no report.
	Tail []string
}

// Message is the fatal message without Go's prefix ("concurrent map
// writes"), or "" when the engine wrote none.
func (c *crashReport) Message() string {
	for _, l := range c.Header {
		for _, p := range []string{"fatal error: ", "panic: "} {
			if m, ok := strings.CutPrefix(l, p); ok {
				return strings.TrimSuffix(m, " [recovered]")
			}
		}
	}
	if len(c.Header) > 0 {
		return strings.TrimPrefix(c.Header[0], "runtime: ")
	}
	return ""
}

// stderrScanner copies the engine's stderr to the log and keeps the
// last crash report.
type stderrScanner struct {
	log  io.Writer
	done chan struct{}

	mu     sync.Mutex
	report crashReport
	state  int  // 0 outside a report, 1 in its header, 2 in the first goroutine, 3 after it
	sealed bool // the header is complete
	tail   []string
}

func newStderrScanner(r io.Reader, log io.Writer) *stderrScanner {
	s := &stderrScanner{log: log, done: make(chan struct{})}
	go s.run(r)
	return s
}

func (s *stderrScanner) run(r io.Reader) {
	defer close(s.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(s.log, line)
		s.mu.Lock()
		s.add(line)
		s.mu.Unlock()
	}
	// A line over 1 MiB ends the scan: copy the rest to the log as it is.
	_, _ = io.Copy(s.log, r)
}

// add records one line; s.mu is held.
func (s *stderrScanner) add(line string) {
	s.tail = append(s.tail, line)
	if len(s.tail) > tailLines {
		s.tail = s.tail[1:]
	}
	switch {
	case s.state != 1 && crashStart.MatchString(line):
		// A new report (the runtime prints one before it exits: the last
		// one is why the engine ended).
		s.report = crashReport{Header: []string{line}}
		s.state, s.sealed = 1, false
	case s.state == 1:
		switch {
		case goroutineHeader.MatchString(line):
			s.report.Goroutine = []string{line}
			s.state = 2
		case line == "":
			// The message ends at the first blank line after "fatal
			// error:" (runtime details may come before it); what follows
			// before the goroutine (the runtime's own stack) is left out.
			s.sealed = s.sealed || fatalLine.MatchString(s.report.Header[len(s.report.Header)-1])
		case !s.sealed && len(s.report.Header) < maxHeaderLines:
			s.report.Header = append(s.report.Header, line)
		}
	case s.state == 2:
		switch {
		case line == "":
			s.state = 3
		case len(s.report.Goroutine) < maxGoroutineLines:
			s.report.Goroutine = append(s.report.Goroutine, line)
		default:
			s.report.Truncated++
		}
	}
}

// Report returns the last crash report, or the tail of stderr when there
// is none.
func (s *stderrScanner) Report() crashReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.report
	if len(r.Header) == 0 {
		r.Tail = append([]string(nil), s.tail...)
	}
	return r
}
