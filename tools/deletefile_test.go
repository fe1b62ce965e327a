package tools

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

// ftStaleView is a FileView that returns old content for one path, as if
// the file changed on disk after the tool read it.
type ftStaleView struct {
	inner FileView
	path  string
	old   []byte
}

func (v ftStaleView) Read(abs string) ([]byte, int32, error) {
	if abs == v.path {
		return v.old, DiskVersion, nil
	}
	return v.inner.Read(abs)
}

// ftFileWorkspace is the workspace the delete and move tests share: text,
// binary and big files, a hard link, a directory, symbolic links in and
// out of the root.
func ftFileWorkspace(t *testing.T) (w *ftWorkspace, outside string) {
	t.Helper()
	w = ftNew(t, map[string]string{
		"a.txt":         "alpha\nbeta\n",
		"bin.dat":       "\x00\x01\x02",
		"dir/inner.txt": "inner\n",
		"file":          "not a directory\n",
	})
	outside = t.TempDir()
	ftWrite(t, outside, "secret.txt", "secret\n")
	for link, target := range map[string]string{
		"out.txt":  filepath.Join(outside, "secret.txt"),
		"outdir":   outside,
		"in.txt":   w.path("a.txt"),
		"dangling": w.path("nowhere.txt"),
	} {
		if err := os.Symlink(target, w.path(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(w.path("a.txt"), w.path("hard.txt")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(w.path("big.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(MaxFileSize + 1); err != nil { // sparse: cheap
		t.Fatal(err)
	}
	big.Close()
	return w, outside
}

func TestDeleteFile(t *testing.T) {
	tests := []struct {
		name string
		path string
		want string // the result, or the error when it starts with "!"
	}{
		{"text", "a.txt", "Deleted a.txt (2 lines, 11 bytes)."},
		{"binary", "bin.dat", "Deleted bin.dat (binary, 3 bytes)."},
		{"nested, absolute", "<root>/dir/inner.txt", "Deleted dir/inner.txt (1 line, 6 bytes)."},
		{"missing", "nope.txt", "!nope.txt does not exist"},
		{"directory", "dir", "!dir is a directory; delete_file acts on single files only"},
		{"root", ".", "!is a directory"},
		{"too large", "big.log", "!big.log is above the 10 MiB size limit; delete_file cannot act on it"},
		{"escape", "../x.txt", "!escapes the workspace root"},
		{"outside absolute", "<outside>/secret.txt", "!outside workspace roots"},
		{"symlink out", "out.txt", "!resolves through a symlink"},
		{"through linked dir", "outdir/secret.txt", "!resolves through a symlink"},
		{"symlink in", "in.txt", "!in.txt is a symbolic link (to a.txt)"},
		{"dangling symlink", "dangling", "!dangling is a symbolic link"},
		{"empty", " ", "!path is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, outside := ftFileWorkspace(t)
			path := strings.NewReplacer("<root>", w.root, "<outside>", outside).Replace(tt.path)
			in := map[string]any{"path": path}
			before := ftSnapshot(t, w.root, outside)
			if msg, ok := strings.CutPrefix(tt.want, "!"); ok {
				ftFail(t, deleteFileTool, w.env, in, msg)
				if after := ftSnapshot(t, w.root, outside); !reflect.DeepEqual(before, after) {
					t.Errorf("files changed on error:\nbefore %v\nafter  %v", before, after)
				}
				return
			}
			res := ftRun(t, deleteFileTool, w.env, in)
			if res.IsError || res.Content != tt.want {
				t.Fatalf("got %+v, want %q", res, tt.want)
			}
			abs, _, err := w.env.Resolve(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Changes) != 1 || res.Changes[0].Op != OpDelete || res.Changes[0].Path != abs ||
				string(res.Changes[0].Old) != before[abs] || res.Changes[0].Version != DiskVersion {
				t.Errorf("changes %+v", res.Changes)
			}
			if lexists(abs) {
				t.Fatalf("%s still exists", abs)
			}
			if label, err := w.editor.Undo(); err != nil || !strings.HasPrefix(label, "delete ") {
				t.Fatalf("undo: %q %v", label, err)
			}
			if after := ftSnapshot(t, w.root, outside); !reflect.DeepEqual(before, after) {
				t.Errorf("undo did not restore:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func TestDeleteFileNotApplied(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "now\n"})
	in := map[string]any{"path": "a.txt"}

	w.env.Files = ftStaleView{inner: w.env.Files, path: w.path("a.txt"), old: []byte("then\n")}
	ftFail(t, deleteFileTool, w.env, in, "not applied: "+w.path("a.txt")+": "+staleReason)
	w.env.Files = &DiskView{}

	w.env.Editor = ftRejecter{}
	ftFail(t, deleteFileTool, w.env, in, "not applied: the user rejected the edit")

	w.env.Editor = nil
	ftFail(t, deleteFileTool, w.env, in, "editing is unavailable")

	if got := w.read(t, "a.txt"); got != "now\n" {
		t.Errorf("file changed: %q", got)
	}
	if w.editor.UndoDepth() != 0 {
		t.Errorf("undo depth %d", w.editor.UndoDepth())
	}
}

func TestDeleteFileAccess(t *testing.T) {
	w := ftNew(t, map[string]string{"src/a.go": "package a\n"})
	a, err := accessOf(deleteFileTool, w.env, ftInput(t, map[string]any{"path": "src/a.go"}))
	if err != nil || a.Kind != access.Edit || !reflect.DeepEqual(a.Paths, []string{"src/a.go"}) || a.Summary != "delete src/a.go" {
		t.Errorf("access %+v %v", a, err)
	}
	var ie *jsonschema.InputError
	if _, err := accessOf(deleteFileTool, w.env, ftInput(t, map[string]any{"path": "../x"})); !errors.As(err, &ie) {
		t.Errorf("outside path: err = %v, want an InputError", err)
	}
	if _, err := accessOf(deleteFileTool, w.env, ftInput(t, `{}`)); !errors.As(err, &ie) {
		t.Errorf("no path: err = %v, want an InputError", err)
	}
}

// ftSnapshot maps every file and symbolic link under dirs to its content
// (links to "-> target"); directories map to "/".
func ftSnapshot(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.Type()&os.ModeSymlink != 0:
				target, err := os.Readlink(p)
				out[p] = "-> " + target
				return err
			case d.IsDir():
				out[p] = "/"
				return nil
			case d.Name() == "big.log":
				out[p] = "big"
				return nil
			}
			b, err := os.ReadFile(p)
			out[p] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
