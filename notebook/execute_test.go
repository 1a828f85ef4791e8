package notebook

import (
	"context"
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// outline summarises a cell's outputs as "type:content" strings.
func outline(c *Cell) []string {
	var s []string
	for _, o := range c.Outputs {
		switch o.Type {
		case Stream:
			s = append(s, o.Name+":"+o.Text)
		case DisplayData, ExecuteResult:
			t, _ := o.Data.Text("text/plain")
			s = append(s, o.Type+":"+t)
		case ErrorOutput:
			s = append(s, "error:"+o.EName+":"+o.EValue)
		}
	}
	return s
}

func TestExecuteOutputs(t *testing.T) {
	tests := []struct {
		name string
		code string
		want []string
	}{
		{"streams merge by name", "out a\nout b\nerr c\nout d",
			[]string{"stdout:a\nb\n", "stderr:c\n", "stdout:d\n"}},
		{"display then stream", "show - x\nout a",
			[]string{"display_data:x", "stdout:a\n"}},
		{"update in same cell", "show p 0%\nupdate p 100%",
			[]string{"display_data:100%"}},
		{"update of unknown id ignored", "show p 0%\nupdate q 50%",
			[]string{"display_data:0%"}},
		{"clear now", "out a\nclear\nout b", []string{"stdout:b\n"}},
		{"clear wait applies on next output", "out a\nclearwait\nshow - x",
			[]string{"display_data:x"}},
		{"clear wait without later output keeps output", "out a\nclearwait",
			[]string{"stdout:a\n"}},
		{"clear wait then stream does not merge into cleared", "out a\nclearwait\nout b",
			[]string{"stdout:b\n"}},
		{"value is execute_result", "out a\nvalue 42",
			[]string{"stdout:a\n", "execute_result:42"}},
		{"page text shown", "page help text", []string{"display_data:help text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nb := codeNotebook(tt.code)
			if err := Execute(context.Background(), nb, newFake(), Options{}); err != nil {
				t.Fatal(err)
			}
			if got := outline(nb.Cells[0]); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("outputs = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExecuteCountsAndResult(t *testing.T) {
	nb := codeNotebook("out a", "   \n", "value 7")
	nb.Cells = append([]*Cell{{Type: Markdown, Source: "# t"}}, nb.Cells...)
	nb.Cells[3].Outputs = []*Output{{Type: Stream, Name: "stdout", Text: "stale"}}
	f := newFake()
	var progress []Progress
	err := Execute(context.Background(), nb, f, Options{Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.counts(); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("runner saw counts %v, want [1 2] (empty cell skipped)", got)
	}
	if c := nb.Cells[2]; c.ExecutionCount != nil || len(c.Outputs) != 0 {
		t.Errorf("empty cell: count %v outputs %d, want nil and 0", c.ExecutionCount, len(c.Outputs))
	}
	last := nb.Cells[3]
	if last.ExecutionCount == nil || *last.ExecutionCount != 2 {
		t.Fatalf("last cell count = %v, want 2", last.ExecutionCount)
	}
	if len(last.Outputs) != 1 || last.Outputs[0].ExecutionCount == nil || *last.Outputs[0].ExecutionCount != 2 {
		t.Errorf("last cell outputs = %q, want one execute_result with count 2 (stale output replaced)", outline(last))
	}
	var status []string
	for _, p := range progress {
		status = append(status, p.Status)
		if p.Total != 3 {
			t.Errorf("progress total = %d, want 3", p.Total)
		}
	}
	if want := []string{StatusOK, StatusSkipped, StatusOK}; !reflect.DeepEqual(status, want) {
		t.Errorf("progress statuses = %v, want %v", status, want)
	}
	if progress[2].Cell != 4 || progress[2].N != 3 || progress[2].FirstLine != "value 7" {
		t.Errorf("progress[2] = %+v, want cell 4, N 3, first line \"value 7\"", progress[2])
	}
}

func TestExecuteUpdateReachesEarlierCell(t *testing.T) {
	nb := codeNotebook("show bar 0%", "out work", "update bar 100%")
	if err := Execute(context.Background(), nb, newFake(), Options{}); err != nil {
		t.Fatal(err)
	}
	if got := outline(nb.Cells[0]); !reflect.DeepEqual(got, []string{"display_data:100%"}) {
		t.Errorf("first cell = %q, want the updated display", got)
	}
	if got := outline(nb.Cells[2]); len(got) != 0 {
		t.Errorf("updating cell has outputs %q, want none", got)
	}
}

func TestExecuteStopsAtError(t *testing.T) {
	nb := codeNotebook("out a", "out b\nfail Panic boom", "out c")
	nb.Cells[2].Outputs = []*Output{{Type: Stream, Name: "stdout", Text: "stale"}}
	f := newFake()
	err := Execute(context.Background(), nb, f, Options{})
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CellError", err)
	}
	if ce.Cell != 2 || ce.Count != 2 || ce.Err.Name != "Panic" || ce.Err.Value != "boom" {
		t.Errorf("CellError = %+v, want cell 2 Panic boom", ce)
	}
	if !strings.Contains(err.Error(), "cell[2] (") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("message %q does not name the cell and the error", err)
	}
	if got := outline(nb.Cells[1]); !reflect.DeepEqual(got, []string{"stdout:b\n", "error:Panic:boom"}) {
		t.Errorf("failing cell outputs = %q", got)
	}
	if len(f.counts()) != 2 || nb.Cells[2].ExecutionCount != nil || len(nb.Cells[2].Outputs) != 0 {
		t.Errorf("cell after the error ran or kept stale output: counts %v, outputs %q", f.counts(), outline(nb.Cells[2]))
	}
}

func TestExecuteAllowErrors(t *testing.T) {
	nb := codeNotebook("fail CompileError bad", "out c")
	var statuses []string
	err := Execute(context.Background(), nb, newFake(), Options{AllowErrors: true,
		Progress: func(p Progress) { statuses = append(statuses, p.Status) }})
	if err != nil {
		t.Fatalf("err = %v, want nil with AllowErrors", err)
	}
	if got := outline(nb.Cells[1]); !reflect.DeepEqual(got, []string{"stdout:c\n"}) {
		t.Errorf("cell after the error = %q, want it run", got)
	}
	if !reflect.DeepEqual(statuses, []string{StatusError, StatusOK}) {
		t.Errorf("statuses = %v", statuses)
	}
	tb := nb.Cells[0].Outputs[0].Traceback
	if len(tb) != 1 || !strings.Contains(tb[0], "CompileError") {
		t.Errorf("traceback = %q", tb)
	}
}

func TestExecuteTimeout(t *testing.T) {
	nb := codeNotebook("out started\nblock", "out next")
	var last Progress
	err := Execute(context.Background(), nb, newFake(), Options{Timeout: 20 * time.Millisecond,
		Progress: func(p Progress) { last = p }})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Err.Name != "Timeout" || ce.Cell != 1 {
		t.Fatalf("err = %v, want a Timeout CellError for cell 1", err)
	}
	if got := outline(nb.Cells[0]); len(got) != 2 || got[0] != "stdout:started\n" || !strings.HasPrefix(got[1], "error:Timeout:") {
		t.Errorf("outputs = %q, want the stream then a Timeout error", got)
	}
	if last.Status != StatusTimeout {
		t.Errorf("progress status = %q, want timeout", last.Status)
	}

	// With AllowErrors, a cell that stopped when interrupted lets the next run.
	nb = codeNotebook("block", "out next")
	if err := Execute(context.Background(), nb, newFake(), Options{Timeout: 20 * time.Millisecond, AllowErrors: true}); err != nil {
		t.Fatalf("AllowErrors: %v", err)
	}
	if got := outline(nb.Cells[1]); !reflect.DeepEqual(got, []string{"stdout:next\n"}) {
		t.Errorf("after timeout: %q, want the next cell run", got)
	}
}

func TestExecuteStuckCellStopsEvenWithAllowErrors(t *testing.T) {
	nb := codeNotebook("hang", "out next")
	f := newFake()
	err := Execute(context.Background(), nb, f, Options{Timeout: 10 * time.Millisecond,
		InterruptGrace: 10 * time.Millisecond, AllowErrors: true})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Err.Name != "Timeout" || !strings.Contains(ce.Err.Value, "did not stop") {
		t.Fatalf("err = %v, want a Timeout saying the cell did not stop", err)
	}
	if len(f.counts()) != 1 {
		t.Errorf("runner ran %d cells, want 1", len(f.counts()))
	}
}

func TestExecuteContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	nb := codeNotebook("block", "out next")
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	err := Execute(ctx, nb, newFake(), Options{AllowErrors: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := outline(nb.Cells[0]); len(got) != 1 || got[0] != "error:Interrupted:interrupted" {
		t.Errorf("outputs = %q, want the Interrupted error", got)
	}
}

func TestExecutePNGIsBase64(t *testing.T) {
	nb := codeNotebook("png - xxx")
	if err := Execute(context.Background(), nb, newFake(), Options{}); err != nil {
		t.Fatal(err)
	}
	s, ok := nb.Cells[0].Outputs[0].Data.Text("image/png")
	if !ok {
		t.Fatal("no image/png string in output")
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || string(raw) != string(testPNG(3)) {
		t.Errorf("image/png does not decode to the published bytes (err %v)", err)
	}
}

func TestExecuteConcurrentOutput(t *testing.T) {
	nb := codeNotebook("par xxxx") // 4 goroutines
	if err := Execute(context.Background(), nb, newFake(), Options{}); err != nil {
		t.Fatal(err)
	}
	lines, displays := 0, 0
	for _, o := range nb.Cells[0].Outputs {
		switch o.Type {
		case Stream:
			lines += strings.Count(o.Text, "x\n")
		case DisplayData:
			displays++
		}
	}
	if lines != 200 || displays != 200 {
		t.Errorf("got %d lines and %d displays, want 200 and 200", lines, displays)
	}
}
