package tools

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// DefaultUndoDepth is how many applied edits a DiskEditor remembers.
const DefaultUndoDepth = 50

// DefaultUndoBytes bounds the file content an undo stack keeps (the
// content each edit replaced); the oldest entries go first, and the newest
// one is always kept, whatever its size.
const DefaultUndoBytes = 8 << 20

// UndoEntry is one applied edit as Undo needs it, and as an UndoStore
// keeps it.
type UndoEntry struct {
	// Seq orders a stack's entries (it grows with every edit) and keys
	// them in a store.
	Seq   uint64     `json:"seq"`
	Label string     `json:"label"`
	Files []UndoFile `json:"files"`
	// Dirs are the directories the edit created, outermost first; undo
	// removes them when they are empty.
	Dirs []string `json:"dirs,omitempty"`
}

// UndoFile is one file an edit touched: what it held before (to restore
// it) and the hash of what the edit left (to tell whether it changed
// since), never a copy of the new content.
type UndoFile struct {
	Path    string      `json:"path"` // absolute
	Existed bool        `json:"existed"`
	Before  []byte      `json:"before,omitempty"`
	Mode    fs.FileMode `json:"mode,omitempty"`
	// Left says the edit left a file at Path; LeftSHA256 is its content's
	// SHA-256 in hex.
	Left       bool   `json:"left"`
	LeftSHA256 string `json:"left_sha256,omitempty"`
}

// UndoStore keeps a DiskEditor's undo stack beyond the process: the
// terminal keeps it with the chat session (agent.SessionStore.Undo).
type UndoStore interface {
	// LoadUndo returns the stored entries, oldest first.
	LoadUndo() ([]UndoEntry, error)
	// SaveUndo adds add (when not nil) and deletes the entries whose Seq
	// is in remove, durably and together.
	SaveUndo(add *UndoEntry, remove []uint64) error
}

// UseUndo makes the editor's undo stack the one in store, loading its
// entries, or a new in-memory one when store is nil. The terminal calls
// it whenever it starts or switches sessions. On error the stack is a new
// in-memory one.
func (e *DiskEditor) UseUndo(store UndoStore) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.undo, e.store = nil, nil
	if store == nil {
		return nil
	}
	entries, err := store.LoadUndo()
	if err != nil {
		return fmt.Errorf("load the undo history: %w", err)
	}
	e.undo, e.store = entries, store
	return nil
}

// push records an applied edit, trims the stack to its bounds and saves
// both to the store. Precondition: e.mu is held.
func (e *DiskEditor) push(label string, targets []target, dirs []string) {
	entry := UndoEntry{Seq: 1, Label: label, Dirs: dirs}
	if n := len(e.undo); n > 0 {
		entry.Seq = e.undo[n-1].Seq + 1
	}
	for _, t := range targets {
		f := UndoFile{Path: t.abs, Existed: t.before.exists, Before: t.before.content, Mode: t.before.mode, Left: t.after.exists}
		if t.after.exists {
			sum := t.after.sum()
			f.LeftSHA256 = hex.EncodeToString(sum[:])
		}
		entry.Files = append(entry.Files, f)
	}
	e.undo = append(e.undo, entry)
	total := 0
	for _, u := range e.undo {
		total += u.size()
	}
	drop := 0
	var removed []uint64
	for len(e.undo)-drop > 1 && (len(e.undo)-drop > e.maxUndo || total > e.maxUndoBytes) {
		total -= e.undo[drop].size()
		removed = append(removed, e.undo[drop].Seq)
		drop++
	}
	e.undo = slices.Delete(e.undo, 0, drop)
	if e.store != nil {
		if err := e.store.SaveUndo(&entry, removed); err != nil {
			e.warn(fmt.Errorf("the undo entry of %q was not saved, so /undo can revert it only until this chat ends: %w", label, err))
		}
	}
}

func (u UndoEntry) size() int {
	n := 0
	for _, f := range u.Files {
		n += len(f.Before)
	}
	return n
}

func (e *DiskEditor) warn(err error) {
	if e.opts.Warn != nil {
		e.opts.Warn(err)
	}
}

// Undo reverts the most recent Apply and returns its label. If a file the
// edit touched has changed since (its content is not what the edit left),
// it refuses, changes nothing and keeps the entry.
func (e *DiskEditor) Undo() (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.undo) == 0 {
		return "", errors.New("nothing to undo")
	}
	entry := e.undo[len(e.undo)-1]
	targets := make([]target, 0, len(entry.Files))
	for _, f := range entry.Files {
		t, err := e.undoTarget(entry.Label, f)
		if err != nil {
			return "", err
		}
		targets = append(targets, t)
	}
	if _, err := commit(targets); err != nil {
		return "", fmt.Errorf("undo %q: %w", entry.Label, err)
	}
	// Directories the edit created go too, if nothing else lives there now.
	for _, d := range slices.Backward(entry.Dirs) {
		_ = os.Remove(d) // fails harmlessly on a non-empty directory
	}
	e.undo = e.undo[:len(e.undo)-1]
	if e.store != nil {
		if err := e.store.SaveUndo(nil, []uint64{entry.Seq}); err != nil {
			// A later process would find the entry and refuse it, since
			// the files no longer hold what the edit left.
			e.warn(fmt.Errorf("undo of %q not recorded: %w", entry.Label, err))
		}
	}
	e.written(context.Background(), targets)
	return entry.Label, nil
}

// undoTarget checks that f still holds what the edit left and returns the
// change back to what it held before.
func (e *DiskEditor) undoTarget(label string, f UndoFile) (target, error) {
	abs, _, rel, err := e.roots.Resolve(f.Path)
	if err != nil || abs != f.Path {
		return target{}, fmt.Errorf("cannot undo %q: %s no longer resolves to the same place; nothing was undone", label, f.Path)
	}
	cur, err := readState(abs)
	if err != nil {
		return target{}, fmt.Errorf("cannot undo %q: %w; nothing was undone", label, err)
	}
	sum := cur.sum()
	if cur.exists != f.Left || cur.exists && hex.EncodeToString(sum[:]) != f.LeftSHA256 {
		return target{}, fmt.Errorf("cannot undo %q: %s changed since the edit; nothing was undone", label, filepath.FromSlash(rel))
	}
	return target{abs: abs, before: cur, after: fileState{exists: f.Existed, content: f.Before, mode: f.Mode}}, nil
}

// UndoDepth is the number of edits Undo can revert.
func (e *DiskEditor) UndoDepth() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.undo)
}
