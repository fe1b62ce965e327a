package lsp

import (
	"context"
	"errors"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index"
)

// Python, TypeScript and JavaScript navigation resolves from syntax at
// query time (index/resolve_py.go, resolve_ts.go): the declaration the
// identifier means, then the references to it.

// pyReader reads other files of d's folder as the server sees them (open
// buffers first).
func (s *Server) pyReader(d *doc) func(rel string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		t, err := s.text(filepath.Join(d.f.root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		return t.content, nil
	}
}

// pyTarget resolves the Python, TypeScript or JavaScript identifier at
// byte offset off of d; ok is false in other files and when the syntax
// does not settle it.
func (s *Server) pyTarget(d *doc, off int) (index.PyTarget, bool) {
	if t, ok := d.f.store.PyDefinitions(d.rel, d.content, off, s.pyReader(d)); ok {
		return t, true
	}
	return d.f.store.TSDefinitions(d.rel, d.content, off, s.pyReader(d))
}

// pyDefinition is pyTarget as a definition hit.
func (s *Server) pyDefinition(d *doc, off int) (folderHit, bool) {
	t, ok := s.pyTarget(d, off)
	if !ok {
		return folderHit{}, false
	}
	return folderHit{d.f, t.NameHit()}, true
}

// pyReferences answers references for a resolved identifier
// (index.Store.PyReferences); ok is false when it is not one.
func (s *Server) pyReferences(ctx context.Context, d *doc, pos protocol.Position, includeDecl bool) (out []protocol.Location, ok bool, err error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return nil, false, err
	}
	t, ok := s.pyTarget(d, off)
	if !ok {
		return nil, false, nil
	}
	d.f.awaitAll(ctx)
	hits, err := d.f.store.PyReferences(t, s.pyReader(d))
	if err != nil {
		return nil, false, err
	}
	out, err = s.refLocations(ctx, d.f, hits, t.Name, includeDecl, []protocol.Location{})
	return out, err == nil, err
}

// pyHighlights is pyReferences within d.
func (s *Server) pyHighlights(d *doc, pos protocol.Position) (occ []index.RefHit, ok bool, err error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return nil, false, err
	}
	t, ok := s.pyTarget(d, off)
	if !ok {
		return nil, false, nil
	}
	occ, err = d.f.store.PyFileReferences(t, d.rel, s.pyReader(d))
	if err != nil && !errors.Is(err, index.ErrNotIndexed) {
		return nil, false, err
	}
	return occ, true, nil
}
