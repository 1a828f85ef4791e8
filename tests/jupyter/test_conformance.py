"""The Jupyter kernel conformance suite (jupyter_kernel_test) run against
tick with real Go samples for every attribute: nothing may be skipped."""
import unittest

import jupyter_kernel_test as jkt

from tickenv import KERNEL


class TickKernelTests(jkt.KernelTests):
    kernel_name = KERNEL
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'import "fmt"\nfmt.Println("hello, world")'
    code_stderr = 'import (\n\t"fmt"\n\t"os"\n)\nfmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "import \"strings\"\nstrings.ToUpp", "matches": {"strings.ToUpper"}},
        {"text": "importantValue := 1\nimportantV", "matches": {"importantValue"}},
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

    code_page_something = "%help"

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

    code_inspect_sample = 'import "strings"\nstrings.ToUpper'

    code_clear_output = 'import "tick/display"\ndisplay.Clear(false)'


if __name__ == "__main__":
    unittest.main()
