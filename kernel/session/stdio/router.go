// Package stdio routes what cell code writes to the running cell's Sink,
// in order: fmt's prints and yaegi's own writes (Router.Writer), os.Stdout
// and os.Stderr (real *os.File pipes where the platform has them, read
// and routed in order with fmt's output), and display calls and magics
// (Cell, which flushes the text printed before them first). Stream text is
// coalesced and flushed at least every 20 ms. Reads of os.Stdin are
// answered by the running cell's front end, with the text printed last as
// the prompt. Between cells, output goes to Options.Background or is kept
// (bounded) for the next cell.
package stdio

import (
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tick-kernel/tick/display"
)

// Sink receives what a running cell produces, in order (session.Sink).
// Calls come from the goroutine running the cell and from goroutines the
// cell started.
type Sink interface {
	display.Publisher
	// Stream writes text to "stdout" or "stderr".
	Stream(name, text string)
}

// Discard is a Sink that drops all output.
var Discard Sink = discard{}

type discard struct{}

func (discard) Stream(string, string) {}
func (discard) Publish(display.Data)  {}
func (discard) Update(display.Data)   {}
func (discard) Clear(bool)            {}

// Input answers a read of standard input: prompt is what the code printed
// last on the line; password hides the echo.
type Input func(prompt string, password bool) (string, error)

// Options configure a Router.
type Options struct {
	// Background receives stream output that arrives while no cell runs
	// (from goroutines a finished cell left running). Nil keeps up to
	// 64 KiB of it and shows it at the start of the next cell.
	Background io.Writer
	// ProcessStreams routes the process's fd 1 and os.Stderr through the
	// cells' os.Stdout and os.Stderr pipes (Symbols): what compiled code
	// writes reaches the running cell in order with the rest. fd 2 is
	// left alone: Go's runtime writes its crash reports there.
	ProcessStreams bool
	// PanicFrame, when set, receives the lines yaegi writes to stderr for
	// each interpreted frame a panic unwinds through ("3:5: panic:
	// main.f(...)"): they are the traceback of the cell's error, not text.
	PanicFrame func(line string)
}

// Router is the standard streams of a session's cell code.
type Router struct {
	opts  Options
	stdin stdinReader
	files []*fileStream // os.Stdout and os.Stderr of cell code, when they are pipes
	used  atomic.Bool   // a cell's code named Stdout or Stderr (Drain)

	mu      sync.Mutex // guards the fields below
	cur     *streamer
	input   Input
	pending strings.Builder
}

// New returns a Router; no cell runs.
func New(opts Options) *Router {
	r := &Router{opts: opts}
	r.stdin.r = r
	return r
}

// Symbols returns os.Stdin, os.Stdout and os.Stderr for cell code (as
// YAEGI_SPECIAL_STDIO does), a yaegi symbol table: writes to os.Stdout
// reach the running cell instead of the process's stdout. Where the
// platform has them, os.Stdout and os.Stderr are *os.File, as in Go:
// pipes the Router reads and routes; else io.Writers. Call it once.
func (r *Router) Symbols() map[string]map[string]reflect.Value {
	var in io.Reader = &r.stdin
	syms := map[string]reflect.Value{"Stdin": reflect.ValueOf(&in).Elem()}
	for _, name := range []string{"stdout", "stderr"} {
		sym := map[string]string{"stdout": "Stdout", "stderr": "Stderr"}[name]
		f, err := r.newFileStream(name)
		if err != nil {
			w := r.Writer(name)
			syms[sym] = reflect.ValueOf(&w).Elem()
			continue
		}
		r.files = append(r.files, f)
		if r.opts.ProcessStreams && f.routeProcess() {
			r.used.Store(true) // any call may print through the process: every print drains first
		}
		file := f.file()
		syms[sym] = reflect.New(reflect.TypeOf(file)).Elem()
		syms[sym].Set(reflect.ValueOf(file))
	}
	return map[string]map[string]reflect.Value{"os/os": syms}
}

// Writer returns the writer of stream name ("stdout" or "stderr") that
// the interpreter and the fmt functions of cell code write to.
func (r *Router) Writer(name string) io.Writer { return writer{r, name} }

// Stdin returns the reader the interpreter's standard input is bound to.
func (r *Router) Stdin() io.Reader { return &r.stdin }

// Begin makes sink the destination of the streams for the cell whose
// code is code, and input its standard input (nil: reading is an error
// that says input is not allowed). Output kept while no cell ran comes
// first, on stderr.
func (r *Router) Begin(sink Sink, code string, input Input) *Cell {
	st := &streamer{sink: sink}
	if strings.Contains(code, "Stdout") || strings.Contains(code, "Stderr") {
		r.used.Store(true)
	}
	r.mu.Lock()
	pending := r.pending.String()
	r.pending.Reset()
	r.cur, r.input = st, input
	r.mu.Unlock()
	if pending != "" {
		st.write("stderr", pending)
	}
	r.stdin.reset()
	return &Cell{st}
}

// End routes what the cell's pipes still hold, flushes its text and
// detaches it: later output goes to the background.
func (r *Router) End(c *Cell) {
	r.Drain()
	r.mu.Lock()
	r.cur, r.input = nil, nil
	r.mu.Unlock()
	c.st.close()
}

// Current returns the running cell's output, or nil between cells.
func (r *Router) Current() *Cell {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil {
		return nil
	}
	return &Cell{r.cur}
}

// Emit routes stream text to the running cell, or to the background.
func (r *Router) Emit(name, text string) {
	r.mu.Lock()
	st := r.cur
	if st == nil {
		defer r.mu.Unlock()
		if r.opts.Background != nil {
			io.WriteString(r.opts.Background, text)
		} else if r.pending.Len() < maxPending {
			r.pending.WriteString(text)
		}
		return
	}
	r.mu.Unlock()
	st.write(name, text)
}

// Drain routes what cell code wrote to os.Stdout and os.Stderr and the
// Router has not read yet, so that it comes before what follows. Until a
// cell's code names os.Stdout or os.Stderr, nothing can have written to
// them (cell code reaches them only by name; native code has its own),
// and a print does not pay for the poll.
func (r *Router) Drain() {
	if r.used.Load() {
		drainStreams(r.files)
	}
}

// writer is the io.Writer the interpreter's stdout and stderr are bound
// to for the session's lifetime.
type writer struct {
	r    *Router
	name string
}

// panicLine matches the lines yaegi prints for each interpreted frame a
// panic unwinds through ("3:5: panic: main.f(...)"). They become the
// traceback of the cell's error instead of stderr text. A frame of code
// the session generated has no position ("-: panic: main.func(...)").
var panicLine = regexp.MustCompile(`^(?:(?:\S+:)?\d+:\d+|-): panic(?::|$)`)

func (w writer) Write(p []byte) (int, error) {
	text := string(p)
	if w.name == "stderr" && w.r.opts.PanicFrame != nil && panicLine.MatchString(text) {
		w.r.opts.PanicFrame(strings.TrimRight(text, "\n"))
		return len(p), nil
	}
	w.r.Drain() // what the cell wrote to os.Stdout before, first
	w.r.Emit(w.name, text)
	return len(p), nil
}

// ErrNoInput is returned to user code that reads standard input when the
// execution does not allow input.
var ErrNoInput = errors.New("session: this execution does not allow input (stdin is not connected): " +
	"run the cell from a front end that supports input, or pass the data in code")

// readLine answers a read of standard input from the running cell's
// Input.
func (r *Router) readLine() (string, error) {
	r.mu.Lock()
	input, st := r.input, r.cur
	r.mu.Unlock()
	if input == nil || st == nil {
		return "", ErrNoInput
	}
	return input(st.prompt(), false)
}

// stdinReader is bound to the interpreter's standard input. Each read
// asks the running cell's Input for one line.
type stdinReader struct {
	r   *Router
	mu  sync.Mutex
	buf []byte
}

func (in *stdinReader) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.buf) == 0 {
		line, err := in.r.readLine()
		if err != nil {
			return 0, err
		}
		in.buf = append(in.buf, line...)
		in.buf = append(in.buf, '\n')
	}
	n := copy(p, in.buf)
	in.buf = in.buf[n:]
	return n, nil
}

func (in *stdinReader) reset() {
	in.mu.Lock()
	in.buf = nil
	in.mu.Unlock()
}
