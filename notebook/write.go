package notebook

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// KernelName is the kernelspec name Write puts into notebooks that have no
// kernelspec, and SetTickKernel puts into executed ones.
const KernelName = "tick"

// validID is the nbformat 4.5 cell id pattern.
var validID = regexp.MustCompile(`^[a-zA-Z0-9-_]{1,64}$`)

// Write writes nb as an nbformat 4.5 notebook in Jupyter's layout (sorted
// keys, one-space indent, multiline strings as lists of lines). Cells without
// a valid unique id get a new one in the output (nb is not changed); a
// notebook without kernelspec or language_info metadata gets tick's.
func Write(w io.Writer, nb *Notebook) error {
	top := map[string]any{}
	for k, v := range nb.Extra {
		top[k] = v
	}
	minor := nb.FormatMinor
	if minor < 5 {
		minor = 5
	}
	top["nbformat"] = 4
	top["nbformat_minor"] = minor
	meta := map[string]any{}
	for k, v := range nb.Metadata {
		meta[k] = v
	}
	if _, ok := meta["kernelspec"]; !ok {
		meta["kernelspec"] = tickKernelspec()
	}
	if _, ok := meta["language_info"]; !ok {
		meta["language_info"] = tickLanguageInfo()
	}
	top["metadata"] = meta
	seen := map[string]bool{}
	cells := make([]any, 0, len(nb.Cells))
	for i, c := range nb.Cells {
		if c == nil {
			return fmt.Errorf("notebook: writing: cell %d is nil", i+1)
		}
		id := c.ID
		if !validID.MatchString(id) || seen[id] {
			id = newID(seen)
		}
		seen[id] = true
		cells = append(cells, cellJSON(c, id))
	}
	top["cells"] = cells
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(top); err != nil {
		return fmt.Errorf("notebook: writing: %w", err)
	}
	return nil
}

// SetTickKernel sets the kernelspec and language_info metadata of nb to
// tick's, as a notebook executed by tick should say.
func (nb *Notebook) SetTickKernel() {
	if nb.Metadata == nil {
		nb.Metadata = map[string]json.RawMessage{}
	}
	ks, _ := json.Marshal(tickKernelspec())
	li, _ := json.Marshal(tickLanguageInfo())
	nb.Metadata["kernelspec"] = ks
	nb.Metadata["language_info"] = li
}

func tickKernelspec() map[string]any {
	return map[string]any{"name": KernelName, "display_name": "Go (tick)", "language": "go"}
}

func tickLanguageInfo() map[string]any {
	return map[string]any{
		"name":            "go",
		"version":         strings.TrimPrefix(runtime.Version(), "go"),
		"file_extension":  ".go",
		"mimetype":        "text/x-go",
		"codemirror_mode": "go",
		"pygments_lexer":  "go",
	}
}

// newID returns a random 8-hex-digit cell id not in seen.
func newID(seen map[string]bool) string {
	for {
		var b [4]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+).
		id := hex.EncodeToString(b[:])
		if !seen[id] {
			return id
		}
	}
}

func cellJSON(c *Cell, id string) map[string]any {
	m := map[string]any{}
	for k, v := range c.Extra {
		m[k] = v
	}
	m["id"] = id
	m["cell_type"] = c.Type
	m["source"] = splitLines(c.Source)
	m["metadata"] = rawObject(c.Metadata)
	if c.Attachments != nil && c.Type != Code {
		m["attachments"] = c.Attachments
	}
	if c.Type == Code {
		m["execution_count"] = c.ExecutionCount
		outs := make([]any, 0, len(c.Outputs))
		for _, o := range c.Outputs {
			outs = append(outs, outputJSON(o))
		}
		m["outputs"] = outs
	}
	return m
}

func outputJSON(o *Output) map[string]any {
	m := map[string]any{}
	for k, v := range o.Extra {
		m[k] = v
	}
	m["output_type"] = o.Type
	switch o.Type {
	case Stream:
		m["name"] = o.Name
		m["text"] = splitLines(o.Text)
	case DisplayData, ExecuteResult:
		m["data"] = bundleJSON(o.Data)
		m["metadata"] = rawObject(o.Metadata)
		if o.Type == ExecuteResult {
			m["execution_count"] = o.ExecutionCount
		}
	case ErrorOutput:
		m["ename"] = o.EName
		m["evalue"] = o.EValue
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["traceback"] = tb
	}
	return m
}

func bundleJSON(b MIMEBundle) map[string]any {
	m := map[string]any{}
	for mime, v := range b {
		switch v := v.(type) {
		case string:
			if isTextMIME(mime) {
				m[mime] = splitLines(v)
			} else {
				m[mime] = v
			}
		default:
			m[mime] = v
		}
	}
	return m
}

// rawObject returns m, or an empty object when m is nil.
func rawObject(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}

// WriteFile writes a file through a temporary file in the same directory
// renamed into place, so a failed write never leaves a truncated file (nor
// damages an input the output replaces). Its mode: an existing file keeps
// its own; a new one gets perm (the input notebook's mode, say) filtered
// by the process's umask, as any file the user's programs create.
func WriteFile(path string, perm os.FileMode, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			// /dev/null, a FIFO, a terminal: write into it. A rename
			// would replace it (as root, /dev/null became a regular file).
			return writeInto(path, write)
		}
		perm = fi.Mode().Perm()
	} else {
		perm = perm.Perm() &^ umask()
	}
	dir, base := filepath.Split(path)
	var tmp *os.File
	for range 100 {
		f, err := os.OpenFile(filepath.Join(dir, "."+base+".tmp"+rand.Text()[:8]), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("notebook: cannot write %s: %w", path, err)
		}
		tmp = f
		break
	}
	if tmp == nil {
		return fmt.Errorf("notebook: cannot write %s: no free temporary name", path)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	err := write(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("notebook: writing %s: %w", path, err)
	}
	return nil
}

// writeInto writes to an existing file that is not a regular file (a
// device or a pipe), in place.
func writeInto(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("notebook: cannot write %s: %w", path, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("notebook: writing %s: %w", path, err)
	}
	return nil
}
