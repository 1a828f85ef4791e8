package magic

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/google/uuid"
	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/timing"
)

// How a magic's result reaches each front end (docs/timing-result.md):
//
//   - the text block, as text/plain (jupyter console, VS Code) and as
//     text/html <pre> (classic Notebook, nbconvert HTML and JupyterLab pick
//     it over text/plain), with the machine-readable Document beside them
//     under ResultMIME, a vendor type no front end renders;
//   - the chart, a second output: image/png at twice the layout size (the
//     metadata gives the layout size, so HiDPI screens get sharp lines) or
//     image/svg+xml, with a text/plain description for front ends that
//     show no images;
//   - nothing under application/json, which JupyterLab would render first
//     as a collapsed tree, and nothing stored twice.

// ResultMIME is the MIME type of the Document that travels with a timing
// result's text. SchemaVersion is its version field; docs/timing-result.md
// documents both.
const (
	ResultMIME    = "application/vnd.tick.timing.v1+json"
	SchemaVersion = 1
)

// Document is the machine-readable form of a magic's result: raw samples,
// statistics, warnings and provenance, durations in nanoseconds. Kind says
// which fields are set: "timeit" (Result), "time" (Once), "compare" and
// "timeit-vs" (Comparison and Results).
type Document struct {
	Version    int                `json:"version"`
	Kind       string             `json:"kind"`
	Result     *timing.Result     `json:"result,omitempty"`
	Once       *timing.Once       `json:"once,omitempty"`
	Comparison *timing.Comparison `json:"comparison,omitempty"`
	Results    []*timing.Result   `json:"results,omitempty"`
}

// Document kinds.
const (
	KindTimeit   = "timeit"
	KindTime     = "time"
	KindCompare  = "compare"
	KindTimeitVs = "timeit-vs"
)

func newDocument(kind string) Document { return Document{Version: SchemaVersion, Kind: kind} }

// report is what one magic shows: its text block, optional charts (with a
// description of them in words) and its Document.
type report struct {
	Text string
	// Headlines are what a reader looks for first, as the results give
	// them (timing.Result.Headline, timing.Once.Headline,
	// timing.Comparison.Header): shown in bold where Text has them.
	Headlines []string
	Plots     []*plot.Plot
	// Alt describes the charts for front ends that show no images.
	Alt string
	SVG bool
	Doc Document
}

// The helpers here return errors without a prefix: the magic that calls
// them adds its name ("%timeit: ...").

// outputs renders r as the outputs to publish, in order: the text block
// (carrying the Document), then the chart. With jsonOnly the one output is
// the Document as indented JSON text.
func (r report) outputs(jsonOnly bool) ([]display.Data, error) {
	raw, err := json.Marshal(r.Doc)
	if err != nil {
		return nil, fmt.Errorf("encoding the result as JSON: %w", err)
	}
	if jsonOnly {
		pretty, err := json.MarshalIndent(r.Doc, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encoding the result as JSON: %w", err)
		}
		return []display.Data{{Bundle: display.Bundle{"text/plain": string(pretty)}}}, nil
	}
	out := []display.Data{textOutput(r.Text, r.Headlines, json.RawMessage(raw))}
	if len(r.Plots) == 0 {
		return out, nil
	}
	chart, err := chartOutput(r.Plots, r.SVG, r.Alt)
	if err != nil {
		return nil, err
	}
	return append(out, chart), nil
}

// textOutput is a text block as text/plain and text/html (headlines in
// bold), with doc (when not nil) under ResultMIME.
func textOutput(text string, headlines []string, doc json.RawMessage) display.Data {
	b := display.Bundle{"text/plain": text, "text/html": textHTML(text, headlines)}
	if doc != nil {
		b[ResultMIME] = doc
	}
	return display.Data{Bundle: b}
}

// textHTML renders a text block as a <pre> that wraps between words only
// (Notebook 6's stylesheet breaks <pre> text anywhere), with the lines of
// the headlines in bold and warnings marked. Its innerText is the text
// itself.
func textHTML(text string, headlines []string) string {
	var b strings.Builder
	b.WriteString(`<pre class="tick-timing" style="white-space: pre-wrap; word-break: normal; overflow-wrap: normal; ` +
		`font-size: 13px; line-height: 1.35; margin: 0; padding: 2px 0;">`)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	bold := headlineLines(lines, headlines)
	inWarning := false
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n")
		}
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "warning:"):
			inWarning = true
		case inWarning && strings.HasPrefix(l, "    "):
			// a warning's continuation line
		default:
			inWarning = false
		}
		e := html.EscapeString(l)
		switch {
		case inWarning:
			b.WriteString(`<span style="color: #953800;">` + e + `</span>`)
		case bold[i]:
			b.WriteString("<b>" + e + "</b>")
		default:
			b.WriteString(e)
		}
	}
	b.WriteString("</pre>")
	return b.String()
}

// headlineLines marks the lines that spell one of the headlines: a
// headline wider than the text allows is written over several lines
// (timing's layout breaks it before its parenthesis), so a run of lines
// whose words are the headline's is one.
func headlineLines(lines, headlines []string) map[int]bool {
	bold := map[int]bool{}
	for _, h := range headlines {
		want := strings.Join(strings.Fields(h), " ")
		if want == "" {
			continue
		}
		for i := range lines {
			got := ""
			for j := i; j < len(lines) && len(got) < len(want); j++ {
				got = strings.TrimSpace(got + " " + strings.Join(strings.Fields(lines[j]), " "))
				if got == want {
					for k := i; k <= j; k++ {
						bold[k] = true
					}
					break
				}
			}
		}
	}
	return bold
}

// chartOutput renders the charts side by side as one image with alt as its
// text/plain.
func chartOutput(plots []*plot.Plot, svg bool, alt string) (display.Data, error) {
	if svg {
		img, err := plotting.RenderRow(plotting.SVG, plots...)
		if err != nil {
			return display.Data{}, fmt.Errorf("drawing the chart: %w", err)
		}
		return display.Data{Bundle: display.Bundle{"image/svg+xml": string(img), "text/plain": alt}}, nil
	}
	img, w, h, err := plotting.RenderPNG(plotting.Density, plots...)
	if err != nil {
		return display.Data{}, fmt.Errorf("drawing the chart: %w", err)
	}
	return display.Data{
		Bundle:   display.Bundle{"image/png": img, "text/plain": alt},
		Metadata: map[string]any{"image/png": map[string]int{"width": w, "height": h}},
	}, nil
}

// resultPlots builds the charts named in kinds ("hist", "trace", "ecdf")
// and describes them in words.
func resultPlots(r *timing.Result, kinds []string) ([]*plot.Plot, string, error) {
	var out []*plot.Plot
	var alt []string
	for _, k := range kinds {
		var p *plot.Plot
		var err error
		switch k {
		case "hist":
			p, err = plotting.Histogram(r)
			alt = append(alt, fmt.Sprintf("a histogram of the %d per-loop times with the median and its %s", r.Stats.N, ciWords(r.Stats)))
		case "trace":
			p, err = plotting.Trace(r)
			alt = append(alt, fmt.Sprintf("a trace of all %d timed intervals in order, coloured by phase, with the median", len(r.Samples)))
		case "ecdf":
			p, err = plotting.ECDF(r)
			alt = append(alt, fmt.Sprintf("the cumulative distribution (ECDF) of the %d per-loop times with the median marked", r.Stats.N))
		default:
			return nil, "", fmt.Errorf("unknown plot %q", k)
		}
		if err != nil {
			return nil, "", fmt.Errorf("drawing the %s chart: %w", k, err)
		}
		out = append(out, p)
	}
	return out, chartAlt(r.Label, alt), nil
}

// ciWords names the median's interval with its values.
func ciWords(st timing.Stats) string {
	if !st.CIValid {
		return "no confidence interval (too few samples)"
	}
	return fmt.Sprintf("95%% confidence interval (%s–%s)", timing.FormatDuration(st.CILo, 3), timing.FormatDuration(st.CIHi, 3))
}

// chartAlt is the text/plain of a chart: what it shows, for front ends
// (jupyter console) that show no images.
func chartAlt(label string, parts []string) string {
	s := "[chart"
	if label != "" {
		s += " of " + label
	}
	return s + ": " + strings.Join(parts, "; ") + "; the numbers are in the text above]"
}

// Progress throttling: nothing is shown for measurements shorter than
// progressAfter; then the line is updated at most every progressEvery.
const (
	progressAfter = 500 * time.Millisecond
	progressEvery = 250 * time.Millisecond
)

// outputSink is what the magics that show results need of the cell's
// Sink (session.CellSink has it): publishing, and the number of outputs
// the running cell has shown so far (stream text included; a clear starts
// again from 0), or -1 from a sink that does not count them (a progress
// line is then never cleared, only replaced by a note).
type outputSink interface {
	display.Publisher
	Shown() int
}

// progress shows a live progress line for long measurements, published
// with a display ID and updated in place (front ends without
// update_display_data keep showing the first line). show then publishes
// the result as new outputs, so every front end gets it: when the progress
// line is all the cell has shown, it is cleared (clear_output with wait,
// so the result takes its place without a flicker); otherwise it is
// replaced by a one-line note, never left empty.
type progress struct {
	pub   outputSink
	name  string
	id    string // set once the line is published
	at    int    // the cell's output count just after the line was published
	start time.Time
	last  time.Time
	now   func() time.Time
}

func newProgress(pub outputSink, name string) *progress {
	return &progress{pub: pub, name: name, start: time.Now(), now: time.Now}
}

// update is the timing.Options.Progress callback.
func (p *progress) update(pr timing.Progress) {
	t := p.now()
	if t.Sub(p.start) < progressAfter || t.Sub(p.last) < progressEvery {
		return
	}
	p.last = t
	// HTML only: the browser front ends update it in place, and jupyter
	// console (which prints a display's text/plain and ignores updates)
	// shows nothing instead of a line that would stay on the screen.
	d := display.Data{Bundle: display.Bundle{"text/html": `<pre class="tick-progress">` + html.EscapeString(progressLine(p.name, pr)) + "</pre>"}}
	if p.id == "" {
		p.id = "tick-progress-" + uuid.NewString()
		d.ID = p.id
		p.pub.Publish(d)
		p.at = p.pub.Shown()
		return
	}
	d.ID = p.id
	p.pub.Update(d)
}

func progressLine(name string, pr timing.Progress) string {
	s := fmt.Sprintf("%%%s: %s", name, pr.Phase)
	if pr.Total > 0 {
		s += fmt.Sprintf(" %d/%d", pr.Done, pr.Total)
	} else if pr.Done > 0 {
		s += fmt.Sprintf(" %d", pr.Done)
	}
	if pr.Phase == timing.PhaseMeasured && pr.Median > 0 {
		s += " · median " + timing.FormatDuration(pr.Median, 3) + " per loop"
	}
	return s + fmt.Sprintf(" · %.1f s elapsed…", pr.Elapsed.Seconds())
}

// alone reports whether the progress line is the only output the cell has
// shown (so clearing the cell's output removes nothing else).
func (p *progress) alone() bool {
	return p.at == 1 && p.pub.Shown() == 1
}

// show publishes outs as new outputs after removing the progress line (if
// one was shown).
func (p *progress) show(outs []display.Data) {
	if p.id != "" {
		if p.alone() {
			p.pub.Clear(true)
		} else {
			p.note(fmt.Sprintf("%%%s: done in %.1f s; the result follows", p.name, p.now().Sub(p.start).Seconds()))
		}
	}
	for _, d := range outs {
		p.pub.Publish(d)
	}
}

// abort removes the progress line (if one was shown) of a magic that
// failed, was interrupted or shows nothing (-q): cleared when it is the
// cell's only output, else replaced by why.
func (p *progress) abort(why string) {
	if p.id == "" {
		return
	}
	if p.alone() {
		p.pub.Clear(false)
		return
	}
	p.note(fmt.Sprintf("%%%s: %s after %.1f s", p.name, why, p.now().Sub(p.start).Seconds()))
}

func (p *progress) note(s string) {
	p.pub.Update(display.Data{Bundle: display.Bundle{"text/plain": s}, ID: p.id})
}

// resultValue is the cell value of -o: text (the headline or table) as
// text/plain; with quiet (nothing else shown) it also carries doc, so the
// result is stored once either way.
func resultValue(text string, doc Document, quiet bool) (*display.Data, error) {
	d := display.Data{Bundle: display.Bundle{"text/plain": text}}
	if quiet {
		raw, err := json.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("encoding the result as JSON: %w", err)
		}
		d.Bundle[ResultMIME] = json.RawMessage(raw)
	}
	return &d, nil
}

// boxAlt describes the box plots of a comparison.
func boxAlt(c *timing.Comparison) string {
	var parts []string
	for _, r := range c.Rows {
		parts = append(parts, fmt.Sprintf("%s (median %s, %s)", r.Label, timing.FormatDuration(r.Stats.Median, 3), r.DeltaText))
	}
	return chartAlt("", []string{"box plots of per-loop time with the median's 95% confidence interval for " + strings.Join(parts, ", ")})
}

// phaseAlt describes %time's phase bar.
func phaseAlt(o *timing.Once) string {
	return chartAlt("", []string{fmt.Sprintf("a stacked bar of where the run's %s of wall time went, by runtime phase", timing.FormatDuration(float64(o.Wall), 3))})
}

// stopReason names why a measurement ended early, for the progress line.
func stopReason(ctx interface{ Err() error }) string {
	if ctx.Err() != nil {
		return "interrupted; nothing recorded"
	}
	return "stopped, nothing recorded (the error is below)"
}
