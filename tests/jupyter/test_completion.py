"""Completion and inspection through jupyter_client, as a front end asks
for them: each case of the assistant (kernel/assist) on a real kernel
whose earlier cells ran, with the metadata front ends show
(_jupyter_types_experimental) and the text/markdown bundle; `x?` and
`x??` page the same text as inspect."""
import unittest

from tickenv import KernelTestCase, run, shell_reply

SETUP = '''import "tick/runtime/tensor"
// Point is a point on the plane.
type Point struct{ X, Y int }
// Norm is the squared length.
func (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }
type Labeled struct {
	Point
	Title string
	label string
}
// hello greets.
func hello(name string) string { return "hi " + name }
count := 42
lab := &Labeled{Title: "t"}
x := tensor.Ones(3)'''

# (name, code, matches that must be there, matches that must not, kind and signature of the first)
COMPLETIONS = [
    ("same cell", "zzqLongName := 3\nzzqLong", ["zzqLongName"], [], "variable", "int"),
    ("locals and parameters", "func f(param int) {\n\tlocalVar := param\n\tl", ["localVar"], ["param"], "variable", "int"),
    ("call chain", "tensor.Ones(3).Res", ["Reshape"], [], "method", None),
    ("call chain of an unimported package", "time.Now().Uni", ["Unix", "UnixMilli"], [], "method", "func() int64"),
    ("promoted fields, no renamed names", "lab.", ["Title", "X", "Norm", "label"], ["Xlabel"], "field", "string"),
    ("session variable", "x.Res", ["Reshape"], [], "method", None),
    ("unimported strconv", "strconv.Ato", ["Atoi"], [], "function", "func(s string) (int, error)"),
    ("unimported filepath", "filepath.Ba", ["Base"], [], "function", "func(path string) string"),
    ("unimported display", "display.HT", ["HTML"], [], "function", "func(html string) *display.Handle"),
    ("import path", 'import "encoding/js', ["encoding/json"], ["encoding/xml"], "path", "package json"),
    ("keyword", "fo", ["for"], [], "keyword", ""),
    ("no statement keyword in an expression", "y := fo", [], ["for"], None, None),
    ("magic", "%tim", ["%timeit", "%time"], [], "magic", None),
    ("magic option", "%timeit --ch", ["--check"], [], "magic", None),
]

# (name, code, cursor or None for the end, detail, texts that must be in text/plain, text that must not)
INSPECTS = [
    ("std function before its import", "strings.ToUpper", None, 0,
     ["func strings.ToUpper(s string) string", "ToUpper returns s with all Unicode letters mapped to their upper case"], None),
    ("inside a call", "strconv.Itoa(", None, 0, ["func strconv.Itoa(i int) string"], None),
    ("user function with its comment", "hello", None, 0, ["func hello(name string) string", "hello greets."], "return"),
    ("its source at detail 1", "hello", None, 1, ['return "hi " + name'], None),
    ("variable: type and value", "count", None, 0, ["var count int = 42"], None),
    ("type, comment, method set", "Point", None, 0, ["type Point struct{ X, Y int }", "Point is a point on the plane.", "func (Point).Norm() int"], None),
    ("tick's package", "tensor.Ones", None, 0, ["func tensor.Ones("], None),
]


class Completion(KernelTestCase):
    SETUP = SETUP
    SHUTDOWN_NOW = False

    def complete(self, code):
        msg_id = self.kc.complete(code, len(code))
        return shell_reply(self.kc, msg_id)["content"]

    def inspect(self, code, cursor=None, detail=0):
        msg_id = self.kc.inspect(code, len(code) if cursor is None else cursor, detail)
        return shell_reply(self.kc, msg_id)["content"]

    def test_completions(self):
        for name, code, want, not_want, kind, sig in COMPLETIONS:
            with self.subTest(name, code=code):
                c = self.complete(code)
                self.assertEqual(c["status"], "ok")
                for w in want:
                    self.assertIn(w, c["matches"])
                for w in not_want:
                    self.assertNotIn(w, c["matches"])
                self.assertEqual(c["cursor_end"], len(code))
                if not want:
                    continue
                types = c["metadata"]["_jupyter_types_experimental"]
                self.assertEqual([t["text"] for t in types], c["matches"])
                first = types[c["matches"].index(want[0])]
                self.assertEqual((first["start"], first["end"]), (c["cursor_start"], c["cursor_end"]))
                self.assertEqual(first["type"], kind)
                if sig is not None:
                    self.assertEqual(first["signature"], sig)

    def test_inspections(self):
        for name, code, cursor, detail, want, not_want in INSPECTS:
            with self.subTest(name, code=code):
                r = self.inspect(code, cursor, detail)
                self.assertEqual(r["status"], "ok")
                self.assertTrue(r["found"], r)
                text = r["data"]["text/plain"]
                for w in want:
                    self.assertIn(w, text)
                if not_want:
                    self.assertNotIn(not_want, text)
                self.assertTrue(r["data"]["text/markdown"].startswith("```go\n"), r["data"])

    def test_not_found(self):
        r = self.inspect("nosuchname")
        self.assertEqual((r["status"], r["found"], r["data"]), ("ok", False, {}))

    def test_question_mark_pages_inspect_text(self):
        for code, detail in (("strconv.Atoi", 0), ("hello", 0), ("hello", 1)):
            with self.subTest(code=code, detail=detail):
                reply, _ = run(self.kc, code + "?" * (detail + 1))
                self.assertEqual(reply["content"]["status"], "ok")
                pages = reply["content"]["payload"]
                self.assertEqual(len(pages), 1)
                self.assertEqual(pages[0]["source"], "page")
                want = self.inspect(code, None, detail)["data"]["text/plain"]
                self.assertEqual(pages[0]["data"]["text/plain"], want)

    def test_missing_import_added(self):
        reply, outs = run(self.kc, 'strconv.Quote("go")')
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        notes = [m["content"]["text"] for m in outs if m["msg_type"] == "stream"]
        self.assertTrue(any('tick: added import "strconv"' in n for n in notes), outs)
        values = [m["content"]["data"]["text/plain"] for m in outs if m["msg_type"] == "execute_result"]
        self.assertEqual(values, ['"\\"go\\""'])


if __name__ == "__main__":
    unittest.main()
