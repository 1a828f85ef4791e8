package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/notebook"
)

// Exit statuses of `tick run`.
const (
	runOK       = 0
	runFailed   = 1 // a cell failed (or timed out, or was interrupted)
	runBadInput = 2 // usage error, unreadable or malformed notebook, unwritable output
)

const runUsage = `usage: tick run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors] [--timeout D]

Executes every code cell of NOTEBOOK in order in one Go session (the same
session the Jupyter kernel uses) and writes the executed notebook, with its
outputs, as nbformat 4.5. Progress is printed per cell on stderr.

The executed notebook goes to -o; by default it is NOTEBOOK.out.ipynb beside
the input (nb.ipynb → nb.out.ipynb). The input is never overwritten unless
-o names it. The notebook (and --html page) are written even when a cell
fails, so the error can be read in them.

Exit status: 0 when every cell ran; 1 when a cell failed (the message names
the cell and the error; --allow-errors runs on and exits 0); 2 for a usage
error or a file that is not a readable nbformat 4 notebook.

Flags:
`

func init() {
	register(&command{name: "run", usage: "NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors] [--timeout D]",
		summary: "execute a notebook headless and write the outputs (and an HTML page)",
		run: func(args []string, stdout, stderr io.Writer) error {
			// `tick run` distinguishes failing cells (1) from bad input (2)
			// and prints its own messages: main exits with the status.
			if code := runNotebook(args, stdout, stderr); code != runOK {
				return exitStatus(code)
			}
			return nil
		}})
}

// runFlags are the parsed arguments of `tick run`.
type runFlags struct {
	in, out, html string
	allowErrors   bool
	timeout       time.Duration
}

// parseRunFlags accepts flags before and after the notebook path.
func parseRunFlags(args []string, stderr io.Writer) (*runFlags, error) {
	f := &runFlags{}
	fs := flag.NewFlagSet("tick run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.out, "o", "", "write the executed notebook to `OUT.ipynb` (default NOTEBOOK.out.ipynb)")
	fs.StringVar(&f.html, "html", "", "also write a self-contained HTML page to `OUT.html`")
	fs.BoolVar(&f.allowErrors, "allow-errors", false, "keep running after a failing cell and exit 0")
	fs.DurationVar(&f.timeout, "timeout", 0, "interrupt a cell that runs longer than `D` (e.g. 30s, 5m; 0: no limit)")
	fs.Usage = func() {
		fmt.Fprint(stderr, runUsage)
		fs.PrintDefaults()
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fs.Usage()
		return nil, fmt.Errorf("want exactly one notebook, got %d arguments", len(pos))
	}
	f.in = pos[0]
	if f.out == "" {
		f.out = strings.TrimSuffix(f.in, ".ipynb") + ".out.ipynb"
	}
	return f, nil
}

// runNotebook is `tick run`, testable: progress and messages go to stderr.
func runNotebook(args []string, stdout, stderr io.Writer) int {
	f, err := parseRunFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return runOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "tick run: %v\n", err)
		return runBadInput
	}
	nb, err := readNotebookFile(f.in)
	if err != nil {
		fmt.Fprintf(stderr, "tick run: %v\n", err)
		return runBadInput
	}
	// Cells run in an engine process, as in the kernel: a fatal error in
	// one ends that cell with the error and a fresh engine runs the next.
	sess, closeSession, err := newRunner(engineFlags{background: true}, stderr) // os.Args of cells: ["main"], as in the kernel
	if err != nil {
		fmt.Fprintf(stderr, "tick run: starting the Go session: %v\n", err)
		return runFailed
	}
	defer closeSession()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	execErr := notebook.Execute(ctx, nb, sess, notebook.Options{
		Timeout:     f.timeout,
		AllowErrors: f.allowErrors,
		Progress:    func(p notebook.Progress) { printProgress(stderr, p) },
	})
	if err := writeOutputs(f, nb); err != nil {
		fmt.Fprintf(stderr, "tick run: %v\n", err)
		return runBadInput
	}
	fmt.Fprintf(stderr, "tick run: %d code cells in %.2fs; wrote %s", nb.CodeCells(), time.Since(start).Seconds(), f.out)
	if f.html != "" {
		fmt.Fprintf(stderr, " and %s", f.html)
	}
	fmt.Fprintln(stderr)
	if execErr != nil {
		fmt.Fprintf(stderr, "tick run: %s\n", describeFailure(execErr, f))
		return runFailed
	}
	return runOK
}

// readNotebookFile reads and parses a notebook, saying what to do when it
// cannot.
func readNotebookFile(path string) (*notebook.Notebook, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the notebook: %w", err)
	}
	defer fh.Close()
	nb, err := notebook.Read(fh)
	if err != nil {
		return nil, fmt.Errorf("%s is not a notebook tick can run: %w", path, err)
	}
	return nb, nil
}

// writeOutputs writes the executed notebook and the HTML page, each
// through a temporary file renamed into place, so a failed write never
// leaves a truncated file (nor damages the input when -o names it).
func writeOutputs(f *runFlags, nb *notebook.Notebook) error {
	if err := writeFileAtomic(f.out, f.in, func(w io.Writer) error { return notebook.Write(w, nb) }); err != nil {
		return err
	}
	if f.html == "" {
		return nil
	}
	return writeFileAtomic(f.html, f.in, func(w io.Writer) error { return notebook.WriteHTML(w, nb, notebook.HTMLOptions{}) })
}

// writeFileAtomic writes path in place of a temporary file: a new output
// gets the input notebook's mode filtered by the umask (notebook.WriteFile).
func writeFileAtomic(path, input string, write func(io.Writer) error) error {
	perm := os.FileMode(0o666)
	if fi, err := os.Stat(input); err == nil {
		perm = fi.Mode().Perm()
	}
	return notebook.WriteFile(path, perm, write)
}

// printProgress prints one line per code cell, the cell named by its
// execution count as the page's In[3] and error positions (cell[3]:2:1)
// name it: "[3/12] cell[3]  fmt.Println(x)  0.42s  ok".
func printProgress(w io.Writer, p notebook.Progress) {
	width := len(fmt.Sprint(p.Total))
	name := fmt.Sprintf("cell[%d]", p.Count)
	line := fmt.Sprintf("[%*d/%d] %-9s %-40s %7.2fs  %s", width, p.N, p.Total, name, p.FirstLine, p.Elapsed.Seconds(), p.Status)
	if p.Status == notebook.StatusSkipped {
		line = fmt.Sprintf("[%*d/%d] %-9s %-40s %8s  %s", width, p.N, p.Total, "", "(empty)", "", p.Status)
	}
	if p.Err != nil {
		line += ": " + p.Err.Error()
	}
	fmt.Fprintln(w, line)
}

// describeFailure says which cell failed and what to do next.
func describeFailure(err error, f *runFlags) string {
	var ce *notebook.CellError
	if errors.As(err, &ce) {
		msg := fmt.Sprintf("cell[%d] (%s) failed: %s", ce.Count, ce.FirstLine, ce.Err.Error())
		if errors.Is(ce.Err, cell.Timeout) {
			return msg
		}
		return msg + fmt.Sprintf("\n  the outputs up to it are in %s; fix the cell, or pass --allow-errors to run past failing cells", f.out)
	}
	if errors.Is(err, context.Canceled) {
		return "interrupted (Ctrl-C); the outputs so far are in " + f.out
	}
	return err.Error()
}
