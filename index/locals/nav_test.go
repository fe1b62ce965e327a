package locals_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/index/syntax"
)

// TestLocalsFixtures resolves the uses each testdata/locals_*.txtar lists
// through DefinitionsAt and ReferencesAt, the path the server, the CLI
// and the tools share.
func TestLocalsFixtures(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "locals_*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, archive := range archives {
		if navtest.RaceDetector && strings.HasSuffix(archive, "_swift.txtar") {
			continue // see race_on_test.go
		}
		t.Run(filepath.Base(archive), func(t *testing.T) {
			navtest.CheckDefinitionFixture(t, filepath.Base(archive), nil, func(st *index.Store, file string, src []byte, off int, read func(string) ([]byte, error)) string {
				return localsAnswer(t, st, file, src, off, read)
			})
		})
	}
}

// localsAnswer is "DEF | REFS" for the use at off (see the fixtures).
func localsAnswer(t *testing.T, st *index.Store, file string, src []byte, off int, read syntax.SourceReader) string {
	t.Helper()
	if h, _ := st.Header(file); h.Status == index.StatusSkipped && index.OptInLanguages[h.Lang] != "" {
		// As an editor does once the user turned the language on.
		if err := st.PutContent(context.Background(), file, src, index.Options{EnableLanguages: []string{h.Lang}}); err != nil {
			t.Fatal(err)
		}
	}
	name, _ := index.IdentAt(src, off)
	at := func(path string, line, col uint32) string {
		if path == file {
			return fmt.Sprintf("%d:%d", line+1, col+1)
		}
		return fmt.Sprintf("%s:%d", path, line+1)
	}
	def := "-"
	defs, _, err := nav.DefinitionsAt(st, file, src, off, name, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) > 0 {
		def = at(defs[0].Path, defs[0].Selection.Start.Line, defs[0].Selection.Start.Col)
	}
	refs, resolved, err := nav.ReferencesAt(st, file, src, off, name, 0, read)
	if err != nil {
		t.Fatal(err)
	}
	if !resolved {
		return def + " | *"
	}
	var out []string
	for _, r := range refs {
		out = append(out, at(r.Path, r.Pos.Line, r.Pos.Col))
	}
	return def + " | " + strings.Join(out, " ")
}
