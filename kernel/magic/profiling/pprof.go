package profiling

import (
	"github.com/tick-kernel/tick/kernel/magic"
	"strings"

	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"text/tabwriter"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/profile"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// topRows is how many functions the --pprof tables list.
const topRows = 12

// goProfile is what --pprof shows: the CPU and allocation profiles of the
// statement run repeatedly for --pprof-time.
type goProfile struct {
	g        *profile.GoProfile
	stmt     string
	cpu      []profile.Stack
	alloc    []profile.Stack
	saved    []string
	cpuTotal int64
}

// takeGoProfile runs the statement under Go's CPU profiler for at least
// a.pprofTime (synchronizing after each call, so device work is inside the
// profile), then summarizes it; with --pprof-out it saves both profiles.
func takeGoProfile(ctx context.Context, call func(int) error, a *profArgs) (*goProfile, error) {
	g, err := profile.TakeGoProfile(ctx, a.pprofTime, func() error {
		if err := call(1); err != nil {
			return err
		}
		return tensor.SynchronizeAll()
	})
	if err != nil {
		return nil, err
	}
	gp := &goProfile{g: g, stmt: magic.Label(a.stmt)}
	ci, err := profile.SampleIndex(g.CPU, "cpu")
	if err != nil {
		return nil, err
	}
	gp.cpu = profile.Summarize(g.CPU, ci)
	ai, err := profile.SampleIndex(g.Alloc, "alloc_space")
	if err != nil {
		return nil, err
	}
	gp.alloc = profile.Summarize(g.Alloc, ai)
	if a.pprofOut != "" {
		for _, p := range []struct {
			suffix string
			write  func(*bytes.Buffer) error
		}{{".cpu.pb.gz", func(b *bytes.Buffer) error { return g.CPU.Write(b) }}, {".alloc.pb.gz", func(b *bytes.Buffer) error { return g.Alloc.Write(b) }}} {
			var buf bytes.Buffer
			if err := p.write(&buf); err != nil {
				return nil, err
			}
			path := a.pprofOut + p.suffix
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				return nil, err
			}
			gp.saved = append(gp.saved, path)
		}
	}
	return gp, nil
}

func nsText(v int64) string { return timing.FormatDuration(float64(v), 3) }

func bytesText(v int64) string {
	switch {
	case v >= 1<<30:
		return fmt.Sprintf("%.3g GiB", float64(v)/(1<<30))
	case v >= 1<<20:
		return fmt.Sprintf("%.3g MiB", float64(v)/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.3g KiB", float64(v)/(1<<10))
	}
	return fmt.Sprintf("%d B", v)
}

// text is the two top-functions tables with what was measured.
func (gp *goProfile) text() string {
	var b strings.Builder
	g := gp.g
	fmt.Fprintf(&b, "%%prof --pprof: Go profiles of the kernel process while %s ran %d times (%s, synchronized after each run)\n",
		gp.stmt, g.Runs, timing.FormatDuration(float64(g.Elapsed), 3))
	cpuRows, cpuTotal := profile.Top(gp.cpu)
	gp.cpuTotal = cpuTotal
	fmt.Fprintf(&b, "  CPU      %s of samples at 100 Hz (every goroutine: the statement, device workers, the rest)\n", nsText(cpuTotal))
	writeTop(&b, cpuRows, cpuTotal, nsText)
	allocRows, allocTotal := profile.Top(gp.alloc)
	fmt.Fprintf(&b, "  alloc    %s allocated, sampled every %s on average (estimates)\n", bytesText(allocTotal), bytesText(int64(g.MemRate)))
	writeTop(&b, allocRows, allocTotal, bytesText)
	fmt.Fprintf(&b, "  note     interpreted cell code is one frame, %s: yaegi runs it, so Go's profiler sees the interpreter, not your functions;\n", profile.InterpretedFrame)
	b.WriteString("           what it calls (tick's runtime, compiled packages) appears by name")
	for _, s := range gp.saved {
		fmt.Fprintf(&b, "\n  saved    %s (go tool pprof -http=: %s)", s, s)
	}
	return b.String()
}

func writeTop(b *strings.Builder, rows []profile.FuncRow, total int64, format func(int64) string) {
	if total <= 0 || len(rows) == 0 {
		b.WriteString("           (no samples: the run was too short; raise --pprof-time)\n")
		return
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "           flat\tflat%\tcum\tcum%\tfunction")
	for i, r := range rows {
		if i >= topRows {
			break
		}
		fmt.Fprintf(tw, "           %s\t%.1f%%\t%s\t%.1f%%\t%s\n", format(r.Flat), 100*float64(r.Flat)/float64(total),
			format(r.Cum), 100*float64(r.Cum)/float64(total), strings.TrimPrefix(r.Name, "github.com/tick-kernel/tick/"))
	}
	tw.Flush()
}

// bundle shows the tables and the two flame graphs: text/html with the
// text and the SVGs inline (hover shows a frame's value), text/plain for
// consoles, and the CPU flame graph as image/svg+xml.
func (gp *goProfile) bundle() display.Data {
	text := gp.text()
	cpu := plotting.FlameGraph(profile.Tree("all CPU samples", gp.cpu), "CPU: "+gp.stmt, "CPU time", nsText)
	alloc := plotting.FlameGraph(profile.Tree("all allocations", gp.alloc), "allocations: "+gp.stmt, "allocated bytes", bytesText)
	var h strings.Builder
	h.WriteString(`<pre style="white-space:pre;overflow-x:auto">`)
	h.WriteString(html.EscapeString(text))
	h.WriteString("</pre><div>")
	h.Write(cpu)
	h.WriteString("</div><div>")
	h.Write(alloc)
	h.WriteString("</div>")
	return display.Data{Bundle: display.Bundle{"text/plain": text, "text/html": h.String(), "image/svg+xml": string(cpu)}}
}
