package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSpiralsAndBlobsAreSeeded(t *testing.T) {
	a, b := Spirals(50, 3, 0.2, 7), Spirals(50, 3, 0.2, 7)
	c := Spirals(50, 3, 0.2, 8)
	if a.Len() != 150 || a.Features != 2 || a.Classes != 3 || !slices.Equal(a.X, b.X) || slices.Equal(a.X, c.X) {
		t.Fatalf("spirals: %v; same seed equal: %v, other seed equal: %v", a, slices.Equal(a.X, b.X), slices.Equal(a.X, c.X))
	}
	for _, v := range a.X {
		if v < -1 || v > 1 {
			t.Fatalf("spiral point %v outside [-1, 1]", v)
		}
	}
	bl := Blobs(20, 4, 5, 0.5, 1)
	if bl.Len() != 80 || bl.Features != 5 || len(bl.X) != 400 || bl.Y[79] != 3 {
		t.Fatalf("blobs: %v", bl)
	}
}

func TestBatchesAndSplit(t *testing.T) {
	d := Blobs(10, 3, 2, 0.1, 1) // 30 examples
	bs := d.Batches(8, 5)
	if len(bs) != 3 {
		t.Fatalf("%d batches of 8 from 30 examples, want 3 (the partial one dropped)", len(bs))
	}
	if sh := bs[0].X.Shape(); !slices.Equal(sh, []int{8, 2}) || !slices.Equal(bs[2].Y.Shape(), []int{8}) {
		t.Fatalf("batch shapes %v %v", sh, bs[2].Y.Shape())
	}
	again := d.Batches(8, 5)
	if !slices.Equal(bs[1].X.Float32s(), again[1].X.Float32s()) || !slices.Equal(bs[1].Y.Int32s(), again[1].Y.Int32s()) {
		t.Fatal("the same seed gave other batches")
	}
	ordered := d.Batches(10, -1)
	if !slices.Equal(ordered[0].Y.Int32s(), d.Y[:10]) {
		t.Fatalf("seed -1 must keep the order: %v", ordered[0].Y.Int32s())
	}
	// Each example's label travels with its features.
	x, y := bs[0].X.Float32s(), bs[0].Y.Int32s()
	for i := range 8 {
		found := false
		for e := range d.Len() {
			if d.X[e*2] == x[i*2] && d.X[e*2+1] == x[i*2+1] {
				found = d.Y[e] == y[i]
			}
		}
		if !found {
			t.Fatalf("batch row %d lost its label", i)
		}
	}
	tr, te := d.Split(0.8, 3)
	if tr.Len() != 24 || te.Len() != 6 || tr.Features != 2 {
		t.Fatalf("split %d/%d", tr.Len(), te.Len())
	}
	xt, yt := te.Tensors()
	if !slices.Equal(xt.Shape(), []int{6, 2}) || !slices.Equal(yt.Int32s(), te.Y) {
		t.Fatal("Tensors")
	}
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadCSV(t *testing.T) {
	p := write(t, "iris.csv", []byte("sepal,petal,class\n1.5, 2,0\n3,-4.25,2\n0,1e-3,1\n"))
	d, err := LoadCSV(p, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 3 || d.Features != 2 || d.Classes != 3 || !slices.Equal(d.X, []float32{1.5, 2, 3, -4.25, 0, 0.001}) || !slices.Equal(d.Y, []int32{0, 2, 1}) {
		t.Fatalf("%v: X %v Y %v", d, d.X, d.Y)
	}
	first, err := LoadCSV(write(t, "f.csv", []byte("1,5,6\n0,7,8\n")), CSVOptions{Label: 0, LabelFromStart: true})
	if err != nil || !slices.Equal(first.Y, []int32{1, 0}) || !slices.Equal(first.X, []float32{5, 6, 7, 8}) {
		t.Fatalf("label first: %v %v %v", first, err, first.X)
	}
	semi, err := LoadCSV(write(t, "s.csv", []byte("1;2\n3;1\n")), CSVOptions{Comma: ';'})
	if err != nil || semi.Len() != 2 {
		t.Fatalf("semicolons: %v", err)
	}
	cases := []struct{ name, body, want string }{
		{"text", "1,2,0\n3,abc,1\n", `f.csv:2: column 2 is "abc", not a number`},
		{"ragged", "1,2,0\n3,1\n", "f.csv:2: 2 fields, the first row has 3"},
		{"label", "1,2,0\n3,4,1.5\n", `f.csv:2: label (column 3) is "1.5": want a class index`},
		{"negative label", "1,2,-1\n", `label (column 3) is "-1"`},
		{"empty", "a,b\n", "no data rows"},
		{"one column", "1\n2\n", "want at least one feature column"},
		{"quote", "1,\"2,0\n", "not valid CSV"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadCSV(write(t, "f.csv", []byte(c.body)), CSVOptions{})
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
	_, err = LoadCSV(filepath.Join(t.TempDir(), "missing.csv"), CSVOptions{})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.csv: cannot open the file") {
		t.Fatalf("missing file: %v", err)
	}
}

// idxFile is an idx file of unsigned bytes with the given dimensions.
func idxFile(dims []int, data []byte) []byte {
	var b bytes.Buffer
	b.Write([]byte{0, 0, 8, byte(len(dims))})
	for _, d := range dims {
		_ = binary.Write(&b, binary.BigEndian, uint32(d))
	}
	b.Write(data)
	return b.Bytes()
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	_, _ = w.Write(b)
	_ = w.Close()
	return out.Bytes()
}

func TestLoadMNIST(t *testing.T) {
	pix := []byte{0, 255, 51, 102, 0, 0, 255, 255, 1, 2, 3, 4} // 3 images of 2×2
	images := write(t, "images-idx3-ubyte", idxFile([]int{3, 2, 2}, pix))
	labels := write(t, "labels-idx1-ubyte.gz", gzipped(idxFile([]int{3}, []byte{7, 0, 3})))
	d, err := LoadMNIST(images, labels)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 3 || d.Features != 4 || d.Classes != 10 || !slices.Equal(d.Shape, []int{2, 2}) || !slices.Equal(d.Y, []int32{7, 0, 3}) {
		t.Fatalf("%v %v %v", d, d.Shape, d.Y)
	}
	if d.X[1] != 1 || d.X[2] != 0.2 || d.X[0] != 0 {
		t.Fatalf("pixels not scaled to [0, 1]: %v", d.X[:4])
	}
	cases := []struct {
		name          string
		images, label string
		want          string
	}{
		{"swapped", labels, images, "did you swap"},
		{"counts", images, write(t, "l2", idxFile([]int{2}, []byte{1, 2})), "has 2 labels for the 3 images"},
		{"truncated", write(t, "t", idxFile([]int{3, 2, 2}, pix[:7])), labels, "truncated: dimensions [3 2 2] need 12 bytes of data, the file has 7"},
		{"not idx", write(t, "x.png", []byte("\x89PNG\r\n\x1a\n....")), labels, "not an idx file"},
		{"float idx", write(t, "f", []byte{0, 0, 0x0d, 1, 0, 0, 0, 1, 0, 0, 0, 0}), labels, "type code 0x0d"},
		{"huge header", write(t, "h", []byte{0, 0, 8, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}), labels, "ask for more than"},
		{"missing", filepath.Join(t.TempDir(), "nope"), labels, "cannot open the file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadMNIST(c.images, c.label)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}
