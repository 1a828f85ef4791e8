package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite logo-64x64.png")

func TestDataDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"JUPYTER_DATA_DIR wins", Options{Env: []string{"HOME=/h", "XDG_DATA_HOME=/x", "JUPYTER_DATA_DIR=/j"}}, "/j"},
		{"XDG_DATA_HOME", Options{Env: []string{"HOME=/h", "XDG_DATA_HOME=/x"}}, "/x/jupyter"},
		{"home", Options{Env: []string{"HOME=/h"}}, "/h/.local/share/jupyter"},
		{"prefix", Options{Prefix: "/opt/p", Env: []string{"JUPYTER_DATA_DIR=/j"}}, "/opt/p/share/jupyter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DataDir(tc.o)
			if err != nil || got != tc.want {
				t.Errorf("DataDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := DataDir(Options{Prefix: "/p", SysPrefix: true}); err == nil {
		t.Error("--prefix with --sys-prefix accepted")
	}
}

func TestInstallUninstall(t *testing.T) {
	data := t.TempDir()
	o := Options{Name: "tick-test", Binary: "/usr/local/bin/tick", Env: []string{"JUPYTER_DATA_DIR=" + data}}
	dir, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
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
		spec.DisplayName != "Go (tick)" || spec.Language != "go" || spec.InterruptMode != "message" {
		t.Errorf("kernel.json = %s", b)
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
