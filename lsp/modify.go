package lsp

import (
	"errors"
	"fmt"

	"github.com/parleyhq/parley/workspace"
)

// modKind says what happened to a file.
type modKind uint8

const (
	modOpen modKind = iota
	modChange
	modSave
	modClose
	// Disk events from watched files (the client's or our own watcher).
	modCreated
	modChanged
	modDeleted
)

var modNames = [...]string{"open", "change", "save", "close", "created", "changed", "deleted"}

func (k modKind) String() string { return modNames[k] }

// modification is one change to one file, whatever its source.
type modification struct {
	kind    modKind
	abs     string // absolute, clean
	version int32
	text    []byte             // modOpen; modSave when the client sent the text
	changes []workspace.Change // modChange
}

// modify is the one path every change takes: it updates the overlays,
// then hands open documents to their folder's updater and disk changes
// to a debounced incremental run. It runs inline on the read goroutine,
// so it only does quick work.
func (s *Server) modify(mods ...modification) {
	for _, m := range mods {
		if err := s.modifyOne(m); err != nil {
			s.log.Warnf("%s %s: %v", m.kind, m.abs, err)
		}
	}
}

func (s *Server) modifyOne(m modification) error {
	// Whatever happened, the client now says what the path holds.
	s.pending.forget(m.abs)
	defer s.docBell.ring()
	f, rel, inside := s.folderOf(m.abs)
	switch m.kind {
	case modOpen:
		s.overlays.Open(m.abs, m.version, m.text)
	case modChange:
		before, _ := s.overlays.Get(m.abs)
		after, err := s.overlays.Change(m.abs, m.version, m.changes, s.enc)
		if err != nil {
			if errors.Is(err, workspace.ErrNotOpen) {
				return fmt.Errorf("change to a document that is not open: %w", err)
			}
			return err
		}
		if inside && before != nil {
			// Completion's context and next-edit proposals read it.
			s.completion.edits.Record(rel, before.Content, after.Content)
		}
	case modSave:
		var text *string
		if m.text != nil {
			t := string(m.text)
			text = &t
		}
		if _, err := s.overlays.Save(m.abs, text); err != nil {
			return err
		}
		if text == nil {
			return nil // same content, nothing to re-extract
		}
	case modClose:
		s.overlays.Close(m.abs)
		s.forgetCompletion(m.abs)
		s.files.invalidate(m.abs)
		if inside {
			f.forgetDoc(rel)
			// The store holds the buffer; the disk is the truth again.
			f.requestReindex()
		}
		return nil
	default: // disk events
		s.files.invalidate(m.abs)
		if _, open := s.overlays.Get(m.abs); open {
			return nil // the buffer is what the user sees
		}
		if inside {
			f.requestReindex()
		}
		return nil
	}
	if !inside {
		s.log.Debugf("%s %s: outside the workspace folders; not indexed", m.kind, m.abs)
		return nil
	}
	f.scheduleDoc(rel)
	return nil
}
