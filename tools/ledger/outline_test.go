package ledger

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index/extract"
)

// On the extractors' golden fixtures of every language, the outline keeps
// every import and the header line of every symbol that is not inside a
// function body (types, their fields and methods' signatures, constants,
// functions) but for the middle members of long enums, and elides at
// least one body in each.
func TestOutlineKeepsDeclarations(t *testing.T) {
	paths, err := filepath.Glob("../../index/extract/testdata/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			lang, name, src := goldenSource(t, p)
			res, err := extract.For(lang).Extract(context.Background(), name, src, extract.Options{})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
			elided := OutlineElisions(lang, lines, res.Symbols)
			ov := RenderOutline(name, lines, elided)
			kept := func(line int) bool { return covered(ov.Kept, line, line) }
			for _, imp := range res.Imports {
				if !kept(int(imp.Line) + 1) {
					t.Errorf("import %s (line %d) elided", imp.Path, imp.Line+1)
				}
			}
			folded := FoldedEnumMembers(res.Symbols)
			for i, s := range res.Symbols {
				if inBody(res.Symbols, i) || folded[i] {
					continue
				}
				if n := int(s.Selection.Start.Line) + 1; !kept(n) || !strings.Contains(ov.Text, lines[n-1]) {
					t.Errorf("%s %s (line %d) elided", s.Kind, s.Name, n)
				}
			}
			if len(elided) == 0 {
				t.Errorf("no body elided:\n%s", ov.Text)
			}
		})
	}
}

// inBody says whether symbol i is declared inside a function body.
func inBody(syms []extract.Symbol, i int) bool {
	for p := syms[i].Parent; p >= 0; p = syms[p].Parent {
		switch syms[p].Kind {
		case extract.KindFunction, extract.KindMethod, extract.KindConstructor:
			return true
		}
	}
	return false
}

func goldenSource(t *testing.T, path string) (lang, name string, src []byte) {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "lang:"); ok {
			lang = strings.TrimSpace(v)
		}
	}
	for _, f := range a.Files {
		if !strings.HasSuffix(f.Name, ".golden") {
			return lang, f.Name, f.Data
		}
	}
	t.Fatalf("%s: no source file", path)
	return "", "", nil
}
