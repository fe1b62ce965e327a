package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func ftApply(t *testing.T, e *DiskEditor, changes ...FileChange) ApplyResult {
	t.Helper()
	res, err := e.Apply(context.Background(), "test", changes)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

// ftNoTemps fails if a temporary file was left in the tree.
func ftNoTemps(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".parley-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestDiskEditorAllOrNothing(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	res := ftApply(t, w.editor,
		FileChange{Op: OpModify, Path: w.path("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		FileChange{Op: OpCreate, Path: w.path("new/c.txt"), New: []byte("c\n")},
		FileChange{Op: OpModify, Path: w.path("b.txt"), Old: []byte("stale\n"), New: []byte("B\n")},
	)
	if res.Applied || !strings.Contains(res.Reason, "file changed since it was read; read it again") {
		t.Fatalf("stale change set applied: %+v", res)
	}
	if w.read(t, "a.txt") != "a\n" || w.read(t, "b.txt") != "b\n" {
		t.Error("files changed although the set was refused")
	}
	if _, err := os.Stat(w.path("new")); !os.IsNotExist(err) {
		t.Error("directory created although the set was refused")
	}
	if w.editor.UndoDepth() != 0 {
		t.Error("refused set pushed an undo entry")
	}
	ftNoTemps(t, w.root)
}

func TestDiskEditorRefusals(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "a\n", "file": "x"})
	outside := t.TempDir()
	if err := os.Symlink(outside, w.path("link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change FileChange
		want   string
	}{
		{"create over existing", FileChange{Op: OpCreate, Path: w.path("a.txt"), New: []byte("x")}, "it exists now"},
		{"modify missing", FileChange{Op: OpModify, Path: w.path("gone.txt"), Old: []byte("x"), New: []byte("y")}, staleReason},
		{"delete stale", FileChange{Op: OpDelete, Path: w.path("a.txt"), Old: []byte("other")}, staleReason},
		{"outside roots", FileChange{Op: OpCreate, Path: filepath.Join(outside, "x"), New: []byte("x")}, "outside workspace roots"},
		{"through symlink out", FileChange{Op: OpCreate, Path: w.path("link/x"), New: []byte("x")}, "symlink"},
		{"parent is a file", FileChange{Op: OpCreate, Path: w.path("file/sub/x"), New: []byte("x")}, "not a directory"},
		{"rename onto existing", FileChange{Op: OpRename, Path: w.path("a.txt"), NewPath: w.path("file"), Old: []byte("a\n")}, "it exists"},
		{"directory", FileChange{Op: OpModify, Path: w.root, Old: nil, New: []byte("x")}, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := ftApply(t, w.editor, tt.change)
			if res.Applied || !strings.Contains(res.Reason, tt.want) {
				t.Fatalf("got %+v, want refusal containing %q", res, tt.want)
			}
		})
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the roots: %v", entries)
	}
	res := ftApply(t, w.editor,
		FileChange{Op: OpModify, Path: w.path("a.txt"), Old: []byte("a\n"), New: []byte("1")},
		FileChange{Op: OpDelete, Path: w.path("a.txt"), Old: []byte("a\n")})
	if res.Applied || !strings.Contains(res.Reason, "changed twice") {
		t.Errorf("duplicate path: %+v", res)
	}
}

func TestDiskEditorUndo(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "a\n", "del.txt": "bye\n", "mv.txt": "move me\n", "script.sh": "#!/bin/sh\n"})
	if err := os.Chmod(w.path("script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		label  string
		change FileChange
	}{
		{"modify", FileChange{Op: OpModify, Path: w.path("a.txt"), Old: []byte("a\n"), New: []byte("A\n")}},
		{"create", FileChange{Op: OpCreate, Path: w.path("x/y/z.txt"), New: []byte("z\n")}},
		{"delete", FileChange{Op: OpDelete, Path: w.path("del.txt"), Old: []byte("bye\n")}},
		{"rename", FileChange{Op: OpRename, Path: w.path("mv.txt"), NewPath: w.path("moved/mv.txt"), Old: []byte("move me\n")}},
		{"mode", FileChange{Op: OpModify, Path: w.path("script.sh"), Old: []byte("#!/bin/sh\n"), New: []byte("#!/bin/sh\necho\n")}},
	}
	for _, s := range steps {
		if res, err := w.editor.Apply(context.Background(), s.label, []FileChange{s.change}); err != nil || !res.Applied {
			t.Fatalf("%s: %+v %v", s.label, res, err)
		}
	}
	if w.read(t, "a.txt") != "A\n" || w.read(t, "x/y/z.txt") != "z\n" || w.read(t, "moved/mv.txt") != "move me\n" {
		t.Fatal("changes not applied")
	}
	for _, gone := range []string{"del.txt", "mv.txt"} {
		if _, err := os.Stat(w.path(gone)); !os.IsNotExist(err) {
			t.Errorf("%s still exists", gone)
		}
	}
	if fi, _ := os.Stat(w.path("script.sh")); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode not preserved: %v", fi.Mode())
	}
	if fi, _ := os.Stat(w.path("x/y/z.txt")); fi.Mode().Perm() != newFileMode {
		t.Errorf("new file mode %v", fi.Mode())
	}
	if w.editor.UndoDepth() != 5 {
		t.Fatalf("undo depth %d", w.editor.UndoDepth())
	}
	// A file changed since the edit blocks its undo, and the entry stays.
	ftWrite(t, w.root, "script.sh", "changed by the user\n")
	if _, err := w.editor.Undo(); err == nil || !strings.Contains(err.Error(), "changed since the edit") {
		t.Fatalf("undo over a user change: %v", err)
	}
	if w.editor.UndoDepth() != 5 {
		t.Fatal("refused undo dropped the entry")
	}
	ftWrite(t, w.root, "script.sh", "#!/bin/sh\necho\n")
	for i := len(steps) - 1; i >= 0; i-- {
		label, err := w.editor.Undo()
		if err != nil || label != steps[i].label {
			t.Fatalf("undo %d: %q %v", i, label, err)
		}
	}
	want := map[string]string{"a.txt": "a\n", "del.txt": "bye\n", "mv.txt": "move me\n"}
	for rel, content := range want {
		if got := w.read(t, rel); got != content {
			t.Errorf("%s after undo: %q", rel, got)
		}
	}
	for _, gone := range []string{"x", "moved"} {
		if _, err := os.Stat(w.path(gone)); !os.IsNotExist(err) {
			t.Errorf("%s: created directory not removed by undo", gone)
		}
	}
	if _, err := w.editor.Undo(); err == nil {
		t.Error("undo on an empty stack succeeded")
	}
	ftNoTemps(t, w.root)
}

func TestDiskEditorUndoDepthCap(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "0"})
	w.editor.maxUndo = 3
	for i := range 5 {
		old, new := []byte{byte('0' + i)}, []byte{byte('1' + i)}
		if res := ftApply(t, w.editor, FileChange{Op: OpModify, Path: w.path("a.txt"), Old: old, New: new}); !res.Applied {
			t.Fatal(res.Reason)
		}
	}
	if w.editor.UndoDepth() != 3 {
		t.Fatalf("depth %d", w.editor.UndoDepth())
	}
	for range 3 {
		if _, err := w.editor.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.read(t, "a.txt"); got != "2" {
		t.Errorf("after 3 undos: %q", got)
	}
}

// TestCommitRollback makes the second rename fail (its target is a
// non-empty directory) and checks that the first file is restored.
func TestCommitRollback(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "a\n", "dir/keep": "k"})
	targets := []target{
		{abs: w.path("a.txt"), before: fileState{exists: true, content: []byte("a\n"), mode: 0o644}, after: fileState{exists: true, content: []byte("A\n"), mode: 0o644}},
		{abs: w.path("dir"), before: fileState{}, after: fileState{exists: true, content: []byte("x"), mode: 0o644}},
	}
	if _, err := commit(targets); err == nil {
		t.Fatal("commit over a directory succeeded")
	}
	if got := w.read(t, "a.txt"); got != "a\n" {
		t.Errorf("first file not rolled back: %q", got)
	}
	ftNoTemps(t, w.root)
}

// ftChangingEditor changes the file on disk right before delegating, as a
// user typing between the tool's read and the apply would.
type ftChangingEditor struct {
	inner *DiskEditor
	path  string
	n     *int
}

func (e ftChangingEditor) Apply(ctx context.Context, label string, changes []FileChange) (ApplyResult, error) {
	*e.n++
	if err := os.WriteFile(e.path, []byte(fmt.Sprintf("typed by the user %d\n", *e.n)), 0o644); err != nil {
		return ApplyResult{}, err
	}
	return e.inner.Apply(ctx, label, changes)
}

func TestStaleEditRefused(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "one\ntwo\n"})
	w.env.Editor = ftChangingEditor{inner: w.editor, path: w.path("a.txt"), n: new(int)}
	ftFail(t, editFileTool, w.env, map[string]any{"path": "a.txt", "old_string": "one", "new_string": "1"}, "not applied: ")
	msg := ftFail(t, writeFileTool, w.env, map[string]any{"path": "a.txt", "content": "x"}, staleReason)
	ftContains(t, msg, "a.txt")
	if got := w.read(t, "a.txt"); got != "typed by the user 2\n" {
		t.Errorf("the user's change was overwritten: %q", got)
	}
}
