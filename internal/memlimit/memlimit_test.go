package memlimit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	v2Mount = "35 25 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
	v1Mount = "36 25 0:31 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n" +
		"37 25 0:32 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids\n"
	hybridV2 = "38 25 0:33 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n"
	meminfo  = "MemTotal:       24683584 kB\nMemFree:        1000 kB\n"
	unlimV1  = "9223372036854771712"
)

// tree writes files (path → content) under a temporary root.
func tree(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestDiscoverOnFixtures: the ceiling is the smallest limit that applies,
// wherever it is set: a parent cgroup (v2 or v1), memory.high, a resource
// limit, the machine; TICK_MEMORY_LIMIT overrides them all.
func TestDiscoverOnFixtures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		rlimit map[string]uint64
		env    string
		bytes  int64
		source string
		err    bool
	}{
		{name: "nested v2: the parent's memory.max",
			files: map[string]string{
				"/proc/self/cgroup":                              "0::/user.slice/app.scope\n",
				"/proc/self/mountinfo":                           v2Mount,
				"/proc/meminfo":                                  meminfo,
				"/sys/fs/cgroup/user.slice/memory.max":           "2147483648\n",
				"/sys/fs/cgroup/user.slice/memory.high":          "max\n",
				"/sys/fs/cgroup/user.slice/app.scope/memory.max": "max\n",
			},
			bytes: 2 << 30, source: "cgroup v2 memory.max of /sys/fs/cgroup/user.slice"},
		{name: "v2 memory.high below memory.max (the kernel throttles there rather than kill)",
			files: map[string]string{
				"/proc/self/cgroup":              "0::/job\n",
				"/proc/self/mountinfo":           v2Mount,
				"/proc/meminfo":                  meminfo,
				"/sys/fs/cgroup/job/memory.max":  "4294967296\n",
				"/sys/fs/cgroup/job/memory.high": "1610612736\n",
			},
			bytes: 1536 << 20, source: "cgroup v2 memory.high of /sys/fs/cgroup/job"},
		{name: "v2 in a cgroup namespace: the root's own file",
			files: map[string]string{
				"/proc/self/cgroup":         "0::/\n",
				"/proc/self/mountinfo":      v2Mount,
				"/proc/meminfo":             meminfo,
				"/sys/fs/cgroup/memory.max": "1073741824\n",
			},
			bytes: 1 << 30, source: "cgroup v2 memory.max of /sys/fs/cgroup"},
		{name: "nested v1: the parent's memory.limit_in_bytes (hybrid mount, no v2 memory files)",
			files: map[string]string{
				"/proc/self/cgroup":                                         "9:pids:/\n4:memory:/process_api/x\n0::/\n",
				"/proc/self/mountinfo":                                      v1Mount + hybridV2,
				"/proc/meminfo":                                             meminfo,
				"/sys/fs/cgroup/memory/memory.limit_in_bytes":               unlimV1,
				"/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes":   "1610612736",
				"/sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": unlimV1,
			},
			bytes: 1536 << 20, source: "cgroup v1 memory.limit_in_bytes of /sys/fs/cgroup/memory/process_api"},
		{name: "v1 in a container: the mount's root is the container's cgroup",
			files: map[string]string{
				"/proc/self/cgroup":                           "4:memory:/docker/abc\n",
				"/proc/self/mountinfo":                        "40 30 0:40 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n",
				"/proc/meminfo":                               meminfo,
				"/sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912",
			},
			bytes: 512 << 20, source: "cgroup v1 memory.limit_in_bytes of /sys/fs/cgroup/memory"},
		{name: "RLIMIT_AS below the cgroup's",
			files: map[string]string{
				"/proc/self/cgroup":           "0::/a\n",
				"/proc/self/mountinfo":        v2Mount,
				"/proc/meminfo":               meminfo,
				"/sys/fs/cgroup/a/memory.max": "2147483648",
			},
			rlimit: map[string]uint64{"AS": 1 << 30, "DATA": 3 << 30},
			bytes:  1 << 30, source: "RLIMIT_AS (ulimit)"},
		{name: "RLIMIT_DATA",
			files:  map[string]string{"/proc/meminfo": meminfo},
			rlimit: map[string]uint64{"DATA": 700 << 20},
			bytes:  700 << 20, source: "RLIMIT_DATA (ulimit)"},
		{name: "no limit: the machine's memory",
			files: map[string]string{"/proc/meminfo": meminfo, "/proc/self/cgroup": "0::/\n", "/proc/self/mountinfo": v2Mount,
				"/sys/fs/cgroup/memory.max": "max"},
			bytes: 24683584 << 10, source: "the machine's memory (MemTotal)"},
		{name: "TICK_MEMORY_LIMIT wins", files: map[string]string{"/proc/meminfo": meminfo}, env: "3GiB",
			rlimit: map[string]uint64{"AS": 1 << 30}, bytes: 3 << 30, source: "TICK_MEMORY_LIMIT=3GiB"},
		{name: "TICK_MEMORY_LIMIT=off", files: map[string]string{"/proc/meminfo": meminfo}, env: "off", bytes: 0, source: "TICK_MEMORY_LIMIT=off"},
		{name: "malformed TICK_MEMORY_LIMIT", env: "lots", err: true},
		{name: "nothing readable", bytes: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := System{Root: tree(t, tc.files),
				Rlimit: func(n string) (uint64, bool) { v, ok := tc.rlimit[n]; return v, ok },
				Getenv: func(string) string { return tc.env }}
			c, err := sys.Discover()
			if tc.err {
				if err == nil || !strings.Contains(err.Error(), Env) {
					t.Fatalf("err %v, want one naming %s", err, Env)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Bytes != tc.bytes || c.Source != tc.source {
				t.Errorf("ceiling %d %q, want %d %q (all: %+v)", c.Bytes, c.Source, tc.bytes, tc.source, c.All)
			}
		})
	}
}

func TestGoLimitAndString(t *testing.T) {
	c := Ceiling{Limit: Limit{Bytes: 1536 << 20, Source: "cgroup v1 memory.limit_in_bytes of /x"}}
	if g := c.GoLimit(); g != 1288490188 {
		t.Errorf("GoLimit %d", g)
	}
	if s := c.String(); s != "1.50 GiB (cgroup v1 memory.limit_in_bytes of /x); Go's memory limit in the engine 1.20 GiB (80%)" {
		t.Errorf("String %q", s)
	}
	c.Explicit = true
	if c.GoLimit() != c.Bytes {
		t.Errorf("an explicit ceiling is Go's limit as it is")
	}
	if (Ceiling{Off: true, Limit: Limit{Bytes: 5}}).GoLimit() != 0 {
		t.Error("off has a Go limit")
	}
}

func TestOOMKills(t *testing.T) {
	sys := System{Root: tree(t, map[string]string{
		"/proc/self/cgroup":                          "4:memory:/a\n0::/b\n",
		"/proc/self/mountinfo":                       v1Mount + v2Mount,
		"/sys/fs/cgroup/memory/a/memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n",
		"/sys/fs/cgroup/b/memory.events":             "low 0\nhigh 5\nmax 1\noom 1\noom_kill 1\n",
		"/proc/vmstat":                               "nr_free_pages 1\noom_kill 7\n",
	})}
	if n := sys.OOMKills(); n != 10 {
		t.Errorf("OOMKills = %d, want 2+1+7", n)
	}
}

func TestParseSizeAndHuman(t *testing.T) {
	for in, want := range map[string]int64{"1073741824": 1 << 30, "1G": 1 << 30, "512MiB": 512 << 20, "64k": 64 << 10, " 2 GB ": 2 << 30, "1T": 1 << 40} {
		if n, err := ParseSize(in); err != nil || n != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, n, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "0", "x", "1P", "99999999999T"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	for n, want := range map[int64]string{512: "512 B", 1536 << 20: "1.50 GiB", 24683584 << 10: "23.5 GiB", 200 << 20: "200 MiB", 3 << 40: "3 TiB"} {
		if got := Human(n); got != want {
			t.Errorf("Human(%d) = %q, want %q", n, got, want)
		}
	}
}

// helperEnv makes the test binary print what it discovers (run inside a
// cgroup by TestDiscoverInARealCgroup).
const helperEnv = "TICK_MEMLIMIT_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		c, err := Discover()
		fmt.Printf("%d\t%s\t%v\n", c.Bytes, c.Source, err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestDiscoverInARealCgroup creates a memory cgroup of 1.5 GiB under the
// test's own (v2 where its memory controller is available, else v1),
// starts a process in it and checks that the process finds that limit.
// It needs permission to create cgroups (root, or a delegated subtree).
func TestDiscoverInARealCgroup(t *testing.T) {
	dir, procs := makeMemoryCgroup(t, 1536<<20)
	cmd := exec.Command("/bin/sh", "-c", `echo $$ > "$1" && exec "$2" -test.run='^$'`, "sh", procs, os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=1", Env+"=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	f := strings.SplitN(strings.TrimSpace(string(out)), "\t", 3)
	if len(f) != 3 || f[0] != strconv.Itoa(1536<<20) || !strings.Contains(f[1], dir) {
		t.Fatalf("a process in %s found %q, want 1.5 GiB from that cgroup", dir, out)
	}
}

// makeMemoryCgroup creates a child of the process's memory cgroup with a
// limit and returns its directory and cgroup.procs; it skips the test
// when it cannot.
func makeMemoryCgroup(t *testing.T, limit int64) (dir, procs string) {
	host := Host()
	name := fmt.Sprintf("tick-memlimit-test-%d", os.Getpid())
	if parent, _, ok := host.Dir(""); ok {
		if b, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control")); err == nil && strings.Contains(string(b), "memory") {
			dir = filepath.Join(parent, name)
			if err := os.Mkdir(dir, 0o755); err == nil {
				t.Cleanup(func() { os.Remove(dir) })
				if err := os.WriteFile(filepath.Join(dir, "memory.max"), []byte(strconv.FormatInt(limit, 10)), 0); err != nil {
					t.Fatal(err)
				}
				return dir, filepath.Join(dir, "cgroup.procs")
			}
		}
	}
	parent, _, ok := host.Dir("memory")
	if !ok {
		t.Skip("no memory cgroup controller to create a cgroup in")
	}
	dir = filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cannot create a memory cgroup here (%v): needs root or a delegated cgroup", err)
	}
	t.Cleanup(func() { os.Remove(dir) })
	if err := os.WriteFile(filepath.Join(dir, "memory.limit_in_bytes"), []byte(strconv.FormatInt(limit, 10)), 0); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, "cgroup.procs")
}
