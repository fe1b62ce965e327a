package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/parleyhq/parley/workspace"
)

// staleReason is what the model is told when a file moved on under it.
const staleReason = "file changed since it was read; read it again"

// newFileMode is the mode of files the editor creates (umask is not
// consulted: Go offers no portable way to read it without changing it).
const newFileMode fs.FileMode = 0o644

// DiskEditor is the terminal's Editor: it writes changes straight to disk.
//
// Each Apply is all-or-nothing across its files. First every path is
// re-resolved against the roots and every file is checked to still hold
// exactly the content the change was computed from (Old); if one does not,
// nothing is written and the result is Applied false with a reason. Then
// new contents are written to temporary files beside their targets and
// fsynced, and only when all of them exist are they renamed into place
// (deletions in the same pass). A failure during the renames rolls back the
// files already replaced. Every applied edit pushes one undo entry (see
// diskeditor_undo.go; the stack may live in an UndoStore).
// FileChange.Version is not consulted: files on disk have no versions, and
// comparing the whole content is the stricter check.
//
// Safe for concurrent use: Apply and Undo are serialised.
type DiskEditor struct {
	roots *workspace.Roots
	opts  DiskEditorOptions
	// The undo stack's bounds: entries, and bytes of file content kept.
	maxUndo, maxUndoBytes int

	mu    sync.Mutex
	undo  []UndoEntry // oldest first
	store UndoStore   // nil: the stack lives in memory only
}

// DiskEditorOptions configure a DiskEditor; the zero value is a plain
// editor.
type DiskEditorOptions struct {
	// Confirm, if set, is asked before anything is written, with the
	// changes as they will be written: they have been checked against the
	// disk, and are checked again after the answer, so a file that changes
	// while the user looks at the question is refused, not overwritten.
	// ok false leaves everything untouched and tells the model reason; an
	// error (a cancelled question) is returned by Apply. It runs without
	// the editor's lock held.
	Confirm func(ctx context.Context, label string, changes []FileChange) (ok bool, reason string, err error)
	// Warn, if set, hears of problems that do not stop an edit or an undo
	// (an undo entry that could not be saved to the UndoStore).
	Warn func(error)
	// Written, if set, is called after an edit or an undo was written,
	// with the absolute paths it created, changed or removed, before Apply
	// or Undo returns: the terminal re-indexes them there, so the agent's
	// next index query sees its own edit. It runs with the editor locked.
	Written func(ctx context.Context, paths []string)
}

// NewDiskEditor returns an editor confined to roots with an in-memory
// undo stack of at most DefaultUndoDepth entries and DefaultUndoBytes.
func NewDiskEditor(roots *workspace.Roots) *DiskEditor {
	return NewDiskEditorWith(roots, DiskEditorOptions{})
}

// NewDiskEditorWith is NewDiskEditor with options.
func NewDiskEditorWith(roots *workspace.Roots, opts DiskEditorOptions) *DiskEditor {
	return &DiskEditor{roots: roots, opts: opts, maxUndo: DefaultUndoDepth, maxUndoBytes: DefaultUndoBytes}
}

// written calls the Written hook for targets.
func (e *DiskEditor) written(ctx context.Context, targets []target) {
	if e.opts.Written == nil {
		return
	}
	paths := make([]string, len(targets))
	for i, t := range targets {
		paths[i] = t.abs
	}
	e.opts.Written(ctx, paths)
}

// fileState is a file's content as the editor saw or left it.
type fileState struct {
	exists  bool
	content []byte
	mode    fs.FileMode
}

func (s fileState) sum() [32]byte { return sha256.Sum256(s.content) }

// target is one file the editor changes: from before to after.
type target struct {
	abs           string
	before, after fileState
}

// Apply implements Editor.
func (e *DiskEditor) Apply(ctx context.Context, label string, changes []FileChange) (ApplyResult, error) {
	if err := ctx.Err(); err != nil {
		return ApplyResult{}, err
	}
	if len(changes) == 0 {
		return ApplyResult{Applied: true}, nil
	}
	if e.opts.Confirm != nil {
		// A change that cannot apply is refused before the user is asked.
		e.mu.Lock()
		_, reason, err := e.plan(changes)
		e.mu.Unlock()
		if err != nil || reason != "" {
			return ApplyResult{Reason: reason}, err
		}
		ok, reason, err := e.opts.Confirm(ctx, label, changes)
		if err != nil {
			return ApplyResult{}, err
		}
		if !ok {
			return ApplyResult{Reason: reason}, nil
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	targets, reason, err := e.plan(changes)
	if err != nil || reason != "" {
		return ApplyResult{Reason: reason}, err
	}
	if err := ctx.Err(); err != nil {
		return ApplyResult{}, err
	}
	dirs, err := commit(targets)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply %q: %w", label, err)
	}
	e.push(label, targets, dirs)
	e.written(ctx, targets)
	return ApplyResult{Applied: true}, nil
}

// plan resolves and checks every change. A non-empty reason means the
// change set is refused as an outcome; err means the disk could not be read.
func (e *DiskEditor) plan(changes []FileChange) (targets []target, reason string, err error) {
	seen := map[string]bool{}
	add := func(abs string, before, after fileState) string {
		if seen[abs] {
			return fmt.Sprintf("%s is changed twice in one edit", abs)
		}
		seen[abs] = true
		targets = append(targets, target{abs: abs, before: before, after: after})
		return ""
	}
	for _, c := range changes {
		abs, cur, reason, err := e.current(c.Path)
		if err != nil || reason != "" {
			return nil, reason, err
		}
		if len(c.New) > MaxFileSize {
			return nil, fmt.Sprintf("%s: new content is %d bytes, above the %d byte limit", abs, len(c.New), MaxFileSize), nil
		}
		switch c.Op {
		case OpCreate:
			if cur.exists {
				return nil, fmt.Sprintf("%s: %s (it exists now)", abs, staleReason), nil
			}
			if r := checkParents(abs); r != "" {
				return nil, r, nil
			}
			reason = add(abs, cur, fileState{exists: true, content: c.New, mode: newFileMode})
		case OpModify, OpDelete, OpRename:
			if !cur.exists || !bytes.Equal(cur.content, c.Old) {
				return nil, fmt.Sprintf("%s: %s", abs, staleReason), nil
			}
			switch c.Op {
			case OpModify:
				reason = add(abs, cur, fileState{exists: true, content: c.New, mode: cur.mode})
			case OpDelete:
				reason = add(abs, cur, fileState{})
			case OpRename:
				reason, err = e.planRename(abs, c.NewPath, cur, add)
			}
		default:
			return nil, fmt.Sprintf("unknown change kind %d", c.Op), nil
		}
		if err != nil || reason != "" {
			return nil, reason, err
		}
	}
	return targets, "", nil
}

func (e *DiskEditor) planRename(abs, newPath string, cur fileState, add func(string, fileState, fileState) string) (string, error) {
	to, dst, reason, err := e.current(newPath)
	if err != nil || reason != "" {
		return reason, err
	}
	if dst.exists {
		return fmt.Sprintf("cannot rename to %s: it exists", to), nil
	}
	if r := checkParents(to); r != "" {
		return r, nil
	}
	if r := add(abs, cur, fileState{}); r != "" {
		return r, nil
	}
	return add(to, dst, cur), nil
}

// current re-resolves p against the roots and reads what is there now.
func (e *DiskEditor) current(p string) (abs string, st fileState, reason string, err error) {
	abs, _, _, rerr := e.roots.Resolve(p)
	if rerr != nil {
		return "", fileState{}, rerr.Error(), nil
	}
	st, err = readState(abs)
	if errors.Is(err, ErrIsDirectory) || errors.Is(err, ErrNotRegular) || errors.Is(err, ErrFileTooLarge) {
		return "", fileState{}, err.Error(), nil
	}
	return abs, st, "", err
}

// readState reads a file's current state; a missing file is a state too.
func readState(abs string) (fileState, error) {
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return fileState{}, nil
	}
	if err != nil {
		return fileState{}, fmt.Errorf("stat %s: %w", abs, err)
	}
	content, err := readFileCapped(abs, MaxFileSize)
	if err != nil {
		return fileState{}, err
	}
	return fileState{exists: true, content: content, mode: fi.Mode().Perm()}, nil
}

// checkParents reports why abs's parent directories cannot be created (an
// ancestor is a file), or "".
func checkParents(abs string) string {
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Sprintf("cannot create %s: %s is not a directory", abs, dir)
			}
			return ""
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

// commit moves every target to its after state: all new contents are
// written to fsynced temporary files first (a failure there leaves the
// targets untouched), then renamed into place or the targets removed. A
// failure in that second pass restores the targets already done. It
// returns the directories it created, outermost first.
func commit(targets []target) ([]string, error) {
	temps := make([]string, len(targets))
	var dirs []string
	cleanup := func() {
		for _, t := range temps {
			if t != "" {
				_ = os.Remove(t)
			}
		}
		for _, d := range slices.Backward(dirs) {
			_ = os.Remove(d)
		}
	}
	for i, t := range targets {
		if !t.after.exists {
			continue
		}
		made, err := mkdirs(filepath.Dir(t.abs))
		dirs = append(dirs, made...)
		if err == nil {
			temps[i], err = writeTemp(t.abs, t.after)
		}
		if err != nil {
			cleanup()
			return nil, err
		}
	}
	for i, t := range targets {
		err := place(t.abs, temps[i], t.before.exists, t.after.exists)
		if err == nil {
			temps[i] = ""
			continue
		}
		if rerr := rollback(targets[:i]); rerr != nil {
			err = errors.Join(err, fmt.Errorf("rollback: %w", rerr))
		}
		cleanup()
		return nil, err
	}
	syncDirs(targets)
	return dirs, nil
}

// place makes abs hold the temp file's content, or removes abs.
func place(abs, temp string, existed, exists bool) error {
	if exists {
		if err := os.Rename(temp, abs); err != nil {
			return fmt.Errorf("replace %s: %w", abs, err)
		}
		return nil
	}
	if !existed {
		return nil
	}
	if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", abs, err)
	}
	return nil
}

// rollback restores done targets to their before states, newest first.
func rollback(done []target) error {
	var errs []error
	for _, t := range slices.Backward(done) {
		var temp string
		var err error
		if t.before.exists {
			temp, err = writeTemp(t.abs, t.before)
		}
		if err == nil {
			err = place(t.abs, temp, t.after.exists, t.before.exists)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// mkdirs creates dir and its missing parents, returning those it created,
// outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create directory %s: %w", dir, err)
	}
	slices.Reverse(missing)
	return missing, nil
}

// writeTemp writes st's content to a new fsynced temporary file beside
// abs, with st's mode, and returns its name.
func writeTemp(abs string, st fileState) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".parley-*.tmp")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", abs, err)
	}
	name := f.Name()
	_, err = f.Write(st.content)
	if err == nil {
		err = f.Chmod(st.mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("write %s: %w", abs, err)
	}
	return name, nil
}

// syncDirs fsyncs the directories whose entries changed so the renames
// survive a crash. Best effort: the changes are already visible, and some
// file systems do not support syncing directories.
func syncDirs(targets []target) {
	done := map[string]bool{}
	for _, t := range targets {
		dir := filepath.Dir(t.abs)
		if done[dir] {
			continue
		}
		done[dir] = true
		if d, err := os.Open(dir); err == nil {
			_ = d.Sync()
			_ = d.Close()
		}
	}
}
