package profile

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// The Chrome trace-event format (the "JSON Object Format" of Google's
// Trace Event Format document): {"traceEvents": [...]} where each event
// has name, ph (phase), ts (µs), pid and tid; complete events (ph "X")
// also have dur (µs); metadata events (ph "M") name processes and threads.
// Perfetto and chrome://tracing open it.

// TraceEvent is one event of a Chrome trace.
type TraceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"` // µs
	Dur  *float64       `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// Trace is a Chrome trace file.
type Trace struct {
	TraceEvents     []TraceEvent   `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit,omitempty"`
	OtherData       map[string]any `json:"otherData,omitempty"`
}

// Thread ids of the lanes: the host, the host's compiler goroutines
// (compiles run concurrently), then one per device from deviceTid.
const (
	pid        = 1
	hostTid    = 1
	compileTid = 2
	deviceTid  = 10
)

// ChromeTrace converts p. Kernel events keep their device, shape,
// estimates and enqueue time in args; the profile's facts go in
// otherData.
func (p *Profile) ChromeTrace() *Trace {
	lanes := p.Lanes()
	tids := map[string]int{}
	tr := &Trace{DisplayTimeUnit: "ns", OtherData: map[string]any{
		"tool": "tick %prof", "label": p.Label, "start": p.Start.Format(time.RFC3339Nano),
		"duration_ns": int64(p.Duration), "dropped": p.Dropped, "capacity": p.Capacity, "debug": p.Debug,
		"clamped": p.Clamped, "overlap_runs": p.OverlapRuns,
	}}
	meta := func(name string, tid int, args map[string]any) {
		tr.TraceEvents = append(tr.TraceEvents, TraceEvent{Name: name, Ph: "M", Pid: pid, Tid: tid, Args: args})
	}
	meta("process_name", hostTid, map[string]any{"name": "tick"})
	meta("thread_name", hostTid, map[string]any{"name": HostLane})
	meta("thread_sort_index", hostTid, map[string]any{"sort_index": hostTid})
	meta("thread_name", compileTid, map[string]any{"name": HostLane + ": compile"})
	meta("thread_sort_index", compileTid, map[string]any{"sort_index": compileTid})
	for i, l := range lanes[1:] {
		tids[l] = deviceTid + i
		meta("thread_name", deviceTid+i, map[string]any{"name": "device " + l})
		meta("thread_sort_index", deviceTid+i, map[string]any{"sort_index": deviceTid + i})
	}
	for _, e := range p.Events {
		d := us(e.Duration())
		te := TraceEvent{Name: traceName(e), Cat: e.Kind.String(), Ph: "X", Ts: us(e.Start), Dur: &d, Pid: pid, Tid: hostTid}
		args := map[string]any{}
		if e.Device != "" {
			args["device"] = e.Device
		}
		switch e.Kind {
		case tensor.EventKernel:
			te.Tid = tids[e.Device]
			args["shape"] = e.Shape
			args["flops_est"] = e.FLOPs
			args["bytes_est"] = e.Bytes
			args["enqueued_us"] = us(e.Enqueued)
			if e.Detail != "" {
				args["region"] = e.Detail
			}
		case tensor.EventCopy:
			te.Tid = tids[Lane(e)]
			args["bytes"] = e.Bytes
			args["enqueued_us"] = us(e.Enqueued)
		case tensor.EventCompile:
			te.Tid = compileTid
			args["kernel"] = e.Name
			args["cache"] = e.Detail
		case tensor.EventJIT:
			args["call"] = e.Call
		}
		if len(args) > 0 {
			te.Args = args
		}
		tr.TraceEvents = append(tr.TraceEvents, te)
	}
	return tr
}

func traceName(e tensor.Event) string {
	switch e.Kind {
	case tensor.EventKernel, tensor.EventMark:
		return e.Name
	case tensor.EventCopy:
		return "copy " + e.Name
	case tensor.EventCompile:
		return "compile " + e.Name
	case tensor.EventJIT:
		return "JIT " + e.Name
	}
	return e.Kind.String()
}

func us(d time.Duration) float64 { return float64(d) / 1e3 }

func fromUS(v float64) time.Duration { return time.Duration(math.Round(v * 1e3)) }

// WriteChromeTrace writes p as Chrome trace JSON.
func (p *Profile) WriteChromeTrace(w io.Writer) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(p.ChromeTrace()); err != nil {
		return fmt.Errorf("profile: writing the Chrome trace: %w", err)
	}
	return nil
}

// TraceError says why a Chrome trace is not valid: which event and field.
type TraceError struct {
	Index int // the event's index in traceEvents, -1 for the file
	Field string
	Msg   string
}

func (e *TraceError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("profile: Chrome trace: %s: %s", e.Field, e.Msg)
	}
	return fmt.Sprintf("profile: Chrome trace event %d: %s: %s", e.Index, e.Field, e.Msg)
}

// phases are the event phases of the Trace Event Format.
var phases = map[string]bool{"B": true, "E": true, "X": true, "i": true, "I": true, "C": true,
	"b": true, "n": true, "e": true, "s": true, "t": true, "f": true, "P": true, "N": true,
	"O": true, "D": true, "M": true, "V": true, "v": true, "R": true, "c": true, "(": true, ")": true}

// ValidateChromeTrace checks data against the trace-event format's
// required fields: a JSON object with a traceEvents array (or a bare
// array); each event an object with a string name and a known ph; pid and
// tid integers; ts a number (except on metadata events); dur a number ≥ 0
// on complete events.
func ValidateChromeTrace(data []byte) error {
	var raw []map[string]json.RawMessage
	var obj struct {
		TraceEvents *[]map[string]json.RawMessage `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &obj); err == nil && obj.TraceEvents != nil {
		raw = *obj.TraceEvents
	} else if err := json.Unmarshal(data, &raw); err != nil {
		return &TraceError{Index: -1, Field: "traceEvents", Msg: "not a JSON object with a traceEvents array, nor an array of events"}
	}
	for i, ev := range raw {
		var name, ph string
		if err := field(ev, "name", &name); err != nil {
			return &TraceError{Index: i, Field: "name", Msg: err.Error()}
		}
		if err := field(ev, "ph", &ph); err != nil || !phases[ph] {
			return &TraceError{Index: i, Field: "ph", Msg: fmt.Sprintf("missing or unknown phase %q", ph)}
		}
		for _, f := range []string{"pid", "tid"} {
			var n json.Number
			if err := field(ev, f, &n); err != nil {
				return &TraceError{Index: i, Field: f, Msg: err.Error()}
			}
			if _, err := n.Int64(); err != nil {
				return &TraceError{Index: i, Field: f, Msg: "not an integer"}
			}
		}
		if ph == "M" {
			continue
		}
		var ts float64
		if err := field(ev, "ts", &ts); err != nil {
			return &TraceError{Index: i, Field: "ts", Msg: err.Error()}
		}
		if ph == "X" {
			var dur float64
			if err := field(ev, "dur", &dur); err != nil || dur < 0 {
				return &TraceError{Index: i, Field: "dur", Msg: "a complete event needs a duration ≥ 0"}
			}
		}
	}
	return nil
}

func field(ev map[string]json.RawMessage, name string, dst any) error {
	v, ok := ev[name]
	if !ok {
		return fmt.Errorf("missing")
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return fmt.Errorf("wrong type: %s", v)
	}
	return nil
}

// ReadChromeTrace reads a trace written by WriteChromeTrace back into a
// Profile (kernel keys are not in the trace: kernels are grouped by name
// and shape). Events of other tools' traces that are not complete events
// with a tick category are skipped.
func ReadChromeTrace(r io.Reader) (*Profile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("profile: reading the Chrome trace: %w", err)
	}
	if err := ValidateChromeTrace(data); err != nil {
		return nil, err
	}
	var tr Trace
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, fmt.Errorf("profile: reading the Chrome trace: %w", err)
	}
	p := &Profile{}
	if od := tr.OtherData; od != nil {
		p.Label, _ = od["label"].(string)
		if s, ok := od["start"].(string); ok {
			p.Start, _ = time.Parse(time.RFC3339Nano, s)
		}
		p.Duration = time.Duration(num(od["duration_ns"]))
		p.Dropped = int64(num(od["dropped"]))
		p.Capacity = int(num(od["capacity"]))
		p.Debug = int(num(od["debug"]))
		p.Clamped = int(num(od["clamped"]))
		if rs, ok := od["overlap_runs"].([]any); ok {
			for _, r := range rs {
				p.OverlapRuns = append(p.OverlapRuns, num(r))
			}
		}
	}
	for _, te := range tr.TraceEvents {
		kind, ok := tensor.ParseEventKind(te.Cat)
		if te.Ph != "X" || !ok {
			continue
		}
		e := tensor.Event{Kind: kind, Start: fromUS(te.Ts), Name: te.Name}
		if te.Dur != nil {
			e.End = e.Start + fromUS(*te.Dur)
		}
		e.Device, _ = te.Args["device"].(string)
		switch kind {
		case tensor.EventKernel:
			e.FLOPs, e.Bytes = int64(num(te.Args["flops_est"])), int64(num(te.Args["bytes_est"]))
			e.Enqueued = fromUS(num(te.Args["enqueued_us"]))
			e.Detail, _ = te.Args["region"].(string)
			if sh, ok := te.Args["shape"].([]any); ok {
				for _, v := range sh {
					e.Shape = append(e.Shape, int(num(v)))
				}
			}
		case tensor.EventCopy:
			e.Name = strings.TrimPrefix(e.Name, "copy ")
			e.Bytes = int64(num(te.Args["bytes"]))
			e.Enqueued = fromUS(num(te.Args["enqueued_us"]))
		case tensor.EventCompile:
			e.Name, _ = te.Args["kernel"].(string)
			e.Detail, _ = te.Args["cache"].(string)
		case tensor.EventJIT:
			e.Name = strings.TrimPrefix(e.Name, "JIT ")
			e.Call = int(num(te.Args["call"]))
		case tensor.EventMark:
		default:
			e.Name = ""
		}
		p.Events = append(p.Events, e)
	}
	sort.SliceStable(p.Events, func(i, j int) bool { return p.Events[i].Start < p.Events[j].Start })
	return p, nil
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
