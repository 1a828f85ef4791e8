package notebook

import (
	"bytes"
	"testing"
)

// fuzzSeeds is the seed corpus of FuzzRead: small notebooks (most under
// 200 bytes), each reaching another part of the reader: every cell type,
// every output type, sources as strings and as lists, attachments,
// unknown fields, execution counts, minor versions, and the errors (not
// JSON, not an object, another nbformat, each field of the wrong type).
// Small seeds keep each execution cheap (the reader, the writer and the
// HTML page per input), so the fuzzer tries many more inputs in its 10 s
// in test.sh than with whole notebooks as seeds (docs/benchmarks.md).
var fuzzSeeds = []string{
	`{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"x := 1","outputs":[],"execution_count":null}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","id":"a","source":["a\n","b"],"metadata":{"tags":["t"]},"execution_count":3,"outputs":[]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"markdown","source":"# T\n![](attachment:a.png)","attachments":{"a.png":{"image/png":"iVBORw0KGgo="}}}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"raw","source":["*r*"],"metadata":{"format":"text/x-rst"}}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"stream","name":"stdout","text":["a\n","b"]}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"stream","name":"stderr","text":"e"}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"display_data","data":{"text/plain":"x","text/html":["<b>x</b>"]},"metadata":{}}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"display_data","data":{"image/png":"iVBORw0KGgo=","application/json":{"a":[1]}},"metadata":{"image/png":{"width":2}}}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"execute_result","execution_count":1,"data":{"text/plain":["42"]},"metadata":{}}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"error","ename":"Panic","evalue":"boom","traceback":["Panic: boom","cell[1]:2"]}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"error"}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"clear"}]}]}`,
	`{"nbformat":4,"nbformat_minor":2,"metadata":{"kernelspec":{"name":"tick","display_name":"Go"},"language_info":{"name":"go"},"x":{"y":[null,true]}},"cells":[],"extra":1}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"\u00e9\r\n\t<script>","outputs":[],"x-cell":{"k":"v"}}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","execution_count":-1}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","execution_count":1.5}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"heading","source":""}]}`,
	`{"nbformat":4,"cells":[{"source":""}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":1}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":{}}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"stream","text":1}]}]}`,
	`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"display_data","data":[]}]}]}`,
	`{"nbformat":4,"cells":[1]}`,
	`{"nbformat":4,"cells":{}}`,
	`{"nbformat":4,"metadata":[],"cells":[]}`,
	`{"nbformat":4,"nbformat_minor":"5","cells":[]}`,
	`{"nbformat":4}`,
	`{"nbformat":3,"worksheets":[]}`,
	`{"nbformat":"4"}`,
	`{}`,
	`[]`,
	`null`,
	`{"nbformat":4,"cells":[`,
	``,
}

// FuzzRead: whatever Read accepts, Write writes and Read reads back the
// same (cells, sources, outputs), and WriteHTML renders; Read never
// panics.
func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What reads must write, and read back the same.
		var out bytes.Buffer
		if err := Write(&out, nb); err != nil {
			t.Fatalf("Write of a read notebook: %v", err)
		}
		nb2, err := Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("re-reading written notebook: %v\n%s", err, out.Bytes())
		}
		if len(nb2.Cells) != len(nb.Cells) {
			t.Fatalf("cells %d → %d", len(nb.Cells), len(nb2.Cells))
		}
		for i := range nb.Cells {
			if nb.Cells[i].Source != nb2.Cells[i].Source || len(nb.Cells[i].Outputs) != len(nb2.Cells[i].Outputs) {
				t.Fatalf("cell %d changed in round trip", i)
			}
		}
		var html bytes.Buffer
		if err := WriteHTML(&html, nb, HTMLOptions{}); err != nil {
			t.Fatalf("WriteHTML: %v", err)
		}
	})
}

// TestFuzzSeedsAreDiverse keeps the seed corpus what FuzzRead's comment
// says: small, with notebooks Read accepts and inputs it rejects, and
// every cell and output type among the accepted.
func TestFuzzSeedsAreDiverse(t *testing.T) {
	accepted, rejected := 0, 0
	seen := map[string]bool{}
	for _, s := range fuzzSeeds {
		if len(s) > 300 {
			t.Errorf("seed of %d bytes (keep seeds under 300): %.60s…", len(s), s)
		}
		nb, err := Read(bytes.NewReader([]byte(s)))
		if err != nil {
			rejected++
			continue
		}
		accepted++
		for _, c := range nb.Cells {
			seen[c.Type] = true
			for _, o := range c.Outputs {
				seen[o.Type] = true
			}
		}
	}
	if accepted < 10 || rejected < 10 {
		t.Errorf("%d seeds accepted, %d rejected: want at least 10 of each", accepted, rejected)
	}
	for _, want := range []string{Code, Markdown, Raw, Stream, DisplayData, ExecuteResult, ErrorOutput} {
		if !seen[want] {
			t.Errorf("no accepted seed has a %q cell or output", want)
		}
	}
}
