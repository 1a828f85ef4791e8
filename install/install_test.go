package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite logo-64x64.png")

func TestDataDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"JUPYTER_DATA_DIR wins", Options{GOOS: "linux", Env: []string{"HOME=/h", "XDG_DATA_HOME=/x", "JUPYTER_DATA_DIR=/j"}}, "/j"},
		{"XDG_DATA_HOME", Options{GOOS: "linux", Env: []string{"HOME=/h", "XDG_DATA_HOME=/x"}}, "/x/jupyter"},
		{"home", Options{GOOS: "linux", Env: []string{"HOME=/h"}}, "/h/.local/share/jupyter"},
		{"--user is the default", Options{GOOS: "linux", User: true, Env: []string{"HOME=/h"}}, "/h/.local/share/jupyter"},
		{"macOS", Options{GOOS: "darwin", Env: []string{"HOME=/Users/u", "XDG_DATA_HOME=/x"}}, "/Users/u/Library/Jupyter"},
		{"macOS JUPYTER_DATA_DIR", Options{GOOS: "darwin", Env: []string{"HOME=/Users/u", "JUPYTER_DATA_DIR=/j"}}, "/j"},
		{"Windows APPDATA", Options{GOOS: "windows", Env: []string{`APPDATA=C:\Users\u\AppData\Roaming`}}, `C:\Users\u\AppData\Roaming\jupyter`},
		{"Windows system", Options{GOOS: "windows", System: true, Env: []string{`PROGRAMDATA=D:\PD`}}, `D:\PD\jupyter`},
		{"system", Options{GOOS: "linux", System: true, Env: []string{"JUPYTER_DATA_DIR=/j"}}, "/usr/local/share/jupyter"},
		{"prefix", Options{GOOS: "linux", Prefix: "/opt/p", Env: []string{"JUPYTER_DATA_DIR=/j"}}, "/opt/p/share/jupyter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DataDir(tc.o)
			if err != nil || got != tc.want {
				t.Errorf("DataDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestOptionErrors(t *testing.T) {
	data := t.TempDir()
	env := []string{"JUPYTER_DATA_DIR=" + data}
	for _, tc := range []struct {
		name string
		o    Options
		want string // in the message
		as   any
	}{
		{"prefix and sys-prefix", Options{Prefix: "/p", SysPrefix: true}, "--sys-prefix and --prefix exclude each other", new(*OptionError)},
		{"user and system", Options{User: true, System: true}, "--user and --system exclude each other", new(*OptionError)},
		{"system and prefix", Options{System: true, Prefix: "/p"}, "--system and --prefix exclude each other", new(*OptionError)},
		{"escaping name", Options{Name: "../evil"}, `"../evil" is not a valid kernelspec name`, new(*NameError)},
		{"dot dot", Options{Name: ".."}, "not '.' or '..' alone", new(*NameError)},
		{"slash", Options{Name: "a/b"}, "letters, digits", new(*NameError)},
		{"space", Options{Name: "my kernel"}, "--display-name", new(*NameError)},
		{"go run binary", Options{Binary: filepath.Join(os.TempDir(), "go-build1234", "b001", "exe", "tick")}, "go install github.com/tick-kernel/tick/cmd/tick@latest", new(*TemporaryBinaryError)},
		{"build cache binary", Options{Binary: "/c/gocache/ab/tick", Env: append([]string{"GOCACHE=/c/gocache"}, env...)}, "temporary binary", new(*TemporaryBinaryError)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			if o.Env == nil {
				o.Env = env
			}
			if o.Binary == "" {
				o.Binary = "/usr/local/bin/tick"
			}
			_, err := Install(o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Install: %v; want an error with %q", err, tc.want)
			}
			if !errors.As(err, tc.as) {
				t.Errorf("error %T, want %T", err, tc.as)
			}
		})
	}
	entries, _ := os.ReadDir(data)
	if len(entries) != 0 {
		t.Errorf("failed installs wrote %v", entries)
	}
	if _, err := ParseEnv([]string{"DEVICE=CPU", "=x"}); !errors.As(err, new(*EnvError)) {
		t.Errorf("ParseEnv(=x) = %v, want an EnvError", err)
	}
	if _, err := ParseEnv([]string{"NOVALUE"}); err == nil || !strings.Contains(err.Error(), "KEY=VALUE") {
		t.Errorf("ParseEnv(NOVALUE) = %v", err)
	}
	if env, err := ParseEnv([]string{"A=1", "B=x=y", "A=2", "C="}); err != nil || env["A"] != "2" || env["B"] != "x=y" || env["C"] != "" || len(env) != 3 {
		t.Errorf("ParseEnv = %v, %v", env, err)
	}
}

func TestDisplayNameEnvAndFound(t *testing.T) {
	data, prefix := t.TempDir(), t.TempDir()
	read := func(dir string) KernelSpec {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
		if err != nil {
			t.Fatal(err)
		}
		var spec KernelSpec
		if err := json.Unmarshal(b, &spec); err != nil {
			t.Fatal(err)
		}
		return spec
	}
	env := []string{"JUPYTER_DATA_DIR=" + data}
	res, err := Install(Options{Name: "tick-gpu", Binary: "/usr/local/bin/tick", Env: env, KernelEnv: map[string]string{"DEVICE": "CPU", "DEBUG": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	spec := read(res.Dir)
	if spec.DisplayName != "Go (tick: tick-gpu)" || spec.Env["DEVICE"] != "CPU" || spec.Env["DEBUG"] != "2" || !res.Found {
		t.Errorf("spec %+v found %v", spec, res.Found)
	}
	res, err = Install(Options{Name: "t2", DisplayName: "Go 1.22 (CPU)", Binary: "/usr/local/bin/tick", Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if spec := read(res.Dir); spec.DisplayName != "Go 1.22 (CPU)" || spec.Env != nil {
		t.Errorf("spec %+v", spec)
	}
	// A prefix Jupyter does not search is reported, until JUPYTER_PATH names it.
	res, err = Install(Options{Prefix: prefix, Binary: "/usr/local/bin/tick", Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found || res.DataDir != filepath.Join(prefix, "share", "jupyter") {
		t.Errorf("prefix install: %+v", res)
	}
	res, err = Install(Options{Prefix: prefix, Binary: "/usr/local/bin/tick", Env: append(env, "JUPYTER_PATH=/elsewhere:"+res.DataDir)})
	if err != nil || !res.Found {
		t.Errorf("prefix on JUPYTER_PATH: %+v, %v", res, err)
	}
}

func TestInstallUninstall(t *testing.T) {
	data := t.TempDir()
	o := Options{Name: "tick-test", Binary: "/usr/local/bin/tick", Env: []string{"JUPYTER_DATA_DIR=" + data}}
	res, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	dir := res.Dir
	if dir != filepath.Join(data, "kernels", "tick-test") {
		t.Errorf("dir = %s", dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec KernelSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	want := []string{"/usr/local/bin/tick", "kernel", "{connection_file}"}
	if len(spec.Argv) != 3 || spec.Argv[0] != want[0] || spec.Argv[1] != want[1] || spec.Argv[2] != want[2] ||
		spec.DisplayName != "Go (tick: tick-test)" || spec.Language != "go" || spec.InterruptMode != "message" {
		t.Errorf("kernel.json = %s", b)
	}
	// kernel.js, for the classic Notebook: a RequireJS module with onload
	// (what Notebook 6 calls); the browser test checks what it does.
	if js, err := os.ReadFile(filepath.Join(dir, "kernel.js")); err != nil || !bytes.Contains(js, []byte("define(")) ||
		!bytes.Contains(js, []byte("onload:")) || !bytes.Contains(js, []byte("span.cm-tab")) {
		t.Errorf("kernel.js: %v\n%s", err, js)
	}
	for _, size := range []int{32, 64} {
		f, err := os.Open(filepath.Join(dir, "logo-"+itoa(size)+"x"+itoa(size)+".png"))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != size || cfg.Height != size {
			t.Errorf("logo %d: %+v, %v", size, cfg, err)
		}
	}
	if _, err := Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after uninstall: %v", err)
	}
	if _, err := Uninstall(o); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second uninstall: %v, want ErrNotExist", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTemplateMatchesSpec keeps the repository's kernel.json template in
// step with what Install writes.
func TestTemplateMatchesSpec(t *testing.T) {
	b, err := os.ReadFile("../kernel.json")
	if err != nil {
		t.Fatal(err)
	}
	var tmpl KernelSpec
	if err := json.Unmarshal(b, &tmpl); err != nil {
		t.Fatal(err)
	}
	want := Spec("tick")
	got, _ := json.Marshal(tmpl)
	exp, _ := json.Marshal(want)
	if !bytes.Equal(got, exp) {
		t.Errorf("kernel.json template = %s, want %s", got, exp)
	}
}

// TestLogoGolden checks the committed logo file is what Logo draws
// (regenerate with go test ./install -run Logo -update).
func TestLogoGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLogo(&b, 64); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("logo-64x64.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile("logo-64x64.png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(golden, b.Bytes()) {
		t.Error("logo-64x64.png differs from Logo(64); run with -update if the change is intended")
	}
	img := Logo(64)
	if c := img.NRGBAAt(0, 0); c.A != 0 {
		t.Errorf("corner pixel %v, want transparent", c)
	}
	if c := img.NRGBAAt(32, 10); c != logoBlue {
		t.Errorf("disc pixel %v, want %v", c, logoBlue)
	}
}

// TestSysPrefix asks Jupyter's Python for its sys.prefix, as --sys-prefix
// does (skipped without python3).
func TestSysPrefix(t *testing.T) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.prefix)").Output()
	if err != nil {
		t.Skip("no python3:", err)
	}
	got, err := DataDir(Options{SysPrefix: true})
	want := filepath.Join(strings.TrimSpace(string(out)), "share", "jupyter")
	if _, jerr := exec.LookPath("jupyter"); jerr != nil && (err != nil || got != want) {
		t.Errorf("DataDir(--sys-prefix) = %q, %v; want %q", got, err, want)
	}
	if err != nil || !strings.HasSuffix(got, filepath.Join("share", "jupyter")) {
		t.Errorf("DataDir(--sys-prefix) = %q, %v", got, err)
	}
}
