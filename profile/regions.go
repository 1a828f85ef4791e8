package profile

import (
	"cmp"
	"slices"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// RegionRow is the device time of the kernels scheduled in one
// tensor.Region: a training step's forward pass, backward pass or
// optimizer update.
type RegionRow struct {
	Name     string        // the region; "no region" for kernels outside any
	Launches int           // kernel launches
	Total    time.Duration // their device time
	Share    float64       // of all kernels' device time
}

// NoRegion names the kernels scheduled outside any region.
const NoRegion = "no region"

// Regions sums p's kernel time by region, in the order the regions first
// ran; nil when no kernel was scheduled in a region.
func (p *Profile) Regions() []RegionRow {
	idx := map[string]int{}
	var rows []RegionRow
	var all time.Duration
	named := false
	evs := slices.Clone(p.Events) // in the order they started
	slices.SortStableFunc(evs, func(a, b tensor.Event) int { return cmp.Compare(a.Start, b.Start) })
	for _, e := range evs {
		if e.Kind != tensor.EventKernel {
			continue
		}
		name := e.Detail
		if name == "" {
			name = NoRegion
		} else {
			named = true
		}
		i, ok := idx[name]
		if !ok {
			i = len(rows)
			idx[name] = i
			rows = append(rows, RegionRow{Name: name})
		}
		rows[i].Launches++
		rows[i].Total += e.Duration()
		all += e.Duration()
	}
	if !named {
		return nil
	}
	for i := range rows {
		rows[i].Share = ratio(rows[i].Total, all)
	}
	return rows
}
