// Command cpuchart draws the ratios bench/cpu_report.py writes (--ratios) as
// one PNG: for each run given, a panel of horizontal bars per case and size,
// tick's CPU device against numpy, against OpenBLAS with kernels of the same
// instruction set (matmul) and against this machine's measured limit (peak
// FLOP/s with FMA for matmul, bandwidth for memory-bound cases larger than
// the caches). The axis is logarithmic around 1×: bars to the right are
// faster than the other implementation, or at the limit; bars are clipped
// at 1/16× and 16×.
//
// Usage: go run ./bench/cpuchart -o chart.png RATIOS...
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/color"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// run is one ratio file: its description and rows.
type run struct {
	meta map[string]string
	rows []row
}

type row struct {
	label  string     // "matmul f32 1024"
	ratios [3]float64 // vs numpy, vs OpenBLAS, vs limit; NaN where none
}

var series = [3]struct {
	name  string
	color color.Color
}{
	{"÷ numpy", color.RGBA{0x1f, 0x77, 0xb4, 0xff}},
	{"÷ OpenBLAS, same ISA", color.RGBA{0xff, 0x7f, 0x0e, 0xff}},
	{"÷ measured limit (peak / bandwidth)", color.RGBA{0x2c, 0xa0, 0x2c, 0xff}},
}

func main() {
	out := flag.String("o", "cpu-bench.png", "PNG file to write")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: cpuchart -o chart.png RATIOS... (files from bench/cpu_report.py --ratios)")
		os.Exit(2)
	}
	var plots []*plot.Plot
	for _, path := range flag.Args() {
		r, err := readRun(path)
		if err != nil {
			fail(err)
		}
		p, err := panel(r)
		if err != nil {
			fail(fmt.Errorf("%s: %w", path, err))
		}
		plots = append(plots, p)
	}
	w, h := vg.Length(len(plots))*15*vg.Centimeter, 20*vg.Centimeter
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Millimeter * 6, PadTop: vg.Millimeter * 3,
		PadBottom: vg.Millimeter * 3, PadLeft: vg.Millimeter * 3, PadRight: vg.Millimeter * 3}
	dc := draw.New(c)
	for i, p := range plots {
		p.Draw(tiles.At(dc, i, 0))
	}
	f, err := os.Create(*out)
	if err != nil {
		fail(err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cpuchart:", err)
	os.Exit(1)
}

// readRun parses "#key\tvalue" lines and "case\tsize\tnumpy\tblas\tlimit"
// rows ("-" for none).
func readRun(path string) (run, error) {
	f, err := os.Open(path)
	if err != nil {
		return run{}, err
	}
	defer f.Close()
	r := run{meta: map[string]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, "\t"); ok && strings.HasPrefix(k, "#") {
			r.meta[k[1:]] = v
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			continue
		}
		rw := row{label: f[0] + " " + f[1]}
		for i, s := range f[2:] {
			rw.ratios[i] = math.NaN()
			if x, err := strconv.ParseFloat(s, 64); err == nil && x > 0 {
				rw.ratios[i] = x
			}
		}
		if !math.IsNaN(rw.ratios[0]) || !math.IsNaN(rw.ratios[1]) || !math.IsNaN(rw.ratios[2]) {
			r.rows = append(r.rows, rw)
		}
	}
	if err := sc.Err(); err != nil {
		return run{}, err
	}
	if len(r.rows) == 0 {
		return run{}, fmt.Errorf("%s: no ratio rows", path)
	}
	return r, nil
}

// panel draws one run: bars of log2(ratio) from 0 (1×), rows top to bottom
// in the file's order.
func panel(r run) (*plot.Plot, error) {
	p := plot.New()
	isa := r.meta["device"]
	if i, j := strings.Index(isa, "("), strings.Index(isa, ")"); i >= 0 && j > i {
		isa = isa[i+1 : j]
	}
	p.Title.Text = "tick CPU: " + isa + "\nload " + r.meta["load"]
	p.X.Label.Text = "tick CPU ÷ other (log scale; right of 1× is faster / at the limit)"
	// Rows top to bottom in the file's order, below two empty rows that
	// keep the legend clear of the bars.
	const legendRows = 2
	n := len(r.rows) + legendRows
	labels := make([]string, n)
	for i, rw := range r.rows {
		labels[len(r.rows)-1-i] = rw.label
	}
	const barW = 5
	lo, hi := -1.0, 1.0
	for s := range series {
		vs := make(plotter.Values, n)
		for i, rw := range r.rows {
			v := 0.0
			if x := rw.ratios[s]; !math.IsNaN(x) {
				v = math.Max(-maxLog2, math.Min(maxLog2, math.Log2(x)))
			}
			vs[len(r.rows)-1-i] = v
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		b, err := plotter.NewBarChart(vs, vg.Points(barW))
		if err != nil {
			return nil, err
		}
		b.Horizontal = true
		b.Color = series[s].color
		b.LineStyle.Width = 0
		b.Offset = vg.Points(float64(1-s) * barW) // numpy on top, limit below
		p.Add(b)
		p.Legend.Add(series[s].name, b)
	}
	one, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	p.Add(one)
	p.NominalY(labels...)
	p.X.Min, p.X.Max = math.Floor(lo), math.Ceil(hi)
	p.X.Tick.Marker = ratioTicks{}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}

// maxLog2 clips the bars at 1/16× and 16×.
const maxLog2 = 4

// ratioTicks labels a log2 axis with the ratios: 0.25×, 0.5×, 1×, 2×, ...
type ratioTicks struct{}

func (ratioTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(min); e <= math.Ceil(max); e++ {
		t := plot.Tick{Value: e}
		if int(e)%2 == 0 || max-min <= 5 { // a label every other power of two on wide axes
			t.Label = strconv.FormatFloat(math.Exp2(e), 'g', 3, 64) + "×"
		}
		ts = append(ts, t)
	}
	return ts
}
