package std

import (
	"io"
	"reflect"
)

// The interpreter wraps a cell's value passed as an interface in the
// table's wrapper for that interface (_io_Reader for an io.Reader), which
// has that interface's methods only. Where the standard library looks for
// more methods on the value it is given (io.Copy uses the source's WriteTo
// and the destination's ReadFrom), the wrapper would hide them: these
// composed wrappers carry both, and composedMapTypes tells the interpreter
// to take one when the cell's type has every method it lists. The field
// names are the interpreter's convention: IValue first, then W + method.

// _io_ReaderWriterTo is an io.Reader that is also an io.WriterTo.
type _io_ReaderWriterTo struct {
	IValue   any
	WRead    func(p []byte) (int, error)
	WWriteTo func(w io.Writer) (int64, error)
}

func (w _io_ReaderWriterTo) Read(p []byte) (int, error)           { return w.WRead(p) }
func (w _io_ReaderWriterTo) WriteTo(dst io.Writer) (int64, error) { return w.WWriteTo(dst) }

// _io_WriterReaderFrom is an io.Writer that is also an io.ReaderFrom.
type _io_WriterReaderFrom struct {
	IValue    any
	WWrite    func(p []byte) (int, error)
	WReadFrom func(r io.Reader) (int64, error)
}

func (w _io_WriterReaderFrom) Write(p []byte) (int, error)           { return w.WWrite(p) }
func (w _io_WriterReaderFrom) ReadFrom(src io.Reader) (int64, error) { return w.WReadFrom(src) }

// composedMapTypes maps a table's wrapper (as Symbols holds it) to the
// composed wrappers that extend it, the one with most methods first.
func composedMapTypes() map[reflect.Value][]reflect.Type {
	elem := func(p any) reflect.Type { return reflect.TypeOf(p).Elem() }
	return map[reflect.Value][]reflect.Type{
		reflect.ValueOf((*_io_Reader)(nil)): {elem((*_io_ReaderWriterTo)(nil))},
		reflect.ValueOf((*_io_Writer)(nil)): {elem((*_io_WriterReaderFrom)(nil))},
	}
}
