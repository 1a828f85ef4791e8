package notebook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Options control Execute.
type Options struct {
	// Timeout limits each cell; zero means no limit. A cell that runs out
	// of time is interrupted and fails with a "Timeout" error.
	Timeout time.Duration
	// AllowErrors keeps executing after a failing cell; the error is kept
	// as the cell's output either way.
	AllowErrors bool
	// Progress, when set, is called after each code cell.
	Progress func(Progress)
	// InterruptGrace is how long Execute waits for an interrupted cell to
	// stop before it gives up on the session; zero means 5 s.
	InterruptGrace time.Duration
}

// Status of an executed cell.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusTimeout = "timeout"
	StatusSkipped = "skipped" // empty cell
)

// Progress reports one executed code cell.
type Progress struct {
	// N is the position among code cells (1-based) and Total their number.
	N, Total int
	// Cell is the position of the cell in the notebook (1-based, all cells
	// counted); Count its execution count (0 for an empty cell, which is
	// skipped): the number the page shows as In[Count] and error positions
	// as cell[Count].
	Cell, Count int
	FirstLine   string
	Elapsed     time.Duration
	Status      string
	// Err is the cell's error when Status is error or timeout.
	Err *session.Error
}

// CellError is returned by Execute for the first failing cell (when errors
// are not allowed) or for a cell that could not be stopped.
type CellError struct {
	// Cell is the position of the cell in the notebook (1-based, all cells
	// counted); Count is its execution count.
	Cell, Count int
	FirstLine   string
	Err         *session.Error
}

func (e *CellError) Error() string {
	return fmt.Sprintf("notebook: cell[%d] (%s) failed: %s", e.Count, e.FirstLine, e.Err.Error())
}

// ErrStuck is wrapped by Execute's error when a cell did not stop after an
// interrupt: the session is still busy and cannot run more cells.
var ErrStuck = errors.New("the cell did not stop after an interrupt")

// Execute runs the code cells of nb in order through r, replacing their
// outputs and execution counts, and sets tick's kernel metadata. Empty code
// cells are skipped (no count). It stops at the first failing cell unless
// opts.AllowErrors, returning a *CellError; cells after it keep no outputs.
// When ctx ends, the running cell is interrupted and Execute returns.
func Execute(ctx context.Context, nb *Notebook, r session.Runner, opts Options) error {
	nb.SetTickKernel()
	for _, c := range nb.Cells {
		if c.Type == Code {
			c.Outputs, c.ExecutionCount = nil, nil
		}
	}
	rec := &recorder{nb: nb}
	defer rec.close()
	total, n, count := nb.CodeCells(), 0, 0
	for i, c := range nb.Cells {
		if c.Type != Code {
			continue
		}
		n++
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("notebook: stopped before cell %d: %w", i+1, err)
		}
		p := Progress{N: n, Total: total, Cell: i + 1, FirstLine: FirstLine(c.Source)}
		if strings.TrimSpace(c.Source) == "" {
			p.Status = StatusSkipped
			report(opts, p)
			continue
		}
		count++
		p.Count = count
		c.ExecutionCount = intPtr(count)
		start := time.Now()
		res, stuck := runCell(ctx, r, c, count, rec, opts)
		p.Elapsed = time.Since(start)
		p.Status, p.Err = StatusOK, res.Err
		if res.Err != nil {
			p.Status = StatusError
			if errors.Is(res.Err, cell.Timeout) {
				p.Status = StatusTimeout
			}
		}
		report(opts, p)
		if stuck {
			return &CellError{Cell: i + 1, Count: count, FirstLine: p.FirstLine, Err: res.Err}
		}
		if res.Err != nil && !opts.AllowErrors {
			return &CellError{Cell: i + 1, Count: count, FirstLine: p.FirstLine, Err: res.Err}
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("notebook: stopped after cell %d: %w", i+1, err)
		}
	}
	return nil
}

func report(opts Options, p Progress) {
	if opts.Progress != nil {
		opts.Progress(p)
	}
}

// runCell executes one cell and records its result. stuck is true when the
// cell had to be abandoned because it did not stop after an interrupt.
func runCell(ctx context.Context, r session.Runner, c *Cell, count int, rec *recorder, opts Options) (res session.Result, stuck bool) {
	sink := rec.begin(c)
	defer rec.end()
	cellCtx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		cellCtx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	defer cancel()
	done := make(chan session.Result, 1)
	go func() {
		done <- r.Execute(cellCtx, session.Cell{Code: c.Source, Count: count}, sink)
	}()
	select {
	case res = <-done:
	case <-cellCtx.Done():
		r.Interrupt()
		grace := opts.InterruptGrace
		if grace <= 0 {
			grace = 5 * time.Second
		}
		select {
		case res = <-done:
		case <-time.After(grace):
			stuck = true
			res = session.Result{Err: cell.Errorf(cell.Interrupted, "%w", ErrStuck)}
		}
		if ctx.Err() == nil { // the cell's own timeout, not the caller's
			res.Value = nil
			res.Err = timeoutError(opts.Timeout, stuck)
		}
	}
	recordResult(rec, sink, res, count)
	return res, stuck
}

func timeoutError(d time.Duration, stuck bool) *session.Error {
	msg := fmt.Sprintf("the cell did not finish within %v and was interrupted", d)
	if stuck {
		msg += "; it did not stop, so no further cells can run"
	}
	msg += " (raise the limit with --timeout)"
	return cell.Errorf(cell.Timeout, "%s", msg)
}

// recordResult appends the cell's value, page text and error as outputs.
func recordResult(rec *recorder, sink *cellSink, res session.Result, count int) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if res.Page != "" {
		sink.appendLocked(&Output{Type: DisplayData, Data: MIMEBundle{"text/plain": res.Page}})
	}
	if v := res.Value; v != nil {
		sink.appendLocked(&Output{Type: ExecuteResult, Data: convertBundle(v.Bundle),
			Metadata: convertMetadata(v.Metadata), ExecutionCount: intPtr(count), DisplayID: v.ID})
	}
	if e := res.Err; e != nil {
		tb := e.Traceback
		if len(tb) == 0 {
			tb = []string{e.Error()}
		}
		sink.appendLocked(&Output{Type: ErrorOutput, EName: string(e.Name), EValue: e.Value, Traceback: tb})
	}
}

// FirstLine returns the first non-blank line of src, trimmed and cut to 40
// runes, for progress lines and messages.
func FirstLine(src string) string {
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if r := []rune(l); len(r) > 40 {
			l = string(r[:37]) + "..."
		}
		return l
	}
	return ""
}

func intPtr(n int) *int { return &n }
