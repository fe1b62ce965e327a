package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// The agent sees files through agentView and changes them through
// agentEditor, which sends every change to the client with
// workspace/applyEdit: the editor applies it to its buffers (open or not),
// so its undo history holds every agent edit and nothing reaches the disk
// behind the user's back.
//
// Applying an edit to a file that is not open leaves it changed in an
// editor buffer but not on disk. Until the client reports that buffer
// (didOpen) or anything else happens to the path, the server remembers
// the content it sent (pendingFiles), so the agent's next read sees its own
// edit.

// agentView is the agent's tools.FileView: an open document's buffer, else
// content the agent applied to a closed file, else the disk.
type agentView struct{ s *Server }

func (v agentView) Read(abs string) ([]byte, int32, error) {
	if ov, ok := v.s.overlays.Get(abs); ok {
		return ov.Content, ov.Version, nil
	}
	if f, ok := v.s.pending.get(abs); ok {
		switch {
		case f.dropped:
			return nil, 0, fmt.Errorf("%s: an editor buffer holds changes to it that parley no longer keeps (too many unsaved agent edits); ask the user to save or close it, then read it again", abs)
		case f.deleted:
			return nil, 0, &fs.PathError{Op: "open", Path: abs, Err: fs.ErrNotExist}
		}
		return f.content, tools.DiskVersion, nil
	}
	return (&tools.DiskView{}).Read(abs)
}

// unsaved lists the paths whose content in the editor may differ from the
// disk: changed open documents and closed files the agent edited.
func (s *Server) unsaved() []string {
	out := append(s.overlays.Unsaved(), s.pending.paths()...)
	slices.Sort(out)
	return slices.Compact(out)
}

// bell lets a goroutine wait for the next document modification.
type bell struct {
	mu sync.Mutex
	ch chan struct{}
}

// next returns a channel closed by the next ring.
func (b *bell) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *bell) ring() {
	b.mu.Lock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
	b.mu.Unlock()
}

// syncWait bounds how long an applied edit waits for the client's
// didChange of an open document before the turn goes on.
const syncWait = 5 * time.Second

// agentEditor is the agent's tools.Editor in the language server.
type agentEditor struct {
	s *Server
	// gate is set when the editor confirms edits (see editorConfirms): the
	// edits it left pending are marked needsConfirmation.
	gate *permission.Deferred
}

func (e agentEditor) Apply(ctx context.Context, label string, changes []tools.FileChange) (tools.ApplyResult, error) {
	s := e.s
	label = "parley: " + label
	if hook := s.testHookApply; hook != nil {
		hook()
	}
	if !s.caps.applyEdit {
		return tools.ApplyResult{Reason: "this editor cannot receive edits (it does not support workspace/applyEdit); show the user the change instead"}, nil
	}
	if reason := e.stale(changes); reason != "" {
		return tools.ApplyResult{Reason: reason}, nil
	}
	targets := func(abs string) editTarget {
		if ov, ok := s.overlays.Get(abs); ok {
			return editTarget{open: true, version: ov.Version}
		}
		return editTarget{}
	}
	confirm := false
	if e.gate != nil {
		// An edit no check matched is confirmed all the same.
		call, found := e.gate.Take(ctx)
		confirm = !found || call.Pending
	}
	edit, err := buildWorkspaceEdit(label, changes, s.enc, s.caps.edits, targets, confirm)
	if errors.Is(err, errUnsupportedEdit) {
		return tools.ApplyResult{Reason: err.Error()}, nil
	}
	if err != nil {
		return tools.ApplyResult{}, err
	}
	if len(edit.Changes) == 0 && len(edit.DocumentChanges) == 0 {
		return tools.ApplyResult{Applied: true}, nil // nothing differs
	}
	if err := makeParents(changes); err != nil {
		return tools.ApplyResult{}, err
	}
	sent := map[string]int32{}
	for _, c := range changes {
		if t := targets(c.Path); t.open {
			sent[c.Path] = t.version
		}
	}
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit})
	if err != nil {
		if ctx.Err() != nil {
			return tools.ApplyResult{}, ctx.Err()
		}
		return tools.ApplyResult{}, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	if !res.Applied {
		reason := "the user rejected the edit"
		if res.FailureReason != nil && *res.FailureReason != "" {
			reason = "the editor did not apply the edit: " + *res.FailureReason
		}
		return tools.ApplyResult{Reason: reason}, nil
	}
	e.settle(ctx, changes, sent)
	return tools.ApplyResult{Applied: true}, nil
}

// makeParents creates the missing parent directories of created and
// renamed files: clients differ in whether their file operations do
// (VS Code does, Neovim 0.7 does not), and an empty directory holds
// nothing the user could lose. Paths were resolved inside the roots.
func makeParents(changes []tools.FileChange) error {
	for _, c := range changes {
		target := ""
		switch c.Op {
		case tools.OpCreate:
			target = c.Path
		case tools.OpRename:
			target = c.NewPath
		}
		if target == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("create the parent of %s: %w", target, err)
		}
	}
	return nil
}

// stale returns why changes cannot be sent, or "": each must have been
// computed against exactly what the editor holds now.
func (e agentEditor) stale(changes []tools.FileChange) string {
	view := agentView{e.s}
	for _, c := range changes {
		cur, ver, err := view.Read(c.Path)
		if c.Op == tools.OpCreate {
			if err == nil {
				return fmt.Sprintf("%s exists now; read it before writing it", c.Path)
			}
			continue
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Sprintf("%s no longer exists", c.Path)
		case err != nil:
			return fmt.Sprintf("%s: %v", c.Path, err)
		case ver != c.Version || !bytes.Equal(cur, c.Old):
			return fmt.Sprintf("%s changed in the editor since you read it (version %s, you read %s); read it again and redo the edit",
				c.Path, versionName(ver), versionName(c.Version))
		}
	}
	return ""
}

func versionName(v int32) string {
	if v == tools.DiskVersion {
		return "on disk"
	}
	return fmt.Sprint(v)
}

// settle records what closed files now hold in the editor, and waits
// (bounded) until the client has reported the change of every open
// document, so the agent's next read sees its own edit.
func (e agentEditor) settle(ctx context.Context, changes []tools.FileChange, sent map[string]int32) {
	s := e.s
	for _, c := range changes {
		if _, open := sent[c.Path]; open {
			continue
		}
		switch c.Op {
		case tools.OpModify, tools.OpCreate:
			s.pending.set(c.Path, pendingFile{content: c.New})
		case tools.OpDelete:
			s.pending.set(c.Path, pendingFile{deleted: true})
		case tools.OpRename:
			s.pending.set(c.NewPath, pendingFile{content: c.Old})
			s.pending.set(c.Path, pendingFile{deleted: true})
		}
	}
	timeout := time.NewTimer(syncWait)
	defer timeout.Stop()
	for {
		ring := s.docBell.next()
		waiting := false
		for abs, v := range sent {
			if ov, ok := s.overlays.Get(abs); ok && ov.Version == v {
				waiting = true
			}
		}
		if !waiting {
			return
		}
		select {
		case <-ring:
		case <-ctx.Done():
			return
		case <-timeout.C:
			s.log.Warnf("the client applied an edit but did not report the change of an open document within %v", syncWait)
			return
		}
	}
}
