package golang

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestGoPredeclaredAt indexes testdata/gouniverse.txtar with its @ marks
// removed and asks PredeclaredAt at each mark; the words after // on a
// line ("yes", "no") are the answers for that line's marks in order.
func TestGoPredeclaredAt(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "gouniverse.txtar"))
	type mark struct {
		file string
		off  int
		line int
		want bool
	}
	var marks []mark
	answer := regexp.MustCompile(`\b(yes|no)\b`)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		var clean []byte
		for i, line := range strings.SplitAfter(string(b), "\n") {
			code, comment, _ := strings.Cut(line, "//")
			words := answer.FindAllString(comment, -1)
			n := 0
			for {
				j := strings.IndexByte(code, '@')
				if j < 0 {
					break
				}
				if n >= len(words) {
					t.Fatalf("%s:%d: more marks than answers", rel, i+1)
				}
				marks = append(marks, mark{rel, len(clean) + j, i + 1, words[n] == "yes"})
				n++
				code = code[:j] + code[j+1:]
			}
			clean = append(clean, code...)
			if comment != "" || strings.Contains(line, "//") {
				clean = append(clean, "//"+comment...)
			}
		}
		return os.WriteFile(p, clean, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(marks) < 15 {
		t.Fatalf("%d marks; the fixture has more", len(marks))
	}
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	for _, m := range marks {
		src, err := os.ReadFile(filepath.Join(root, m.file))
		if err != nil {
			t.Fatal(err)
		}
		name := identAt(src, m.off)
		if got := PredeclaredAt(st, filepath.ToSlash(m.file), src, m.off, name); got != m.want {
			t.Errorf("%s:%d %s: got %v, want %v", m.file, m.line, name, got, m.want)
		}
	}
}
