package index

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestWarmSyntax: warming a buffer parses it and the modules its imports
// lead to into the tree cache, so that a resolution in it parses nothing;
// a cancelled store warms nothing.
func TestWarmSyntax(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	src, err := os.ReadFile(filepath.Join(root, "app", "main.py"))
	if err != nil {
		t.Fatal(err)
	}

	st.CancelResolutions()
	if got := st.WarmSyntax("app/main.py", src, readUnder(root)); len(got) != 0 {
		t.Errorf("warmed while cancelled: %v", got)
	}
	st.ResumeResolutions()

	got := st.WarmSyntax("app/main.py", src, readUnder(root))
	want := []string{"app/main.py", "pkg/models.py", "pkg/__init__.py", "pkg/util.py", "pkg/star.py", "app/sibling.py"}
	if !slices.Equal(got, want) {
		t.Errorf("warmed %v, want %v", got, want)
	}
	for _, rel := range want {
		if _, ok := st.py.files["python:"+rel]; !ok {
			t.Errorf("%s not in the tree cache", rel)
		}
	}
	// Everything u.save (line 17) needs is cached: resolving it parses
	// nothing.
	r := newPyResolver(st, readUnder(root))
	f := r.file("app/main.py", src)
	tg, ok := r.resolveIdent(f, pyIdentAt(f, lineOffset(src, 16)+6))
	r.release()
	if !ok || tg.Path != "pkg/models.py" || r.parsed != 0 {
		t.Errorf("u.save after warming: %v %v, parsed %d bytes; want pkg/models.py, none parsed", tg, ok, r.parsed)
	}
	if got := st.WarmSyntax("notes.txt", []byte("x"), readUnder(root)); got != nil {
		t.Errorf("warmed a text file: %v", got)
	}
}

// lineOffset is the byte offset of 0-based line n of src.
func lineOffset(src []byte, n int) int {
	off := 0
	for ; n > 0; n-- {
		off += slices.Index(src[off:], '\n') + 1
	}
	return off
}
