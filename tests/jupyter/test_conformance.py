"""The Jupyter kernel conformance suite (jupyter_kernel_test) run against
tick with real Go samples for every attribute: nothing may be skipped."""
import unittest

import jupyter_kernel_test as jkt

from tickenv import KERNEL


class TickKernelTests(jkt.KernelTests):
    kernel_name = KERNEL
    language_name = "go"
    file_extension = ".go"

    # Completion and inspection answer from the session's state, as in a
    # notebook where earlier cells ran: this cell runs once, before the tests.
    setup_cell = 'import "strings"\nimportantValue := 1'

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        reply = cls.kc.execute_interactive(cls.setup_cell, timeout=30, output_hook=lambda m: None)
        assert reply["content"]["status"] == "ok", reply["content"]

    code_hello_world = 'import "fmt"\nfmt.Println("hello, world")'
    code_stderr = 'import (\n\t"fmt"\n\t"os"\n)\nfmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "strings.ToUpp", "matches": {"ToUpper", "ToUpperSpecial"}},
        {"text": "importantV", "matches": {"importantValue"}},
        {"text": "n := appen", "matches": {"append"}},
        # a name declared earlier in the same cell, which has not run
        {"text": "zzqLongName := 3\nzzqLong", "matches": {"zzqLongName"}},
        # a local of the function being typed
        {"text": "func f(count int) {\n\tcou", "matches": {"count"}},
        # members of a call chain's type, and of a package not imported
        {"text": "time.Now().UnixM", "matches": {"UnixMicro", "UnixMilli"}},
        {"text": "strconv.Ato", "matches": {"Atoi"}},
        {"text": 'import "encoding/js', "matches": {"encoding/json"}},
    ]

    complete_code_samples = [
        "x := 1",
        'import "fmt"\nfmt.Println("done")',
        "func add(a, b int) int {\n\treturn a + b\n}",
    ]
    incomplete_code_samples = [
        "func add(a, b int) int {",
        "for i := 0; i < 3; i++ {\n\tx := i",
        "s := `raw string",
    ]
    invalid_code_samples = [
        "x := )",
        "}",
    ]

    # a standard function the session has not imported
    code_page_something = "strconv.Itoa?"

    code_generate_error = 'panic("boom")'

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": 'greeting := "hello"\ngreeting + ", world"', "result": '"hello, world"'},
        {"code": "[]int{1, 2, 3}", "result": "[1 2 3]"},
    ]

    code_display_data = [
        {"code": 'import "tick/display"\ndisplay.HTML("<b>bold</b>")', "mime": "text/html"},
        {"code": 'import "tick/display"\ndisplay.Markdown("*it*")', "mime": "text/markdown"},
    ]

    supported_history_operations = ("tail", "range", "search")
    code_history_pattern = "6 * ?"

    # a standard function the session has not imported
    code_inspect_sample = "filepath.Join"

    code_clear_output = 'import "tick/display"\ndisplay.Clear(false)'


if __name__ == "__main__":
    unittest.main()
