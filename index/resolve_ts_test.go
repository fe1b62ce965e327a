package index

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestResolveTSFixture indexes testdata/resolve_ts.txtar and resolves each
// use its "want" file lists with TSDefinitions.
func TestResolveTSFixture(t *testing.T) {
	archive := filepath.Join("testdata", "resolve_ts.txtar")
	root := fixture.Extract(t, archive)
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	for _, line := range fixtureWant(t, archive) {
		use, want, ok := strings.Cut(line, " -> ")
		if !ok {
			t.Fatalf("malformed want line %q", line)
		}
		loc, text, _ := strings.Cut(use, " ")
		file, src, off, err := fixtureUse(root, loc, text)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		got := "-"
		if tg, ok := st.TSDefinitions(file, src, off, readUnder(root)); ok {
			got = fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
		}
		if got != want {
			t.Errorf("%s %s: got %s, want %s", loc, text, got, want)
		}
	}
}
