package magic

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/timing"
)

// MetadataKey is the display_data metadata key under which results are
// stored as JSON, so exported notebooks keep the raw samples.
const MetadataKey = "tick/timing"

// report is what one magic shows: text, optional charts and the JSON of
// its result.
type report struct {
	Text  string
	Plots []*plot.Plot
	SVG   bool
	// JSON is the result (raw samples included); it goes into the bundle
	// as application/json and into the metadata under MetadataKey.
	JSON any
}

// The helpers here return errors without a prefix: the magic that calls
// them adds its name ("%timeit: ...").

// bundle renders r into display data: text/plain, the charts as one PNG
// (or SVG) and application/json. With jsonOnly only the JSON is shown.
func (r report) bundle(jsonOnly bool) (display.Data, error) {
	raw, err := json.Marshal(r.JSON)
	if err != nil {
		return display.Data{}, fmt.Errorf("encoding the result as JSON: %w", err)
	}
	msg := json.RawMessage(raw)
	d := display.Data{Bundle: display.Bundle{"application/json": msg}, Metadata: map[string]any{MetadataKey: msg}}
	if jsonOnly {
		pretty, _ := json.MarshalIndent(r.JSON, "", "  ")
		d.Bundle["text/plain"] = string(pretty)
		return d, nil
	}
	d.Bundle["text/plain"] = r.Text
	if len(r.Plots) == 0 {
		return d, nil
	}
	f := plotting.PNG
	if r.SVG {
		f = plotting.SVG
	}
	img, err := plotting.RenderRow(f, r.Plots...)
	if err != nil {
		return display.Data{}, fmt.Errorf("drawing the chart: %w", err)
	}
	if f == plotting.SVG {
		d.Bundle[f.MIME()] = string(img)
	} else {
		d.Bundle[f.MIME()] = img
	}
	return d, nil
}

// resultPlots builds the charts named in kinds ("hist", "trace", "ecdf").
func resultPlots(r *timing.Result, kinds []string) ([]*plot.Plot, error) {
	var out []*plot.Plot
	for _, k := range kinds {
		var p *plot.Plot
		var err error
		switch k {
		case "hist":
			p, err = plotting.Histogram(r)
		case "trace":
			p, err = plotting.Trace(r)
		case "ecdf":
			p, err = plotting.ECDF(r)
		default:
			return nil, fmt.Errorf("unknown plot %q", k)
		}
		if err != nil {
			return nil, fmt.Errorf("drawing the %s chart: %w", k, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// Progress throttling: nothing is shown for measurements shorter than
// progressAfter; then the line is updated at most every progressEvery.
const (
	progressAfter = 500 * time.Millisecond
	progressEvery = 250 * time.Millisecond
)

// progress shows a live progress line for long measurements, published
// with a display ID and updated in place; show replaces it with the final
// output.
type progress struct {
	pub   display.Publisher
	name  string
	id    string // set once the line is published
	start time.Time
	last  time.Time
	now   func() time.Time
}

func newProgress(pub display.Publisher, name string) *progress {
	return &progress{pub: pub, name: name, start: time.Now(), now: time.Now}
}

// update is the timing.Options.Progress callback.
func (p *progress) update(pr timing.Progress) {
	t := p.now()
	if t.Sub(p.start) < progressAfter || t.Sub(p.last) < progressEvery {
		return
	}
	p.last = t
	d := display.Data{Bundle: display.Bundle{"text/plain": progressLine(p.name, pr)}}
	if p.id == "" {
		p.id = "tick-progress-" + uuid.NewString()
		d.ID = p.id
		p.pub.Publish(d)
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

// show publishes d, replacing the progress line if one was shown. A quiet
// magic passes a nil d: the progress line (if any) is blanked.
func (p *progress) show(d *display.Data) {
	if d == nil {
		if p.id != "" {
			p.pub.Update(display.Data{Bundle: display.Bundle{"text/plain": ""}, ID: p.id})
		}
		return
	}
	if p.id != "" {
		d.ID = p.id
		p.pub.Update(*d)
		return
	}
	d.ID = "tick-timing-" + uuid.NewString()
	p.pub.Publish(*d)
}
