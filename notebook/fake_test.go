package notebook

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// fakeRunner is a session.Runner whose cells are scripts of one command a
// line, so tests can say exactly what a cell reports:
//
//	out TEXT          stdout stream (TEXT + "\n")
//	err TEXT          stderr stream
//	show ID TEXT      display_data text/plain TEXT with display id ID ("-": none)
//	png ID N          display_data image/png of an N×1 image (plus text/plain)
//	update ID TEXT    update_display_data
//	clear / clearwait clear_output(wait=false/true)
//	value TEXT        the cell's value
//	fail NAME MSG     the cell fails
//	block             wait until interrupted
//	hang              ignore interrupts (for the stuck-cell case)
//	page TEXT         pager text
//	par N             N goroutines each print 50 lines "x", concurrently
type fakeRunner struct {
	mu        sync.Mutex
	ran       []session.Cell
	interrupt chan struct{}
}

func newFake() *fakeRunner { return &fakeRunner{interrupt: make(chan struct{}, 1)} }

func (f *fakeRunner) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	f.mu.Lock()
	f.ran = append(f.ran, c)
	f.mu.Unlock()
	var res session.Result
	for _, line := range strings.Split(c.Code, "\n") {
		cmd, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		arg1, arg2, _ := strings.Cut(rest, " ")
		id := arg1
		if id == "-" {
			id = ""
		}
		switch cmd {
		case "out":
			sink.Stream("stdout", rest+"\n")
		case "err":
			sink.Stream("stderr", rest+"\n")
		case "show":
			sink.Publish(display.Data{Bundle: display.Bundle{"text/plain": arg2}, ID: id})
		case "png":
			sink.Publish(display.Data{Bundle: display.Bundle{"image/png": testPNG(len(arg2)), "text/plain": "<image>"}, ID: id})
		case "update":
			sink.Update(display.Data{Bundle: display.Bundle{"text/plain": arg2}, ID: id})
		case "clear":
			sink.Clear(false)
		case "clearwait":
			sink.Clear(true)
		case "value":
			res.Value = &display.Data{Bundle: display.Bundle{"text/plain": rest}}
		case "page":
			res.Page = rest
		case "par":
			var wg sync.WaitGroup
			for g := 0; g < len(arg1); g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 50; i++ {
						sink.Stream("stdout", "x\n")
						sink.Publish(display.Data{Bundle: display.Bundle{"text/plain": "p"}, ID: "shared"})
						sink.Update(display.Data{Bundle: display.Bundle{"text/plain": "u"}, ID: "shared"})
					}
				}()
			}
			wg.Wait()
		case "fail":
			res.Err = &session.Error{Name: cell.Kind(arg1), Value: arg2, Traceback: []string{"\x1b[31m" + arg1 + "\x1b[0m: " + arg2}}
			return res
		case "block":
			<-f.interrupt
			res.Err = &session.Error{Name: "Interrupted", Value: "interrupted"}
			return res
		case "hang":
			time.Sleep(time.Hour)
		}
	}
	return res
}

func (f *fakeRunner) Interrupt() {
	select {
	case f.interrupt <- struct{}{}:
	default:
	}
}

func (f *fakeRunner) Complete(string, int) session.Completion     { return session.Completion{} }
func (f *fakeRunner) Inspect(string, int, int) session.Inspection { return session.Inspection{} }
func (f *fakeRunner) IsComplete(string) session.Completeness {
	return session.Completeness{Status: "complete"}
}
func (f *fakeRunner) counts() (n []int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.ran {
		n = append(n, c.Count)
	}
	return n
}

// testPNG returns a valid PNG of width w (w ≥ 1), so different widths give
// different payloads.
func testPNG(w int) []byte {
	if w < 1 {
		w = 1
	}
	img := image.NewGray(image.Rect(0, 0, w, 1))
	for x := 0; x < w; x++ {
		img.Set(x, 0, color.Gray{Y: uint8(x * 40)})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// codeNotebook returns a notebook of code cells with the given sources.
func codeNotebook(sources ...string) *Notebook {
	nb := &Notebook{Format: 4, FormatMinor: 5}
	for _, s := range sources {
		nb.Cells = append(nb.Cells, &Cell{Type: Code, Source: s})
	}
	return nb
}
