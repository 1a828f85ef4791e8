// Package timing is tick's measurement engine: it times a statement the way
// the timing tutorial teaches and reports what it measured.
//
// A measurement takes a Target — a function that runs the statement n times,
// an optional hook that waits for queued device work, an optional hook that
// snapshots the runtime's counters and an optional correctness check — and
// walks it through explicit phases:
//
//  1. cold: one call, timed alone and synchronized; compiles and cache hits
//     come from the probe's deltas; then Check runs, so no one times a wrong
//     answer.
//  2. capture: calls until the probe shows the JIT replaying (replays grow,
//     no new captures or compiles), at most MaxCapture calls.
//  3. warm-up: single synchronized calls until the last three agree within
//     10%, or exactly Options.Warmup calls.
//  4. calibration: the timer resolution and the cost of an empty Sync are
//     measured, then loops per sample grow in the manner of Go's
//     testing.B (see Calibrate) until one sample is long enough.
//  5. samples: sync; t0; n calls; t_enqueued; sync; t1 — repeated until the
//     budget is spent. A JIT re-capture here aborts the measurement.
//
// The package knows nothing about Jupyter, the interpreter or the tensor
// runtime: the caller adapts them to Target. Results carry their raw samples,
// robust statistics, typed warnings that name a cause and a fix, and
// provenance; Result.Text renders the compact block users see and
// json.Marshal keeps everything. docs/timing.md explains the methodology.
package timing
