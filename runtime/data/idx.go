package data

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"
)

// The idx format (MNIST's; yann.lecun.com/exdb/mnist): a 4-byte magic
// number — two zero bytes, a type code (0x08: unsigned bytes) and the
// number of dimensions — then each dimension's size as a big-endian
// uint32, then the data in row-major order. Files may be gzipped (the
// usual .gz downloads): LoadMNIST reads either.

// maxIDXBytes bounds what ReadIDX accepts (the MNIST training images are
// 47 MB), so a corrupt header cannot ask for terabytes.
const maxIDXBytes = 1 << 30

// ReadIDX reads an idx file of unsigned bytes (gzipped or not): its
// dimensions and data.
func ReadIDX(path string) (dims []int, values []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: "cannot open the file (MNIST comes as train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz]; give their paths)", Err: err}
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: "starts like gzip but is not readable as gzip", Err: err}
		}
		defer gz.Close()
		r = gz
	}
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: "shorter than an idx header (4 bytes)", Err: err}
	}
	if magic[0] != 0 || magic[1] != 0 || magic[3] == 0 {
		return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: fmt.Sprintf("not an idx file: it starts with % x, an idx file with 00 00 then a type code and a dimension count", magic)}
	}
	if magic[2] != 0x08 {
		return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: fmt.Sprintf("idx type code 0x%02x: only unsigned bytes (0x08, as MNIST) are read", magic[2])}
	}
	dims = make([]int, magic[3])
	n := 1
	for i := range dims {
		var v uint32
		if err := binary.Read(r, binary.BigEndian, &v); err != nil {
			return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: fmt.Sprintf("the header ends before dimension %d of %d", i+1, len(dims)), Err: err}
		}
		dims[i] = int(v)
		n *= max(int(v), 1)
		if n > maxIDXBytes {
			return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: fmt.Sprintf("dimensions %v ask for more than %d bytes: the header is corrupt or the file is not an idx file", dims[:i+1], maxIDXBytes)}
		}
	}
	values = make([]byte, n)
	if got, err := io.ReadFull(r, values); err != nil {
		return nil, nil, &Error{Op: "ReadIDX", Path: path, Msg: fmt.Sprintf("truncated: dimensions %v need %d bytes of data, the file has %d", dims, n, got), Err: err}
	}
	return dims, values, nil
}

// LoadMNIST reads MNIST-format images and labels (idx files, gzipped or
// not) into a Dataset: each image a row of rows·cols features scaled to
// [0, 1], labels the digits (10 classes, or one more than the largest
// label).
func LoadMNIST(images, labels string) (*Dataset, error) {
	idims, pix, err := ReadIDX(images)
	if err != nil {
		return nil, err
	}
	if len(idims) != 3 {
		return nil, &Error{Op: "LoadMNIST", Path: images, Msg: fmt.Sprintf("has dimensions %v: images are [count rows cols] (idx3); did you swap the images and labels files?", idims)}
	}
	ldims, lab, err := ReadIDX(labels)
	if err != nil {
		return nil, err
	}
	if len(ldims) != 1 {
		return nil, &Error{Op: "LoadMNIST", Path: labels, Msg: fmt.Sprintf("has dimensions %v: labels are [count] (idx1); did you swap the images and labels files?", ldims)}
	}
	if ldims[0] != idims[0] {
		return nil, &Error{Op: "LoadMNIST", Path: labels, Msg: fmt.Sprintf("has %d labels for the %d images of %s: use the labels file that goes with the images", ldims[0], idims[0], images)}
	}
	feat := idims[1] * idims[2]
	d := &Dataset{Name: "MNIST " + strings.TrimSuffix(images, ".gz"), Features: feat, Classes: 10, Shape: []int{idims[1], idims[2]},
		X: make([]float32, len(pix)), Y: make([]int32, len(lab))}
	for i, p := range pix {
		d.X[i] = float32(p) / 255
	}
	for i, l := range lab {
		d.Y[i] = int32(l)
		d.Classes = max(d.Classes, int(l)+1)
	}
	return d, nil
}
