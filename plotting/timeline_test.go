package plotting

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/profile"
	"github.com/tick-kernel/tick/runtime/tensor"
)

// syntheticProfile is a JIT'd step of kernelsPerCall kernels called calls
// times: a cold call that compiles, then replays the host enqueues in a
// microsecond while the device runs each kernel for 2 µs (or, with forced,
// the host waits for every kernel, as DEBUG=2 does).
func syntheticProfile(calls, kernelsPerCall int, forced bool) *profile.Profile {
	p := &profile.Profile{Label: "y = step.Call(x)"}
	host, dev := time.Duration(0), time.Duration(0)
	names := []string{"E_4096", "R_r4096", "E_4096_4096"}
	for c := 1; c <= calls; c++ {
		start := host
		phase := []string{"cold", "capture", "replay"}[min(c, 3)-1]
		if c == 1 {
			p.Events = append(p.Events, tensor.Event{Kind: tensor.EventCompile, Name: "E_4096", Detail: "compiled", Start: host, End: host + 3*time.Millisecond})
			host += 3 * time.Millisecond
		}
		for k := range kernelsPerCall {
			launch := host
			host += 300 * time.Nanosecond
			p.Events = append(p.Events, tensor.Event{Kind: tensor.EventLaunch, Start: launch, End: host})
			name := names[k%len(names)]
			d := time.Duration(1+k%len(names)) * time.Microsecond
			s := max(dev, host)
			p.Events = append(p.Events, tensor.Event{Kind: tensor.EventKernel, Device: "CPU", Name: name, Key: name,
				Start: s, End: s + d, Enqueued: launch, Shape: []int{4096}, FLOPs: 8192, Bytes: 32768})
			dev = s + d
			if forced {
				p.Events = append(p.Events, tensor.Event{Kind: tensor.EventSync, Start: host, End: dev})
				host = dev
			}
		}
		p.Events = append(p.Events, tensor.Event{Kind: tensor.EventJIT, Name: phase, Call: c, Start: start, End: host},
			tensor.Event{Kind: tensor.EventMark, Name: fmt.Sprintf("call %d", c), Start: start, End: host})
	}
	p.Events = append(p.Events, tensor.Event{Kind: tensor.EventSync, Start: host, End: max(host, dev)})
	p.Duration = max(host, dev) + time.Microsecond
	if forced {
		p.Debug = 2
	}
	return p
}

func TestTimeline(t *testing.T) {
	small := syntheticProfile(5, 2, false)
	if small.Kernels() != 10 {
		t.Fatalf("%d kernels", small.Kernels())
	}
	plt, err := Timeline(small)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plt.Title.Text, "aggregated") {
		t.Errorf("10 kernels were aggregated: %q", plt.Title.Text)
	}
	if !strings.Contains(plt.Title.Text, "timeline of 10 kernels") || !strings.Contains(plt.Title.Text, "of host work ran while a device was busy") {
		t.Errorf("title %q", plt.Title.Text)
	}
	for _, f := range []Format{PNG, SVG} {
		b, err := RenderTimeline(small, f)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "timeline10."+string(f), f, b)
	}

	dense := syntheticProfile(2000, 5, false)
	plt, err = Timeline(dense)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plt.Title.Text, "aggregated") || !strings.Contains(plt.Title.Text, "device CPU: 10000 spans") {
		t.Errorf("10,000 kernels not aggregated: %q", plt.Title.Text)
	}
	// The SVG stays small: the columns are bounded by the bins, not the
	// kernels (unaggregated, 10,000 rectangles would take over 1 MB).
	svg, err := RenderTimeline(dense, SVG)
	if err != nil {
		t.Fatal(err)
	}
	if len(svg) > 600<<10 {
		t.Errorf("the 10,000-kernel timeline is %d KB of SVG", len(svg)>>10)
	}
	b, err := RenderTimeline(dense, PNG)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "timeline10000.png", PNG, b)

	forced := syntheticProfile(5, 2, true)
	plt, err = Timeline(forced)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plt.Title.Text, "DEBUG=2: forced waits") || !strings.Contains(plt.Title.Text, " 0% of host work ran while a device was busy") {
		t.Errorf("forced-wait title %q", plt.Title.Text)
	}
}
