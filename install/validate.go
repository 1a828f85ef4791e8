package install

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// kernelName is what jupyter_client accepts as a kernelspec name.
var kernelName = regexp.MustCompile(`^[a-zA-Z0-9._-]+$`)

// NameError is a kernelspec name Jupyter would refuse, or one that would
// leave the kernels directory.
type NameError struct{ Name string }

func (e *NameError) Error() string {
	return fmt.Sprintf("install: %q is not a valid kernelspec name: use letters, digits, '.', '_' and '-' "+
		"(as Jupyter does), not '.' or '..' alone; for the name shown in Jupyter's launcher use --display-name", e.Name)
}

// ValidateName reports whether name is a kernelspec name Jupyter accepts
// that stays inside the kernels directory.
func ValidateName(name string) error {
	if !kernelName.MatchString(name) || name == "." || name == ".." {
		return &NameError{Name: name}
	}
	return nil
}

// EnvError is a --env value that is not KEY=VALUE.
type EnvError struct{ Arg string }

func (e *EnvError) Error() string {
	return fmt.Sprintf("install: --env %q: want KEY=VALUE with a non-empty KEY without spaces (e.g. --env DEVICE=CPU)", e.Arg)
}

// ParseEnv parses KEY=VALUE arguments into a map; a later KEY wins.
func ParseEnv(args []string) (map[string]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	env := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \t\n") {
			return nil, &EnvError{Arg: a}
		}
		env[k] = v
	}
	return env, nil
}

// TemporaryBinaryError is a tick binary that Go deletes or replaces:
// one built by `go run` or `go test`, under the go build cache or a
// go-build work directory. A kernelspec pointing at it breaks soon.
type TemporaryBinaryError struct{ Binary string }

func (e *TemporaryBinaryError) Error() string {
	return fmt.Sprintf("install: %s is a temporary binary (built by `go run` or `go test`; Go deletes it when the command ends), "+
		"so the kernelspec would point at nothing; build tick first, then install with that binary: "+
		"`go install github.com/tick-kernel/tick/cmd/tick@latest && $(go env GOPATH)/bin/tick install` "+
		"(or `go build -o bin/tick ./cmd/tick && bin/tick install`)", e.Binary)
}

// checkBinary refuses a binary in the go build cache or a go-build work
// directory (`go run` builds in $GOTMPDIR or the temp dir, under
// go-buildNNN/).
func checkBinary(o Options, bin string) error {
	dirs := []string{o.getenv("GOCACHE")}
	if c, err := os.UserCacheDir(); err == nil && o.getenv("GOCACHE") == "" {
		dirs = append(dirs, filepath.Join(c, "go-build"))
	}
	for _, d := range dirs {
		if d != "" && within(bin, d) {
			return &TemporaryBinaryError{Binary: bin}
		}
	}
	for _, part := range strings.Split(filepath.ToSlash(bin), "/") {
		if rest, ok := strings.CutPrefix(part, "go-build"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return &TemporaryBinaryError{Binary: bin}
		}
	}
	return nil
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
