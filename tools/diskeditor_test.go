package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// Confirm is asked with the changes as they will be written, after they
// were checked; a no leaves the disk alone, and a file that changes while
// the question is open is refused rather than overwritten. Written hears
// of every write, undo included.
func TestDiskEditorConfirmAndWritten(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "a\n"})
	var asked [][]FileChange
	answer := func(ok bool) func(context.Context, string, []FileChange) (bool, string, error) {
		return func(_ context.Context, _ string, changes []FileChange) (bool, string, error) {
			asked = append(asked, changes)
			if !ok {
				return false, "the user said no", nil
			}
			return true, "", nil
		}
	}
	var written [][]string
	opts := DiskEditorOptions{Written: func(_ context.Context, paths []string) { written = append(written, paths) }}
	modify := FileChange{Op: OpModify, Path: w.path("a.txt"), Old: []byte("a\n"), New: []byte("A\n")}

	opts.Confirm = answer(false)
	ed := NewDiskEditorWith(w.env.Roots, opts)
	res := ftApply(t, ed, modify)
	if res.Applied || res.Reason != "the user said no" || w.read(t, "a.txt") != "a\n" || len(asked) != 1 || len(written) != 0 {
		t.Fatalf("refused edit: %+v, file %q, asked %d, written %v", res, w.read(t, "a.txt"), len(asked), written)
	}
	if string(asked[0][0].New) != "A\n" {
		t.Errorf("asked about %+v", asked[0])
	}
	// A stale change is refused without a question.
	res = ftApply(t, ed, FileChange{Op: OpModify, Path: w.path("a.txt"), Old: []byte("stale\n"), New: []byte("x")})
	if res.Applied || !strings.Contains(res.Reason, staleReason) || len(asked) != 1 {
		t.Fatalf("stale edit: %+v, asked %d times", res, len(asked))
	}
	// The user edits the file while looking at the question.
	opts.Confirm = func(ctx context.Context, label string, changes []FileChange) (bool, string, error) {
		ftWrite(t, w.root, "a.txt", "typed meanwhile\n")
		return answer(true)(ctx, label, changes)
	}
	ed = NewDiskEditorWith(w.env.Roots, opts)
	res = ftApply(t, ed, modify)
	if res.Applied || !strings.Contains(res.Reason, staleReason) || w.read(t, "a.txt") != "typed meanwhile\n" {
		t.Fatalf("edit over a change made during the question: %+v, file %q", res, w.read(t, "a.txt"))
	}
	// Yes writes, and Written hears of it and of the undo.
	ftWrite(t, w.root, "a.txt", "a\n")
	opts.Confirm = answer(true)
	ed = NewDiskEditorWith(w.env.Roots, opts)
	if res := ftApply(t, ed, modify); !res.Applied || w.read(t, "a.txt") != "A\n" {
		t.Fatalf("approved edit: %+v", res)
	}
	if _, err := ed.Undo(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{w.path("a.txt")}, {w.path("a.txt")}}
	if fmt.Sprint(written) != fmt.Sprint(want) {
		t.Errorf("written %v, want %v", written, want)
	}
	// A cancelled question is an error, and nothing is written.
	opts.Confirm = func(ctx context.Context, _ string, _ []FileChange) (bool, string, error) {
		return false, "", context.Canceled
	}
	ed = NewDiskEditorWith(w.env.Roots, opts)
	if _, err := ed.Apply(context.Background(), "test", []FileChange{modify}); err != context.Canceled || w.read(t, "a.txt") != "a\n" {
		t.Errorf("cancelled question: %v, file %q", err, w.read(t, "a.txt"))
	}
}

// memUndo is an UndoStore in memory, recording what it was asked to do.
type memUndo struct {
	entries map[uint64]UndoEntry
	fail    error
}

func (m *memUndo) LoadUndo() ([]UndoEntry, error) {
	var out []UndoEntry
	for _, e := range m.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b UndoEntry) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

func (m *memUndo) SaveUndo(add *UndoEntry, remove []uint64) error {
	if m.fail != nil {
		return m.fail
	}
	if m.entries == nil {
		m.entries = map[uint64]UndoEntry{}
	}
	for _, seq := range remove {
		delete(m.entries, seq)
	}
	if add != nil {
		m.entries[add.Seq] = *add
	}
	return nil
}

// The undo stack outlives the editor through its UndoStore: a new editor
// on the same store reverts a modify, a create, a delete and a move, and
// refuses (changing nothing) when the file changed since.
func TestDiskEditorUndoStore(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "a\n", "del.txt": "bye\n", "mv.txt": "move me\n"})
	store := &memUndo{}
	first := NewDiskEditor(w.env.Roots)
	if err := first.UseUndo(store); err != nil {
		t.Fatal(err)
	}
	steps := []FileChange{
		{Op: OpModify, Path: w.path("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		{Op: OpCreate, Path: w.path("new/c.txt"), New: []byte("c\n")},
		{Op: OpDelete, Path: w.path("del.txt"), Old: []byte("bye\n")},
		{Op: OpRename, Path: w.path("mv.txt"), NewPath: w.path("moved.txt"), Old: []byte("move me\n")},
	}
	for i, c := range steps {
		if res, err := first.Apply(context.Background(), fmt.Sprint("step ", i), []FileChange{c}); err != nil || !res.Applied {
			t.Fatalf("step %d: %+v %v", i, res, err)
		}
	}
	if len(store.entries) != 4 {
		t.Fatalf("store holds %d entries, want 4", len(store.entries))
	}
	// Only what undo needs is kept: the created file's content is not.
	for _, e := range store.entries {
		if e.Label == "step 1" && (len(e.Files) != 1 || e.Files[0].Before != nil || !e.Files[0].Left || e.Files[0].LeftSHA256 == "") {
			t.Errorf("create entry %+v", e)
		}
	}

	// "The next process."
	second := NewDiskEditor(w.env.Roots)
	if err := second.UseUndo(store); err != nil {
		t.Fatal(err)
	}
	ftWrite(t, w.root, "moved.txt", "edited by the user\n")
	_, err := second.Undo()
	if err == nil || !strings.Contains(err.Error(), "moved.txt changed since the edit; nothing was undone") {
		t.Fatalf("undo over a user change: %v", err)
	}
	if w.read(t, "moved.txt") != "edited by the user\n" || second.UndoDepth() != 4 || len(store.entries) != 4 {
		t.Fatal("a refused undo changed something")
	}
	ftWrite(t, w.root, "moved.txt", "move me\n")
	for i := len(steps) - 1; i >= 0; i-- {
		if label, err := second.Undo(); err != nil || label != fmt.Sprint("step ", i) {
			t.Fatalf("undo %d: %q %v", i, label, err)
		}
	}
	if len(store.entries) != 0 {
		t.Errorf("store still holds %v", store.entries)
	}
	for rel, want := range map[string]string{"a.txt": "a\n", "del.txt": "bye\n", "mv.txt": "move me\n"} {
		if got := w.read(t, rel); got != want {
			t.Errorf("%s = %q after undo, want %q", rel, got, want)
		}
	}
	for _, gone := range []string{"new", "moved.txt"} {
		if _, err := os.Stat(w.path(gone)); !os.IsNotExist(err) {
			t.Errorf("%s survived the undo", gone)
		}
	}
	// Switching to no store starts an empty stack.
	if err := second.UseUndo(nil); err != nil || second.UndoDepth() != 0 {
		t.Errorf("UseUndo(nil): %v, depth %d", err, second.UndoDepth())
	}
}

// The stack is bounded by bytes as well as entries, in memory and in the
// store; the newest entry is kept whatever its size. A store that cannot
// save is reported, and the edit stands.
func TestDiskEditorUndoBytes(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "0"})
	store := &memUndo{}
	var warned []error
	ed := NewDiskEditorWith(w.env.Roots, DiskEditorOptions{Warn: func(err error) { warned = append(warned, err) }})
	ed.maxUndoBytes = 10
	if err := ed.UseUndo(store); err != nil {
		t.Fatal(err)
	}
	cur := "0"
	apply := func(next string) {
		t.Helper()
		if res := ftApply(t, ed, FileChange{Op: OpModify, Path: w.path("a.txt"), Old: []byte(cur), New: []byte(next)}); !res.Applied {
			t.Fatal(res.Reason)
		}
		cur = next
	}
	depth := func(want int) {
		t.Helper()
		if ed.UndoDepth() != want || len(store.entries) != want {
			t.Fatalf("depth %d, stored %d; want %d", ed.UndoDepth(), len(store.entries), want)
		}
	}
	apply("aaaa")     // keeps "0": 1 byte
	apply("bbbbbbbb") // keeps "aaaa": 5 bytes in all
	depth(2)
	apply("c") // keeps "bbbbbbbb": 13 bytes, so the two oldest go
	depth(1)
	apply("ddddd") // keeps "c": 9 bytes
	depth(2)
	apply(strings.Repeat("e", 20)) // keeps "ddddd": 14 bytes, the oldest goes
	depth(2)
	apply("f") // keeps 20 bytes: over the bound alone, and still kept
	depth(1)
	store.fail = errors.New("disk full")
	apply("g")
	if len(warned) != 1 || !strings.Contains(warned[0].Error(), "disk full") || w.read(t, "a.txt") != "g" {
		t.Fatalf("warnings %v, file %q", warned, w.read(t, "a.txt"))
	}
}
