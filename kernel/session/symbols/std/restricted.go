package std

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
)

// The functions below stand in for the standard library's in cells (yaegi
// extract names them in the generated tables): a cell must not end the
// kernel's process, so os.Exit and log.Fatal panic instead — the cell stops
// with an error that says what was called, and the session goes on.

func osExit(code int) { panic(fmt.Sprintf("os.Exit(%d)", code)) }

// osFindProcess is os.FindProcess, except for the kernel's own process.
func osFindProcess(pid int) (*os.Process, error) {
	if pid == os.Getpid() {
		return nil, errors.New("os.FindProcess: a cell may not signal the kernel's own process")
	}
	return os.FindProcess(pid)
}

func logFatal(v ...any)            { log.Panic(v...) }
func logFatalf(f string, v ...any) { log.Panicf(f, v...) }
func logFatalln(v ...any)          { log.Panicln(v...) }

// logLogger is log.Logger in cells: every method of *log.Logger, with the
// Fatal ones panicking.
type logLogger struct{ *log.Logger }

func logNew(out io.Writer, prefix string, flag int) *logLogger {
	return &logLogger{log.New(out, prefix, flag)}
}

func (l *logLogger) Fatal(v ...any)            { l.Panic(v...) }
func (l *logLogger) Fatalf(f string, v ...any) { l.Panicf(f, v...) }
func (l *logLogger) Fatalln(v ...any)          { l.Panicln(v...) }
