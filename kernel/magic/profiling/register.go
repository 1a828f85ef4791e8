// Package profiling holds the profiling magics: %prof and %%prof (the
// runtime's event timeline of host and devices, the kernel table, overlap
// numbers, a Chrome trace and Go's CPU and allocation profiles, from
// package profile) and %viz (a tensor's lazy graph, the schedule and the
// kernels the scheduler makes of it, from package viz).
package profiling

import (
	"context"

	"github.com/tick-kernel/tick/kernel/magic"
)

// Magics returns %prof and %viz, ready for magic.NewRunner.
func Magics() []magic.Magic {
	return []magic.Magic{
		{Name: "prof", Line: true, Cell: true, Help: magic.Help("prof"),
			Summary: "profile a statement: timeline of host and device, kernel table, overlap, Chrome trace, Go profiles",
			Run: func(ctx context.Context, c *magic.Call) (magic.Output, error) {
				v, err := prof(ctx, c.Eval, c.Sink, c.Args, c.Body, c.IsCell)
				return magic.Output{Value: v}, err
			}},
		{Name: "viz", Line: true, Help: magic.Help("viz"),
			Summary: "draw a tensor's lazy graph with the kernels the scheduler makes of it, their IR and source",
			Run: func(_ context.Context, c *magic.Call) (magic.Output, error) {
				return magic.Output{}, vizMagic(c.Eval, c.Sink, c.Args)
			}},
	}
}
