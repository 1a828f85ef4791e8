package kernel

import (
	"path"
	"sync"
)

// currentSession is the session number history reports for this process
// (history_request uses 0 for "the current session").
const currentSession = 1

// HistoryEntry is one executed cell.
type HistoryEntry struct {
	Session int
	Line    int
	Input   string
	// Output is the text/plain of the cell's value, "" when it had none.
	Output string
}

// HistoryQuery is the content of a history_request.
type HistoryQuery struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// History keeps the cells of this kernel process in memory.
type History struct {
	mu      sync.Mutex
	entries []HistoryEntry
}

// Add records the cell executed as line.
func (h *History) Add(line int, input, output string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, HistoryEntry{Session: currentSession, Line: line, Input: input, Output: output})
}

// Query answers a history request: "tail" (last N), "range" (lines
// [Start, Stop) of a session; Stop 0 means to the end), "search" (inputs
// matching the glob Pattern, the last N when N > 0, each input once when
// Unique).
func (h *History) Query(q HistoryQuery) []HistoryEntry {
	h.mu.Lock()
	all := append([]HistoryEntry(nil), h.entries...)
	h.mu.Unlock()
	switch q.HistAccessType {
	case "tail":
		return last(all, q.N)
	case "range":
		if q.Session != 0 && q.Session != currentSession {
			return nil
		}
		var out []HistoryEntry
		for _, e := range all {
			if e.Line >= q.Start && (q.Stop <= 0 || e.Line < q.Stop) {
				out = append(out, e)
			}
		}
		return out
	case "search":
		return search(all, q)
	}
	return nil
}

func search(all []HistoryEntry, q HistoryQuery) []HistoryEntry {
	pattern := q.Pattern
	if pattern == "" {
		pattern = "*"
	}
	var out []HistoryEntry
	seen := map[string]bool{}
	// Walk newest first so Unique keeps the latest occurrence.
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		if !globMatch(pattern, e.Input) {
			continue
		}
		if q.Unique {
			if seen[e.Input] {
				continue
			}
			seen[e.Input] = true
		}
		out = append(out, e)
		if q.N > 0 && len(out) == q.N {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// globMatch matches s against a shell glob with fnmatch semantics (as
// IPython's history search): '*' and '?' also match '/' and newlines.
func globMatch(pattern, s string) bool {
	// path.Match treats '/' specially; map it away in both strings.
	const sep = "\x00"
	p := replaceSlash(pattern, sep)
	ok, err := path.Match(p, replaceSlash(s, sep))
	return err == nil && ok
}

func replaceSlash(s, with string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			out = append(out, with...)
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}

func last(es []HistoryEntry, n int) []HistoryEntry {
	if n <= 0 || n >= len(es) {
		return es
	}
	return es[len(es)-n:]
}
