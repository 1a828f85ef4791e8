// Package install writes, finds and removes tick's Jupyter kernelspec: the
// directory kernels/<name>/ holding kernel.json (how Jupyter starts
// `tick kernel {connection_file}`) and the logos, in the Jupyter data
// directory chosen the way jupyter_core chooses it.
package install

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
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
	// Name of the kernelspec directory; DefaultName when empty.
	Name string
	// Prefix installs into Prefix/share/jupyter (like
	// `jupyter kernelspec install --prefix`).
	Prefix string
	// SysPrefix installs into {sys.prefix}/share/jupyter of the Python
	// that runs Jupyter.
	SysPrefix bool
	// Binary is the absolute path of the tick executable; the running
	// executable when empty.
	Binary string
	// Env is the process environment (os.Environ when nil); it decides
	// JUPYTER_DATA_DIR, XDG_DATA_HOME and HOME.
	Env []string
}

func (o Options) name() string {
	if o.Name == "" {
		return DefaultName
	}
	return o.Name
}

func (o Options) getenv(k string) string {
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], k+"="); ok {
			return v
		}
	}
	return ""
}

// DataDir returns the Jupyter data directory the options select:
// Prefix/share/jupyter, {sys.prefix}/share/jupyter, or the user's data dir
// ($JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else
// ~/.local/share/jupyter, as jupyter_core on Linux).
func DataDir(o Options) (string, error) {
	if o.Prefix != "" && o.SysPrefix {
		return "", errors.New("install: --prefix and --sys-prefix exclude each other; pick one")
	}
	if o.Prefix != "" {
		abs, err := filepath.Abs(o.Prefix)
		if err != nil {
			return "", fmt.Errorf("install: prefix %q: %w", o.Prefix, err)
		}
		return filepath.Join(abs, "share", "jupyter"), nil
	}
	if o.SysPrefix {
		prefix, err := pythonSysPrefix(o)
		if err != nil {
			return "", err
		}
		return filepath.Join(prefix, "share", "jupyter"), nil
	}
	if d := o.getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	if x := o.getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	home := o.getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("install: no home directory (%v); set JUPYTER_DATA_DIR or use --prefix", err)
		}
		home = h
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// pythonSysPrefix asks the Python that runs `jupyter` (its shebang; else
// python3 on PATH) for sys.prefix.
func pythonSysPrefix(o Options) (string, error) {
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
	data, err := DataDir(o)
	if err != nil {
		return "", err
	}
	return filepath.Join(data, "kernels", o.name()), nil
}

// Install writes kernel.json and the logos; it returns the directory.
func Install(o Options) (string, error) {
	dir, err := Dir(o)
	if err != nil {
		return "", err
	}
	bin := o.Binary
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return "", fmt.Errorf("install: finding the tick binary: %w; pass its path explicitly", err)
		}
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return "", fmt.Errorf("install: binary path: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("install: creating %s: %w (use --prefix DIR or set JUPYTER_DATA_DIR to install elsewhere)", dir, err)
	}
	spec, err := json.MarshalIndent(Spec(bin), "", "  ")
	if err != nil {
		return "", fmt.Errorf("install: encoding kernel.json: %w", err)
	}
	files := map[string][]byte{"kernel.json": append(spec, '\n')}
	for _, size := range []int{32, 64} {
		var b bytes.Buffer
		if err := WriteLogo(&b, size); err != nil {
			return "", err
		}
		files[fmt.Sprintf("logo-%dx%d.png", size, size)] = b.Bytes()
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return "", fmt.Errorf("install: writing %s: %w", name, err)
		}
	}
	return dir, nil
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
