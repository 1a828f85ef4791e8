package supervisor

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/internal/memlimit"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/crash")

// TestCrashReportsGolden: what a cell shows for Go's real crash reports
// (testdata/crash/*.txt, captured from processes that crashed): the fatal
// message, what it means, what to do, and the raising goroutine in a few
// readable lines.
func TestCrashReportsGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/crash/*.txt")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := newStderrScanner(strings.NewReader(string(raw)), io.Discard)
			<-s.done
			d := &death{report: s.Report(), status: "exit status 2", exitCode: 2,
				ceiling: memlimit.Ceiling{Limit: memlimit.Limit{Bytes: 1 << 30, Source: "fixture"}}}
			got := strings.Join(d.cellError().Traceback, "\n") + "\n"
			golden := strings.TrimSuffix(f, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("traceback changed (go test -update rewrites it):\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}
