package kernel_test

import (
	"testing"

	"github.com/tick-kernel/tick/kernel/session"
)

// The kind and signature of each completion travel in the reply's
// metadata as _jupyter_types_experimental (positions in code points, as
// the cursors), and an inspection's Markdown as text/markdown.
func TestCompletionTypesAndMarkdown(t *testing.T) {
	f := newFixture(t)
	f.runner.CompleteFunc = func(code string, cursor int) session.Completion {
		return session.Completion{Matches: []string{"ToUpper", "ToUpperSpecial"}, Start: cursor - len("ToU"), End: cursor,
			Details: []session.Detail{{Kind: "function", Signature: "func(s string) string"}, {Kind: "function", Signature: "func(c unicode.SpecialCase, s string) string"}}}
	}
	f.runner.InspectFunc = func(code string, cursor, detail int) session.Inspection {
		return session.Inspection{Found: true, Text: "func strings.ToUpper(s string) string", Markdown: "```go\nfunc strings.ToUpper(s string) string\n```\n"}
	}
	code := "é := strings.ToU"
	runes := len([]rune(code))
	r := f.serve(f.shell, "complete_request", map[string]any{"code": code, "cursor_pos": runes}).Reply1(t.Fatalf).Content
	types, _ := r["metadata"].(map[string]any)["_jupyter_types_experimental"].([]any)
	if len(types) != 2 {
		t.Fatalf("metadata = %v, want two _jupyter_types_experimental entries", r["metadata"])
	}
	first := types[0].(map[string]any)
	if first["text"] != "ToUpper" || first["type"] != "function" || first["signature"] != "func(s string) string" ||
		first["start"] != float64(runes-3) || first["end"] != float64(runes) {
		t.Errorf("first entry = %v", first)
	}
	r = f.serve(f.shell, "inspect_request", map[string]any{"code": code, "cursor_pos": runes}).Reply1(t.Fatalf).Content
	data := r["data"].(map[string]any)
	if data["text/plain"] != "func strings.ToUpper(s string) string" || data["text/markdown"] != "```go\nfunc strings.ToUpper(s string) string\n```\n" {
		t.Errorf("inspect data = %v", data)
	}
	// Matches without details (a runner that has none) send no types.
	f.runner.CompleteFunc = func(code string, cursor int) session.Completion {
		return session.Completion{Matches: []string{"x"}, Start: cursor, End: cursor}
	}
	r = f.serve(f.shell, "complete_request", map[string]any{"code": "x", "cursor_pos": 1}).Reply1(t.Fatalf).Content
	if len(r["metadata"].(map[string]any)) != 0 {
		t.Errorf("metadata without details = %v", r["metadata"])
	}
}
