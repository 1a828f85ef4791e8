package compat

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/build"
	"os"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
)

// The programs run in worker processes: this test binary started again
// with workerEnv naming the engine. A program that exits the process,
// crashes the interpreter or never ends costs its worker, not the test.
// The worker reads program paths, one a line, from file descriptor 3 and
// writes one JSON outcome a line to file descriptor 4 (programs may write
// to the process's own stdout and read its stdin).
const workerEnv = "TICK_COMPAT_WORKER"

// The engines a program runs through besides go.
const (
	engineTick  = "tick"
	engineYaegi = "yaegi"
)

// outcome is what one engine made of one program.
type outcome struct {
	Name   string
	Output string // stdout and stderr, in the order written
	Err    string // the error the engine reported, "" when none
	Millis int64
}

// TestWorker is the worker process's body; it is skipped in a normal run.
func TestWorker(t *testing.T) {
	engine := os.Getenv(workerEnv)
	if engine == "" {
		t.Skip("runs only as a worker of TestYaegiCorpus")
	}
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "outcomes")
	enc := json.NewEncoder(out)
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		path := sc.Text()
		start := time.Now()
		var o outcome
		switch engine {
		case engineTick:
			o = runTick(path)
		case engineYaegi:
			o = runYaegi(path)
		default:
			t.Fatalf("unknown engine %q", engine)
		}
		o.Millis = time.Since(start).Milliseconds()
		if err := enc.Encode(o); err != nil {
			t.Fatal(err)
		}
	}
}

// output is what rec recorded as a terminal shows a program's output:
// the cell's streams, stdout and stderr in the order written, every byte
// of it compared with go run's; displays (tick's notes, such as how an
// import was served) are not output a terminal would show.
func output(rec *sinktest.Recorder) string { return rec.Text("") }

// runTick pastes the program, as it is, into the first cell of a fresh
// production session (kernel/app: the engine with the magics), in a
// process whose command line is a kernel's, as in Jupyter.
func runTick(path string) outcome {
	o := outcome{Name: path}
	src, err := os.ReadFile(path)
	if err != nil {
		o.Err = err.Error()
		return o
	}
	os.Args = []string{"tick", "kernel", "-f", "kernel.json"}
	flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	r, err := app.New(session.Options{})
	if err != nil {
		o.Err = err.Error()
		return o
	}
	rec := &sinktest.Recorder{}
	res := r.Execute(context.Background(), session.Cell{Code: string(src), Count: 1}, rec)
	o.Output = output(rec)
	if res.Err != nil {
		o.Err = string(res.Err.Name) + ": " + res.Err.Value
	}
	return o
}

// runYaegi runs the file as `yaegi run FILE` does: an interpreter with the
// standard library and yaegi's own symbols, os.Args the file and its flag
// set fresh; EvalPath runs main. Its stdout and stderr are one file, as a
// terminal's are, so os.Stdout is an *os.File as under `yaegi run`.
func runYaegi(path string) outcome {
	o := outcome{Name: path}
	f, err := os.CreateTemp("", "yaegi-out-*")
	if err != nil {
		o.Err = err.Error()
		return o
	}
	defer os.Remove(f.Name())
	defer f.Close()
	os.Args = []string{path}
	flag.CommandLine = flag.NewFlagSet(path, flag.ContinueOnError)
	i := interp.New(interp.Options{GoPath: build.Default.GOPATH, Env: os.Environ(), Stdout: f, Stderr: f, Args: os.Args})
	if err := i.Use(stdlib.Symbols); err != nil {
		o.Err = err.Error()
		return o
	}
	if err := i.Use(interp.Symbols); err != nil {
		o.Err = err.Error()
		return o
	}
	_, err = i.EvalPath(path)
	if b, rerr := os.ReadFile(f.Name()); rerr == nil {
		o.Output = string(b)
	}
	if err != nil {
		o.Err = fmt.Sprint(err)
	}
	return o
}
