package tools

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

func TestMoveFile(t *testing.T) {
	tests := []struct {
		name     string
		from, to string
		want     string // the result, or the error when it starts with "!"
	}{
		{"rename", "a.txt", "b.txt", "Moved a.txt to b.txt (2 lines, 11 bytes)."},
		{"into existing dir", "a.txt", "dir/a.txt", "Moved a.txt to dir/a.txt (2 lines, 11 bytes)."},
		{"into new dirs", "a.txt", "new/sub/a.txt", "Moved a.txt to new/sub/a.txt (2 lines, 11 bytes). Created directory new/sub."},
		{"out of a dir, absolute", "<root>/dir/inner.txt", "<root>/inner.txt", "Moved dir/inner.txt to inner.txt (1 line, 6 bytes)."},
		{"binary", "bin.dat", "b.bin", "Moved bin.dat to b.bin (binary, 3 bytes)."},
		{"same path", "a.txt", "./a.txt", "!from and to are the same file (a.txt)"},
		{"to exists", "a.txt", "file", "!file already exists; move_file does not overwrite"},
		{"to is a directory", "a.txt", "dir", "!dir is an existing directory; give the full new path including the file name (for example dir/a.txt)"},
		{"to is the same file", "a.txt", "hard.txt", "!hard.txt already exists and is the same file as a.txt"},
		{"to is a big file", "a.txt", "big.log", "!big.log already exists"},
		{"to is a symlink", "bin.dat", "in.txt", "!in.txt exists (a symbolic link)"},
		{"to is a dangling symlink", "a.txt", "dangling", "!dangling exists (a symbolic link)"},
		{"to below a file", "a.txt", "file/sub/a.txt", "!cannot move to file/sub/a.txt: one of its parent directories is a file"},
		{"to inside a file", "a.txt", "file/a.txt", "!cannot move to file/a.txt: one of its parent directories is a file"},
		{"to escapes", "a.txt", "../a.txt", "!escapes the workspace root"},
		{"to outside", "a.txt", "<outside>/a.txt", "!outside workspace roots"},
		{"to through symlink out", "a.txt", "outdir/a.txt", "!resolves through a symlink"},
		{"from missing", "nope.txt", "b.txt", "!nope.txt does not exist"},
		{"from directory", "dir", "dir2", "!dir is a directory; move_file acts on single files only"},
		{"from too large", "big.log", "b.log", "!big.log is above the 10 MiB size limit; move_file cannot act on it"},
		{"from outside", "<outside>/secret.txt", "s.txt", "!outside workspace roots"},
		{"from symlink out", "out.txt", "b.txt", "!resolves through a symlink"},
		{"from symlink in", "in.txt", "b.txt", "!in.txt is a symbolic link (to a.txt)"},
		{"from empty", "", "b.txt", "!path is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, outside := ftFileWorkspace(t)
			r := strings.NewReplacer("<root>", w.root, "<outside>", outside)
			in := map[string]any{"from": r.Replace(tt.from), "to": r.Replace(tt.to)}
			before := ftSnapshot(t, w.root, outside)
			if msg, ok := strings.CutPrefix(tt.want, "!"); ok {
				ftFail(t, moveFileTool, w.env, in, msg)
				if after := ftSnapshot(t, w.root, outside); !reflect.DeepEqual(before, after) {
					t.Errorf("files changed on error:\nbefore %v\nafter  %v", before, after)
				}
				return
			}
			res := ftRun(t, moveFileTool, w.env, in)
			if res.IsError || res.Content != tt.want {
				t.Fatalf("got %+v, want %q", res, tt.want)
			}
			from, _, _ := w.env.Resolve(r.Replace(tt.from))
			to, _, _ := w.env.Resolve(r.Replace(tt.to))
			if len(res.Changes) != 1 || res.Changes[0].Op != OpRename || res.Changes[0].Path != from || res.Changes[0].NewPath != to ||
				string(res.Changes[0].Old) != before[from] || res.Changes[0].Version != DiskVersion {
				t.Errorf("changes %+v", res.Changes)
			}
			if lexists(from) {
				t.Errorf("%s still exists", from)
			}
			if got, err := os.ReadFile(to); err != nil || string(got) != before[from] {
				t.Errorf("%s holds %q, %v; want %q", to, got, err, before[from])
			}
			if label, err := w.editor.Undo(); err != nil || !strings.HasPrefix(label, "move ") {
				t.Fatalf("undo: %q %v", label, err)
			}
			// Undo restores the file and removes the directories the move made.
			if after := ftSnapshot(t, w.root, outside); !reflect.DeepEqual(before, after) {
				t.Errorf("undo did not restore:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func TestMoveFileNotApplied(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "now\n"})
	in := map[string]any{"from": "a.txt", "to": "sub/b.txt"}

	w.env.Files = ftStaleView{inner: w.env.Files, path: w.path("a.txt"), old: []byte("then\n")}
	ftFail(t, moveFileTool, w.env, in, "not applied: "+w.path("a.txt")+": "+staleReason)
	w.env.Files = &DiskView{}

	w.env.Editor = ftRejecter{}
	ftFail(t, moveFileTool, w.env, in, "not applied: the user rejected the edit")

	w.env.Editor = nil
	ftFail(t, moveFileTool, w.env, in, "editing is unavailable")

	if got := w.read(t, "a.txt"); got != "now\n" {
		t.Errorf("file changed: %q", got)
	}
	if lexists(w.path("sub")) {
		t.Error("refused move created the target directory")
	}
	if w.editor.UndoDepth() != 0 {
		t.Errorf("undo depth %d", w.editor.UndoDepth())
	}
}

func TestMoveFileAccess(t *testing.T) {
	w := ftNew(t, map[string]string{"src/a.go": "package a\n"})
	a, err := accessOf(moveFileTool, w.env, ftInput(t, map[string]any{"from": "src/a.go", "to": "lib/a.go"}))
	if err != nil || a.Kind != access.Edit || !reflect.DeepEqual(a.Paths, []string{"src/a.go", "lib/a.go"}) || a.Summary != "move src/a.go to lib/a.go" {
		t.Errorf("access %+v %v", a, err)
	}
	var ie *jsonschema.InputError
	for _, in := range []map[string]any{
		{"from": "../x", "to": "a"},
		{"from": "src/a.go", "to": "../x"},
		{"from": "src/a.go"},
	} {
		if _, err := accessOf(moveFileTool, w.env, ftInput(t, in)); !errors.As(err, &ie) {
			t.Errorf("%v: err = %v, want an InputError", in, err)
		}
	}
}
