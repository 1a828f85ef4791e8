package supervisor

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tick-kernel/tick/internal/memlimit"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Kinds of the error of a cell whose engine ended (the ename front ends
// show), beside cell.Interrupted for an engine that ignored interrupts.
const (
	// Fatal: Go's runtime ended the engine (fatal error, unrecovered
	// panic, a signal in C code).
	Fatal cell.Kind = "FatalError"
	// MemoryLimit: the engine went past the memory ceiling and was ended
	// (by the supervisor or by an out-of-memory killer).
	MemoryLimit cell.Kind = "MemoryLimit"
	// EngineDied: the engine ended some other way (a signal from outside,
	// os.Exit in compiled code).
	EngineDied cell.Kind = "EngineDied"
)

// death is how and why an engine ended.
type death struct {
	pid        int
	status     string // "exit status 2", "signal: killed"
	signal     syscall.Signal
	exitCode   int
	report     crashReport
	killed     string // the supervisor's reason, "" if it did not end it
	peak, last int64  // memory use, bytes
	ceiling    memlimit.Ceiling
	oomKilled  bool // an out-of-memory killer's counter went up
	lived      time.Duration
	duringCell bool
}

// describe gathers the death of e; the process has been waited for.
func (e *engine) describe(duringCell bool, killed string) *death {
	d := &death{pid: e.pid, report: e.errs.Report(), killed: killed, peak: e.peak.Load(), last: e.last.Load(),
		ceiling: e.r.cfg.Memory, lived: time.Since(e.born), duringCell: duringCell, exitCode: -1}
	if st := e.cmd.ProcessState; st != nil {
		d.status = st.String()
		d.exitCode = st.ExitCode()
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			d.signal = ws.Signal()
		}
	}
	if d.signal == syscall.SIGKILL && killed == "" {
		d.oomKilled = e.r.cfg.MemorySystem.OOMKills() > e.oom
	}
	if killed == "" || killed == reasonShutdown {
		e.r.logf("engine %d ended (%s) after %v", e.pid, d.status, d.lived.Round(time.Millisecond))
	}
	return d
}

// lost is what every report says about the session's state.
const lost = "The session's variables, functions and imports lived in that process and were lost with it. " +
	"tick started a fresh engine on the same connection: run the cells this one needs again."

// kind classifies the death.
func (d *death) kind() cell.Kind {
	switch {
	case d.killed == reasonMemory || d.oomKilled:
		return MemoryLimit
	case d.killed == reasonUnresponsive:
		return cell.Interrupted
	case len(d.report.Header) > 0:
		return Fatal
	}
	return EngineDied
}

// summary is the one-line evalue.
func (d *death) summary() string {
	switch d.kind() {
	case MemoryLimit:
		return d.memorySentence()
	case cell.Interrupted:
		return fmt.Sprintf("the engine did not stop after %d interrupts, so tick ended it", killAfterInterrupts)
	case Fatal:
		return d.report.Message() + ": Go's runtime ended the engine running the cell"
	}
	return "the engine running the cell ended (" + d.status + ")"
}

func (d *death) memorySentence() string {
	use := d.peak
	if use <= 0 {
		use = d.last
	}
	limit := d.ceiling.Bytes
	var s string
	if d.killed == reasonMemory {
		s = "the engine was killed for using " + human(use)
	} else {
		s = "the engine was killed by the system's out-of-memory killer, using at least " + human(use)
	}
	if limit > 0 && !d.ceiling.Off {
		s += " of the " + human(limit) + " limit (" + d.ceiling.Source + ")"
	}
	return s
}

// explanation says why the process ended and what that means.
func (d *death) explanation() []string {
	switch d.kind() {
	case MemoryLimit:
		return []string{
			"The cell (or a goroutine it started) needed more memory than the kernel may use, so its process was ended before it could take the machine down.",
			lost,
			"What to do: work on smaller pieces (a slice, a batch, a stream), let go of what you no longer need, or raise the limit: " +
				memlimit.Env + " (for example " + memlimit.Env + "=16GiB in the kernelspec's env) within the container's or cgroup's memory.",
		}
	case cell.Interrupted:
		return []string{
			"The cell was running code that has no interrupt checkpoint (compiled Go, C, a blocking system call, or the interpreter itself), so tick ended the process running it.",
			lost,
		}
	case Fatal:
		why := ". Unlike a panic, a fatal error cannot be recovered: Go ends the whole process."
		if strings.HasPrefix(fatalOf(d.report.Header), "panic: ") {
			why = ". A panic that no function recovers ends the whole process in Go."
		}
		out := []string{"Go's runtime ended the engine running this cell with " + strconv.Quote(fatalOf(d.report.Header)) + why}
		if h := hint(d.report); h != "" {
			if strings.Contains(h, "could not get more memory") && d.ceiling.Bytes > 0 && !d.ceiling.Off {
				h += " The kernel's memory ceiling is " + d.ceiling.String() + "."
			}
			out = append(out, "What to do: "+h)
		}
		return append(out, lost)
	}
	why := "Something outside tick ended it"
	switch {
	case d.signal != 0:
		why = fmt.Sprintf("It was killed by signal %d (%v) sent from outside tick", int(d.signal), d.signal)
	case d.exitCode >= 0:
		why = fmt.Sprintf("It exited with status %d: code it ran (compiled Go or C) called exit", d.exitCode)
	}
	return []string{why + ".", lost}
}

// fatalOf is the line of the report that names the fatal error.
func fatalOf(header []string) string {
	for _, l := range header {
		if fatalLine.MatchString(l) {
			return l
		}
	}
	if len(header) > 0 {
		return header[0]
	}
	return "a fatal error"
}

// hint says what to do about a fatal error.
func hint(r crashReport) string {
	all := strings.Join(r.Header, "\n")
	switch {
	case strings.Contains(all, "concurrent map"):
		return "goroutines used one map at the same time, at least one of them writing: guard the map with a sync.Mutex " +
			"(lock around every read and write) or use sync.Map. `go run -race` finds such races in a program."
	case strings.Contains(all, "stack overflow") || strings.Contains(all, "stack exceeds"):
		return "a goroutine's stack outgrew Go's limit: a function calls itself without end, or too deeply; " +
			"add the base case, or turn the recursion into a loop."
	case strings.Contains(all, "out of memory"):
		return "the runtime could not get more memory from the system: allocate less at a time, or raise the limit that stopped it."
	case strings.Contains(all, "sync: "):
		return "a sync primitive was misused (a sync.Mutex unlocked more often than locked, or copied while in use)."
	case strings.Contains(all, "signal arrived during cgo execution") || strings.HasPrefix(all, "SIG"):
		return "C code crashed (a native kernel or a package using cgo): the crash is in the C side."
	case strings.HasPrefix(all, "panic: "):
		return "a goroutine tick does not guard (one started by compiled Go: %%go or an imported module) panicked; recover in that goroutine."
	}
	return ""
}

// traceback is the error's traceback: the summary, the explanation, and
// the goroutine that raised the fatal error.
func (d *death) traceback() []string {
	tb := []string{string(d.kind()) + ": " + d.summary()}
	tb = append(tb, d.explanation()...)
	if len(d.report.Header) > 1 {
		tb = append(tb, "", "Go's report:")
		tb = append(tb, d.report.Header...)
	}
	if len(d.report.Goroutine) > 0 {
		tb = append(tb, "", "The goroutine that raised it (the whole report is in the kernel log):")
		tb = append(tb, compactStack(d.report.Goroutine)...)
	} else if d.kind() == EngineDied && len(d.report.Tail) > 0 {
		tb = append(tb, "", "Its last lines on stderr:")
		tb = append(tb, d.report.Tail...)
	}
	return tb
}

// cellError is the error of the cell that was running.
func (d *death) cellError() *cell.Error {
	return &cell.Error{Name: d.kind(), Value: d.summary() + "; the session's variables were lost (a fresh engine runs the next cell)",
		Traceback: d.traceback()}
}

// betweenCells is the note the next cell shows when the engine ended
// while no cell ran (a goroutine a cell left running, for example).
func (d *death) betweenCells() string {
	tb := d.traceback()
	tb[0] = "[tick: between cells, the engine ended — " + tb[0] + "]"
	return strings.Join(tb, "\n") + "\n[tick: this cell runs in a fresh engine]\n"
}

// human formats bytes as memlimit does.
func human(n int64) string { return memlimit.Human(n) }

// compactStack makes a goroutine's stack readable in a cell: one line per
// frame ("function  file.go:line"), runs of the interpreter's and
// reflect's frames folded into one line, and what started the goroutine.
func compactStack(lines []string) []string {
	out := []string{lines[0]}
	folded, repeats := 0, 0
	lastName, lastWhere := "", ""
	flush := func() {
		if folded > 0 {
			out = append(out, fmt.Sprintf("    … %d frames of the interpreter (yaegi) and reflect", folded))
			folded = 0
		}
	}
	for i := 1; i < len(lines); i++ {
		fn := lines[i]
		where := ""
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			where = shortPos(lines[i+1])
			i++
		}
		if strings.HasPrefix(fn, "created by ") {
			flush()
			by := strings.TrimPrefix(fn, "created by ")
			if strings.HasPrefix(by, "github.com/traefik/yaegi/") {
				out = append(out, "    started by a go statement in a cell ("+by+")")
			} else {
				out = append(out, "    started by "+by+"  "+where)
			}
			continue
		}
		name := fn
		if j := strings.LastIndexByte(name, '('); j > 0 {
			name = name[:j]
		}
		if len(out) > 1 && (strings.HasPrefix(name, "github.com/traefik/yaegi/") || strings.HasPrefix(name, "reflect.")) {
			folded++
			continue
		}
		flush()
		if n := len(out); n > 1 && name == lastName {
			repeats++
			out[n-1] = fmt.Sprintf("    %s  %s (and %d more calls of it)", name, lastWhere, repeats)
			continue
		}
		repeats, lastName, lastWhere = 0, name, where
		out = append(out, "    "+name+"  "+where)
	}
	flush()
	return out
}

// shortPos turns "\t/usr/local/go/src/runtime/panic.go:1181 +0x18" into
// "runtime/panic.go:1181".
func shortPos(line string) string {
	pos := strings.TrimSpace(line)
	if i := strings.LastIndex(pos, " +0x"); i > 0 {
		pos = pos[:i]
	}
	dir, file := path.Split(pos)
	return path.Join(path.Base(dir), file)
}
