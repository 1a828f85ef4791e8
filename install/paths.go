package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Where says which Jupyter data directory a kernelspec goes to, as the
// options of `jupyter kernelspec install` do.
type Where int

// The places a kernelspec can be installed.
const (
	User      Where = iota // the user's data directory (the default)
	System                 // the first system-wide directory Jupyter searches
	SysPrefix              // {sys.prefix}/share/jupyter of the Python that runs Jupyter
	Prefix                 // Options.Prefix/share/jupyter
)

func (w Where) String() string {
	switch w {
	case System:
		return "--system"
	case SysPrefix:
		return "--sys-prefix"
	case Prefix:
		return "--prefix"
	}
	return "--user"
}

func (o Options) goos() string {
	if o.GOOS == "" {
		return runtime.GOOS
	}
	return o.GOOS
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

// join joins path elements with the separator of the options' GOOS, so
// that Windows paths can be computed (and tested) anywhere.
func (o Options) join(elem ...string) string {
	if o.goos() != "windows" || runtime.GOOS == "windows" {
		return filepath.Join(elem...)
	}
	return strings.Join(elem, `\`)
}

// listSep is the separator of JUPYTER_PATH on the options' GOOS.
func (o Options) listSep() string {
	if o.goos() == "windows" {
		return ";"
	}
	return ":"
}

// UserDataDir returns the user's Jupyter data directory as jupyter_core
// computes it: $JUPYTER_DATA_DIR; else ~/Library/Jupyter on macOS,
// %APPDATA%\jupyter on Windows, $XDG_DATA_HOME/jupyter or
// ~/.local/share/jupyter elsewhere.
func UserDataDir(o Options) (string, error) {
	if d := o.getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	home := func() (string, error) {
		if h := o.getenv("HOME"); h != "" {
			return h, nil
		}
		if h := o.getenv("USERPROFILE"); h != "" && o.goos() == "windows" {
			return h, nil
		}
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("install: no home directory (%v); set JUPYTER_DATA_DIR or use --prefix DIR", err)
		}
		return h, nil
	}
	switch o.goos() {
	case "darwin":
		h, err := home()
		if err != nil {
			return "", err
		}
		return o.join(h, "Library", "Jupyter"), nil
	case "windows":
		if a := o.getenv("APPDATA"); a != "" {
			return o.join(a, "jupyter"), nil
		}
		h, err := home()
		if err != nil {
			return "", err
		}
		return o.join(h, ".jupyter", "data"), nil
	}
	if x := o.getenv("XDG_DATA_HOME"); x != "" {
		return o.join(x, "jupyter"), nil
	}
	h, err := home()
	if err != nil {
		return "", err
	}
	return o.join(h, ".local", "share", "jupyter"), nil
}

// SystemDataDirs returns the system-wide Jupyter data directories in the
// order jupyter_core searches them (%PROGRAMDATA%\jupyter on Windows;
// /usr/local/share/jupyter and /usr/share/jupyter elsewhere). --system
// installs into the first, as `jupyter kernelspec install` does.
func SystemDataDirs(o Options) []string {
	if o.goos() == "windows" {
		p := o.getenv("PROGRAMDATA")
		if p == "" {
			p = `C:\ProgramData`
		}
		return []string{o.join(p, "jupyter")}
	}
	return []string{"/usr/local/share/jupyter", "/usr/share/jupyter"}
}

// SearchPath returns the data directories Jupyter searches for kernels
// that tick can know without asking Python: the user's directory, the
// entries of $JUPYTER_PATH, and the system directories. (Jupyter also
// searches {sys.prefix}/share/jupyter of its own Python.)
func SearchPath(o Options) []string {
	var dirs []string
	if d, err := UserDataDir(o); err == nil {
		dirs = append(dirs, d)
	}
	for _, d := range strings.Split(o.getenv("JUPYTER_PATH"), o.listSep()) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return append(dirs, SystemDataDirs(o)...)
}

// DataDir returns the Jupyter data directory the options select.
func DataDir(o Options) (string, error) {
	where, err := o.where()
	if err != nil {
		return "", err
	}
	switch where {
	case Prefix:
		abs := o.Prefix
		if o.goos() == runtime.GOOS {
			if abs, err = filepath.Abs(o.Prefix); err != nil {
				return "", fmt.Errorf("install: prefix %q: %w", o.Prefix, err)
			}
		}
		return o.join(abs, "share", "jupyter"), nil
	case SysPrefix:
		prefix, err := pythonSysPrefix()
		if err != nil {
			return "", err
		}
		return o.join(prefix, "share", "jupyter"), nil
	case System:
		return SystemDataDirs(o)[0], nil
	}
	return UserDataDir(o)
}

// where resolves the location options, refusing contradictory ones.
func (o Options) where() (Where, error) {
	var set []Where
	if o.User {
		set = append(set, User)
	}
	if o.System {
		set = append(set, System)
	}
	if o.SysPrefix {
		set = append(set, SysPrefix)
	}
	if o.Prefix != "" {
		set = append(set, Prefix)
	}
	switch len(set) {
	case 0:
		return User, nil
	case 1:
		return set[0], nil
	}
	return User, &OptionError{Reason: fmt.Sprintf("%s and %s exclude each other; pick one place", set[0], set[1])}
}

// OptionError is a contradictory or invalid install option.
type OptionError struct{ Reason string }

func (e *OptionError) Error() string { return "install: " + e.Reason }
