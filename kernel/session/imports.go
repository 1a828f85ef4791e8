package session

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"time"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Importer provides packages that the symbol tables lack: imported
// modules, compiled as plugins (kernel/gocompile). The session asks it
// for every such import of a cell, re-imports included (a local module
// whose source changed gives a new version).
type Importer interface {
	// Import returns the package at path; progress may go to sink. An
	// error wrapping ErrNotProvided leaves the import to the interpreter
	// (and its "unknown package" error).
	Import(ctx context.Context, path string, sink Sink) (Imported, error)
}

// Imported is what an Importer gives for one import.
type Imported struct {
	// Symbols are yaegi symbol tables to register ("path/name" keys).
	// Changed says they are new (a first import or a new version): an
	// unchanged package is not registered again.
	Symbols map[string]map[string]reflect.Value
	Changed bool
	// Source says the package is to be interpreted from its source, laid
	// out under Options.GoPath.
	Source bool
}

// ErrNotProvided is what an Importer returns (wrapped) for a path it does
// not provide.
var ErrNotProvided = errors.New("session: package not provided")

// importCompiled asks the Importer for the cell's imports that the symbol
// tables lack and registers what it returns, so that the interpreter
// then imports them like tick's own packages. This is the one place the
// engine meets compiled Go.
func (s *Session) importCompiled(pc *cell.Parsed) *Error {
	if s.opts.Importer == nil || pc.Decls == nil {
		return nil
	}
	for _, d := range pc.Decls.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		for _, sp := range g.Specs {
			spec := sp.(*ast.ImportSpec)
			p := strings.Trim(spec.Path.Value, "\"`")
			if s.decls.Builtin(p) || p == "C" {
				continue
			}
			if err := s.importOne(p); err != nil {
				return cell.Errorf(cell.CompileError, "%s: import %q: %v", pc.Pos(spec.Pos()), p, err)
			}
		}
	}
	return nil
}

// importOne imports p through the Importer, interruptibly.
func (s *Session) importOne(p string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if s.Interrupted() {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	sink := Discard
	if c := s.io.Current(); c != nil {
		sink = c
	}
	imp, err := s.opts.Importer.Import(ctx, p, sink)
	switch {
	case errors.Is(err, ErrNotProvided):
		return nil
	case err != nil:
		if s.Interrupted() {
			return fmt.Errorf("stopped by an interrupt while building it; nothing was imported")
		}
		return err
	case !imp.Changed || imp.Symbols == nil:
		return nil
	}
	return s.registerSymbols(imp.Symbols)
}

// registerSymbols makes compiled packages' symbol tables importable.
func (s *Session) registerSymbols(tables map[string]map[string]reflect.Value) error {
	if err := s.vm.ip.Use(tables); err != nil {
		return fmt.Errorf("registering its symbols: %w", err)
	}
	s.decls.AddPackages(tables)
	return nil
}
