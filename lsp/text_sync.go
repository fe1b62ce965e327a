package lsp

import (
	"context"
	"errors"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/workspace"
)

func (s *Server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	abs, err := s.notifiedPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	text := []byte(p.TextDocument.Text)
	s.modify(modification{kind: modOpen, abs: abs, version: p.TextDocument.Version, text: text})
	s.warmSyntax(abs)
	s.warmCompletion(abs, text)
	return nil
}

func (s *Server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	abs, err := s.notifiedPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	changes := make([]workspace.Change, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			r := c.Range
			changes = append(changes, workspace.Change{Text: c.Text, Range: &workspace.Range{
				StartLine: r.Start.Line, StartChar: r.Start.Character,
				EndLine: r.End.Line, EndChar: r.End.Character,
			}})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, workspace.Change{Text: c.Text})
		}
	}
	s.modify(modification{kind: modChange, abs: abs, version: p.TextDocument.Version, changes: changes})
	return nil
}

func (s *Server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	abs, err := s.notifiedPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	m := modification{kind: modSave, abs: abs}
	if p.Text != nil {
		m.text = []byte(*p.Text)
	}
	s.modify(m)
	return nil
}

func (s *Server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	abs, err := s.notifiedPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.modify(modification{kind: modClose, abs: abs})
	return nil
}

func (s *Server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	mods := make([]modification, 0, len(p.Changes))
	for _, c := range p.Changes {
		abs, err := s.notifiedPath(c.URI)
		if err != nil {
			s.log.Debugf("watched file %s: %v", c.URI, err)
			continue
		}
		kind := modChanged
		switch c.Type {
		case protocol.FileChangeTypeCreated:
			kind = modCreated
		case protocol.FileChangeTypeDeleted:
			kind = modDeleted
		}
		mods = append(mods, modification{kind: kind, abs: abs})
	}
	s.modify(mods...)
	return nil
}

// notifiedPath turns a document URI from a notification into the path
// overlays are keyed by. Documents outside the folders are still tracked
// (the user may open any file), just not indexed; the path is made
// symlink-free where it exists so it matches the canonical roots.
func (s *Server) notifiedPath(u uri.URI) (string, error) {
	if u.Scheme() != "file" {
		return "", errors.New("only file: URIs are supported: " + string(u))
	}
	p := filepath.Clean(u.FsPath())
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real, nil
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(dir, filepath.Base(p)), nil
	}
	return p, nil
}
