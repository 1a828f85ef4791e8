// Command calibrate measures how often %timeit --vs's comparison is wrong
// on this machine, under synthetic load of several kinds (docs/timing.md,
// "Calibration of comparisons"): A/A comparisons of two identical
// timing.Spin workloads (any verdict but "no detectable difference" or
// "cannot tell" is a false positive) and A/B comparisons of Spin(100 µs)
// against Spin(115 µs) (power: the share found slower; a wrong verdict
// says faster or no difference), each through timing.Interleave and
// timing.Compare with the default budget, as %timeit --vs runs them.
//
//	go run ./bench/calibrate [-aa 40] [-ab 20] [-loads none,cpu:4,burst:4,mem:2,cpu:16]
//
// A load is KIND:N, N processes of one kind started beside the
// comparisons (killed after them): cpu (a busy loop), burst (busy for
// 0.2–1.5 s, asleep for 0.2–1.5 s, at random), mem (copying 64 MiB
// buffers: memory bandwidth); loads joined by "+" run together
// (cpu:4+burst:4). The load average at the start and end of
// every configuration is printed with its figures, in a Markdown table.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tick-kernel/tick/timing"
)

func main() {
	hog := flag.String("hog", "", "run as a load process of this kind (internal)")
	aa := flag.Int("aa", 40, "A/A comparisons per load")
	ab := flag.Int("ab", 20, "A/B comparisons per load")
	loads := flag.String("loads", "none,cpu:4,burst:4,mem:2,cpu:16", "comma-separated KIND:N loads")
	budget := flag.Duration("budget", timing.DefaultBudget, "each comparison's budget")
	base := flag.Duration("base", 100*time.Microsecond, "the A workload's Spin")
	diff := flag.Float64("diff", 0.15, "the B workload's relative extra cost")
	flag.BoolVar(&verbose, "v", false, "print every comparison's row to stderr")
	flag.Parse()
	if *hog != "" {
		runHog(*hog)
		return
	}
	fmt.Printf("A/A: Spin(%v) vs itself; A/B: Spin(%v) vs Spin(%v); budget %v each; %d CPUs\n\n",
		*base, *base, time.Duration(float64(*base)*(1+*diff)), *budget, numCPU())
	fmt.Println("| load | load avg (start → end) | A/A | A/A false positives | A/A cannot tell | A/B | A/B found slower | A/B cannot tell | A/B wrong |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, l := range strings.Split(*loads, ",") {
		stop := startLoad(l)
		time.Sleep(2 * time.Second) // let the load settle in
		l0 := loadavg()
		var aaRes, abRes tally
		for i := range max(*aa, *ab) {
			if i < *aa {
				aaRes.add(compare(*base, *base, *budget), false)
			}
			if i < *ab {
				abRes.add(compare(*base, time.Duration(float64(*base)*(1+*diff)), *budget), true)
			}
		}
		l1 := loadavg()
		stop()
		fmt.Printf("| %s | %s → %s | %d | %d (%.0f%%) | %d | %d | %d (%.0f%%) | %d | %d |\n", l, l0, l1,
			aaRes.n, aaRes.positive, pct(aaRes.positive, aaRes.n), aaRes.cannot,
			abRes.n, abRes.slower, pct(abRes.slower, abRes.n), abRes.cannot, abRes.wrong)
	}
}

var verbose bool

type tally struct{ n, positive, slower, cannot, wrong int }

func (t *tally) add(v timing.Verdict, different bool) {
	t.n++
	switch v {
	case timing.VerdictCannotTell:
		t.cannot++
	case timing.VerdictSlower:
		t.slower++
		t.positive++
	case timing.VerdictFaster:
		t.positive++
		if different {
			t.wrong++
		}
	case timing.VerdictSame:
		if different {
			t.wrong++
		}
	}
}

func pct(k, n int) float64 { return 100 * float64(k) / float64(max(n, 1)) }

// compare runs one interleaved comparison of Spin(a) against Spin(b).
func compare(a, b, budget time.Duration) timing.Verdict {
	spin := func(d time.Duration) timing.Target {
		return timing.Target{Call: func(n int) error {
			for range n {
				timing.Spin(d)
			}
			return nil
		}}
	}
	ra, rb, err := timing.Interleave(context.Background(), spin(a), spin(b), timing.Options{Budget: budget})
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	row := timing.Compare(ra, rb).Rows[1]
	if verbose {
		e := row.Estimate
		fmt.Fprintf(os.Stderr, "%v vs %v: %-24s ratio %.3f [%.3f, %.3f] p=%.3f rounds %d (%d above, %d below) load shift %.2f medians %.0f/%.0f µs %s\n",
			a, b, row.Verdict, row.Ratio, row.RatioLo, row.RatioHi, row.P, e.N, e.Above, e.Below, row.LoadShift,
			ra.Stats.Median/1e3, rb.Stats.Median/1e3, row.Why)
	}
	return row.Verdict
}

// startLoad starts the load l — KIND:N, or several joined by "+"
// (cpu:4+burst:4: busy loops and a bursty load at once) — and returns
// the function that stops it.
func startLoad(l string) func() {
	var stops []func()
	for _, part := range strings.Split(l, "+") {
		kind, n := parseLoad(part)
		stops = append(stops, startHogs(kind, n))
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

func parseLoad(s string) (string, int) {
	kind, n, ok := strings.Cut(s, ":")
	if !ok {
		return kind, 0
	}
	k, err := strconv.Atoi(n)
	if err != nil {
		fmt.Fprintf(os.Stderr, "calibrate: load %q: want KIND:N\n", s)
		os.Exit(2)
	}
	return kind, k
}

// startHogs starts n load processes of kind (this program with -hog) and
// returns the function that stops them.
func startHogs(kind string, n int) func() {
	if kind == "none" || n == 0 {
		return func() {}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	var cs []*exec.Cmd
	for range n {
		c := exec.Command(self, "-hog", kind)
		c.Env = append(os.Environ(), "GOMAXPROCS=1")
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		cs = append(cs, c)
	}
	return func() {
		for _, c := range cs {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}
}

// runHog is one load process; it runs until killed.
func runHog(kind string) {
	switch kind {
	case "cpu":
		//lint:ignore SA5002 a CPU load process: spinning is all it does, until killed
		for {
		}
	case "burst":
		for {
			timing.Spin(time.Duration(200+rand.IntN(1300)) * time.Millisecond)
			time.Sleep(time.Duration(200+rand.IntN(1300)) * time.Millisecond)
		}
	case "mem":
		a, b := make([]byte, 64<<20), make([]byte, 64<<20)
		for {
			copy(a, b)
			copy(b, a)
		}
	}
	fmt.Fprintf(os.Stderr, "calibrate: unknown load kind %q\n", kind)
	os.Exit(2)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

func numCPU() int {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "processor\t:")
}
