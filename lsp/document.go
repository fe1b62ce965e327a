package lsp

import (
	"context"
	"errors"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/workspace"
)

// doc is a request's document, resolved and synchronised with the index.
type doc struct {
	f        *folder
	abs, rel string
	*fileText
}

// document resolves a request's URI to a document inside a workspace
// folder and waits until the index reflects its buffer. URIs outside the
// folders (also through symlinks) are InvalidParams.
func (s *Server) document(ctx context.Context, u uri.URI) (*doc, error) {
	f, abs, rel, err := s.inFolder(u)
	if err != nil {
		return nil, err
	}
	f.awaitDoc(ctx, rel)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := s.text(abs)
	if err != nil {
		return nil, invalidParams("%s: %v", abs, err)
	}
	return &doc{f: f, abs: abs, rel: rel, fileText: t}, nil
}

// inFolder resolves a request's URI to a path inside a workspace folder;
// anything else (also through symlinks) is InvalidParams.
func (s *Server) inFolder(u uri.URI) (f *folder, abs, rel string, err error) {
	abs, err = s.notifiedPath(u)
	if err != nil {
		return nil, "", "", invalidParams("%v", err)
	}
	f, rel, ok := s.folderOf(abs)
	if !ok {
		return nil, "", "", invalidParams("%s is outside the workspace folders", abs)
	}
	return f, abs, rel, nil
}

// offset converts a client position; positions past the last line are
// InvalidParams, characters past a line's end clamp (as LSP specifies).
func (s *Server) offset(d *doc, p protocol.Position) (int, error) {
	off, err := d.lines.Offset(p.Line, p.Character, s.enc)
	if err != nil {
		return 0, invalidParams("%s: %v", d.abs, err)
	}
	return off, nil
}

// identAt returns the identifier under (or just before) offset off.
func identAt(src []byte, off int) (string, bool) { return index.IdentAt(src, off) }

// toRange converts an index range (byte columns) of a file to the
// client's encoding, reading the file only when the encoding needs it.
func (s *Server) toRange(lines columns, r extract.Range) protocol.Range {
	return protocol.Range{Start: s.toPos(lines, r.Start), End: s.toPos(lines, r.End)}
}

func (s *Server) toPos(lines columns, p extract.Pos) protocol.Position {
	if s.enc == workspace.UTF8 || lines == nil {
		return protocol.Position{Line: p.Line, Character: p.Col}
	}
	c, err := lines.Character(p.Line, p.Col, s.enc)
	if err != nil {
		// The file changed since it was indexed; clamp rather than fail
		// the whole answer.
		return protocol.Position{Line: p.Line, Character: p.Col}
	}
	return protocol.Position{Line: p.Line, Character: c}
}

// linesOf returns the column conversion for positions in folder f's file
// rel (at abs), or nil when none is needed: the client counts bytes, or the
// file is ASCII as indexed (so byte columns are UTF-16 columns) and not
// open with other content. Nil also when the file is unreadable; positions
// then pass through unconverted.
func (s *Server) linesOf(f *folder, rel, abs string) columns {
	if s.enc == workspace.UTF8 {
		return nil
	}
	if ov, open := s.overlays.Get(abs); open {
		return workspace.NewLines(ov.Content)
	}
	h, ok := f.store.Header(rel)
	if ok && h.ASCII {
		return nil
	}
	if ok {
		if w, ok := s.wide.get(abs, h.Hash); ok {
			return w
		}
	}
	t, err := s.text(abs)
	if err != nil {
		return nil
	}
	return t.lines
}

// location builds a Location for a range in folder f's file rel.
func (s *Server) location(f *folder, rel string, r extract.Range) protocol.Location {
	abs := filepath.Join(f.root, filepath.FromSlash(rel))
	return protocol.Location{URI: uri.File(abs), Range: s.toRange(s.linesOf(f, rel, abs), r)}
}

// errNoIdent is answered as an empty result, not an error.
var errNoIdent = errors.New("no identifier at the position")

// identOf returns the identifier at p in d.
func (s *Server) identOf(d *doc, p protocol.Position) (string, error) {
	off, err := s.offset(d, p)
	if err != nil {
		return "", err
	}
	name, ok := identAt(d.content, off)
	if !ok {
		return "", errNoIdent
	}
	return name, nil
}
