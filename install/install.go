// Package install writes, finds and removes tick's Jupyter kernelspec: the
// directory kernels/<name>/ holding kernel.json (how Jupyter starts
// `tick kernel {connection_file}`), kernel.js (for the classic Notebook)
// and the logos, in the Jupyter data
// directory chosen the way jupyter_core chooses it.
package install

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DefaultName is the kernelspec name `tick install` uses.
const DefaultName = "tick"

// KernelSpec is the content of kernel.json.
type KernelSpec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// Spec returns the kernelspec that starts binary as a kernel.
func Spec(binary string) KernelSpec {
	return KernelSpec{
		Argv:          []string{binary, "kernel", "{connection_file}"},
		DisplayName:   "Go (tick)",
		Language:      "go",
		InterruptMode: "message",
	}
}

// Options say where and under which name to install.
type Options struct {
	// Name of the kernelspec directory; DefaultName when empty. It must
	// be a name Jupyter accepts (ValidateName).
	Name string
	// DisplayName is the name Jupyter's launcher shows; "Go (tick)" for
	// the default Name, "Go (tick: NAME)" for another.
	DisplayName string
	// KernelEnv is written into kernel.json's "env": Jupyter sets it in
	// the kernel's environment (DEVICE, DEBUG, GOFLAGS …).
	KernelEnv map[string]string
	// User, System, SysPrefix and Prefix choose the data directory; at
	// most one may be set, and User is the default. Prefix installs into
	// Prefix/share/jupyter (like `jupyter kernelspec install --prefix`),
	// SysPrefix into {sys.prefix}/share/jupyter of the Python that runs
	// Jupyter, System into the first system-wide directory.
	User, System, SysPrefix bool
	Prefix                  string
	// Binary is the path of the tick executable; the running executable
	// when empty. A temporary binary (go run, go test) is refused.
	Binary string
	// Env is the process environment (os.Environ when nil); it decides
	// JUPYTER_DATA_DIR, JUPYTER_PATH, XDG_DATA_HOME, APPDATA, HOME, GOCACHE.
	Env []string
	// GOOS decides the platform's directories (runtime.GOOS when empty).
	GOOS string
}

func (o Options) name() string {
	if o.Name == "" {
		return DefaultName
	}
	return o.Name
}

func (o Options) displayName() string {
	switch {
	case o.DisplayName != "":
		return o.DisplayName
	case o.name() == DefaultName:
		return Spec("").DisplayName
	}
	return "Go (tick: " + o.name() + ")"
}

// pythonSysPrefix asks the Python that runs `jupyter` (its shebang; else
// python3 on PATH) for sys.prefix.
func pythonSysPrefix() (string, error) {
	python := "python3"
	if j, err := exec.LookPath("jupyter"); err == nil {
		if py := shebang(j); py != "" {
			python = py
		}
	}
	out, err := exec.Command(python, "-c", "import sys; print(sys.prefix)").Output()
	if err != nil {
		return "", fmt.Errorf("install: --sys-prefix needs Python to tell its sys.prefix, and %s failed: %w; use --prefix DIR instead", python, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func shebang(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) == "env" && len(fields) > 1 {
		return fields[1]
	}
	return fields[0]
}

// Dir returns the kernelspec directory the options select.
func Dir(o Options) (string, error) {
	if err := ValidateName(o.name()); err != nil {
		return "", err
	}
	data, err := DataDir(o)
	if err != nil {
		return "", err
	}
	return o.join(data, "kernels", o.name()), nil
}

// Result says what Install did and whether Jupyter will find it.
type Result struct {
	// Dir is the kernelspec directory written; DataDir the Jupyter data
	// directory it is in.
	Dir, DataDir string
	// Spec is what kernel.json holds.
	Spec KernelSpec
	// Found reports whether DataDir is one Jupyter searches (SearchPath,
	// or the sys.prefix of Jupyter's Python); when not, JUPYTER_PATH must
	// name DataDir.
	Found bool
}

// kernelJS is kernel.js, which the classic Notebook (6) loads from the
// kernelspec when a tick kernel starts: tabs in code cells are blank space,
// not arrows, and Tab indents with a tab as gofmt does.
//
//go:embed kernel.js
var kernelJS []byte

// Install writes kernel.json, kernel.js and the logos.
func Install(o Options) (Result, error) {
	dir, err := Dir(o)
	if err != nil {
		return Result{}, err
	}
	spec, err := buildSpec(o)
	if err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, fmt.Errorf("install: creating %s: %w (use --user, --prefix DIR or set JUPYTER_DATA_DIR to install elsewhere)", dir, err)
	}
	js, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return Result{}, fmt.Errorf("install: encoding kernel.json: %w", err)
	}
	files := map[string][]byte{"kernel.json": append(js, '\n'), "kernel.js": kernelJS}
	for _, size := range []int{32, 64} {
		var b bytes.Buffer
		if err := WriteLogo(&b, size); err != nil {
			return Result{}, err
		}
		files[fmt.Sprintf("logo-%dx%d.png", size, size)] = b.Bytes()
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return Result{}, fmt.Errorf("install: writing %s: %w", name, err)
		}
	}
	data := filepath.Dir(filepath.Dir(dir))
	return Result{Dir: dir, DataDir: data, Spec: spec, Found: found(o, data)}, nil
}

// buildSpec is the kernel.json the options ask for.
func buildSpec(o Options) (KernelSpec, error) {
	bin := o.Binary
	var err error
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return KernelSpec{}, fmt.Errorf("install: finding the tick binary: %w; pass its path with --binary", err)
		}
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return KernelSpec{}, fmt.Errorf("install: binary path: %w", err)
	}
	if err := checkBinary(o, bin); err != nil {
		return KernelSpec{}, err
	}
	spec := Spec(bin)
	spec.DisplayName = o.displayName()
	spec.Env = o.KernelEnv
	return spec, nil
}

// found reports whether Jupyter searches data for kernels.
func found(o Options, data string) bool {
	if where, _ := o.where(); where == SysPrefix {
		return true
	}
	for _, d := range SearchPath(o) {
		if same(d, data) {
			return true
		}
	}
	if p, err := pythonSysPrefix(); err == nil && same(filepath.Join(p, "share", "jupyter"), data) {
		return true
	}
	return false
}

func same(a, b string) bool {
	if a, err := filepath.Abs(a); err == nil {
		if b, err := filepath.Abs(b); err == nil {
			return filepath.Clean(a) == filepath.Clean(b)
		}
	}
	return a == b
}

// Uninstall removes the kernelspec directory; it returns the directory and
// an error wrapping fs.ErrNotExist when nothing was installed there.
func Uninstall(o Options) (string, error) {
	dir, err := Dir(o)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "kernel.json")); err != nil {
		return dir, fmt.Errorf("install: no kernelspec %q at %s: %w", o.name(), dir, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return dir, fmt.Errorf("install: removing %s: %w", dir, err)
	}
	return dir, nil
}
