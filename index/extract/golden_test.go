package extract

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// The golden fixtures are the spec of what each extractor produces. Each
// testdata/*.txtar holds "lang: <name>" in its comment, one source file and
// the expected outline.golden and refs.golden; go test -update rewrites the
// golden sections after a reviewed change.

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/*.txtar")

const (
	outlineGolden = "outline.golden"
	refsGolden    = "refs.golden"
)

type fixture struct {
	path    string
	archive *txtar.Archive
	lang    string
	srcName string
	src     []byte
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var out []fixture
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f := fixture{path: p, archive: a}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "lang:"); ok {
				f.lang = strings.TrimSpace(v)
			}
		}
		for _, file := range a.Files {
			if file.Name != outlineGolden && file.Name != refsGolden && f.srcName == "" {
				f.srcName, f.src = file.Name, file.Data
			}
		}
		if f.lang == "" || f.srcName == "" {
			t.Fatalf("%s: need a \"lang: <name>\" comment line and a source file", p)
		}
		out = append(out, f)
	}
	return out
}

func TestGolden(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(strings.TrimSuffix(filepath.Base(f.path), ".txtar"), func(t *testing.T) {
			ex := For(f.lang)
			if ex == nil {
				t.Fatalf("no extractor registered for %q", f.lang)
			}
			if testing.Short() && f.lang == "swift" {
				t.Skip("the swift grammar takes seconds and ~2 GB to load")
			}
			res, err := ex.Extract(context.Background(), f.srcName, f.src, Options{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			got := map[string]string{
				outlineGolden: formatOutline(res),
				refsGolden:    formatRefs(res),
			}
			if *update {
				writeGolden(t, f, got)
				return
			}
			for _, name := range []string{outlineGolden, refsGolden} {
				want, ok := goldenSection(f.archive, name)
				if !ok {
					t.Errorf("%s: no %s section; run go test -update", f.path, name)
					continue
				}
				if d := firstDiff(want, got[name]); d != "" {
					t.Errorf("%s %s differs (go test -run TestGolden -update rewrites it):\n%s\n--- full output:\n%s", f.path, name, d, got[name])
				}
			}
		})
	}
}

func goldenSection(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

func writeGolden(t *testing.T, f fixture, got map[string]string) {
	t.Helper()
	a := &txtar.Archive{Comment: f.archive.Comment}
	for _, file := range f.archive.Files {
		if file.Name != outlineGolden && file.Name != refsGolden {
			a.Files = append(a.Files, file)
		}
	}
	for _, name := range []string{outlineGolden, refsGolden} {
		a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(got[name])})
	}
	if err := os.WriteFile(f.path, txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDiff describes the first differing line, or returns "".
func firstDiff(want, got string) string {
	if want == got {
		return ""
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, w, g)
		}
	}
	return "outputs differ only in trailing newlines"
}

// formatOutline renders symbols as an indented tree, then package, imports,
// todos and the partial reason. Lines and columns are 1-based; columns count
// bytes, so a non-ASCII character before a name shifts it by its UTF-8 length.
func formatOutline(res *Result) string {
	var b strings.Builder
	depth := make([]int, len(res.Symbols))
	for i, s := range res.Symbols {
		if s.Parent >= 0 && int(s.Parent) < i {
			depth[i] = depth[s.Parent] + 1
		}
		indent := strings.Repeat("  ", depth[i])
		fmt.Fprintf(&b, "%s%s %s", indent, s.Kind, s.Name)
		if s.Container != "" {
			fmt.Fprintf(&b, " container=%s", s.Container)
		}
		fmt.Fprintf(&b, " %s sel=%s exported=%t", fmtRange(s.Range), fmtPos(s.Selection.Start), s.Exported)
		if s.Complexity > 0 {
			fmt.Fprintf(&b, " cx=%d", s.Complexity)
		}
		if s.Doc != "" {
			fmt.Fprintf(&b, " doc=%s", strconv.Quote(s.Doc))
		}
		fmt.Fprintf(&b, "\n%s  sig: %s\n", indent, s.Signature)
	}
	if res.Package != "" {
		fmt.Fprintf(&b, "package %s\n", res.Package)
	}
	for _, im := range res.Imports {
		if im.Name != "" {
			fmt.Fprintf(&b, "import %s %s L%d\n", im.Name, im.Path, im.Line+1)
		} else {
			fmt.Fprintf(&b, "import %s L%d\n", im.Path, im.Line+1)
		}
	}
	for _, td := range res.Todos {
		fmt.Fprintf(&b, "todo %s %s L%d\n", td.Tag, td.Text, td.Line+1)
	}
	if res.Partial != "" {
		fmt.Fprintf(&b, "partial: %s\n", res.Partial)
	}
	return b.String()
}

func fmtPos(p Pos) string { return fmt.Sprintf("L%d:%d", p.Line+1, p.Col+1) }

func fmtRange(r Range) string { return fmtPos(r.Start) + "-" + fmtPos(r.End) }

// formatRefs renders one line per distinct name, sorted, with every
// occurrence in document order.
func formatRefs(res *Result) string {
	refs := append([]Ref(nil), res.Refs...)
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].Pos.Less(refs[j].Pos) })
	byName := map[string][]string{}
	for _, r := range refs {
		occ := fmt.Sprintf("L%d:C%d", r.Pos.Line+1, r.Pos.Col+1)
		if r.Call {
			occ += "(call)"
		}
		switch {
		case r.Import > 0:
			occ += "(" + res.Imports[r.Import-1].Path + ".)"
		case r.Sel:
			occ += "(sel)"
		}
		byName[r.Name] = append(byName[r.Name], occ)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s\n", n, strings.Join(byName[n], " "))
	}
	return b.String()
}

// TestEveryLanguageHasGolden pins the supported languages: each has an
// extractor and a golden fixture, so dropping a registration (or a
// fixture) fails here instead of passing quietly.
func TestEveryLanguageHasGolden(t *testing.T) {
	want := []string{"bash", "c", "cpp", "csharp", "go", "java", "javascript", "kotlin",
		"lua", "php", "python", "ruby", "rust", "swift", "tsx", "typescript"}
	registered := Languages()
	slices.Sort(registered)
	if !slices.Equal(registered, want) {
		t.Errorf("registered extractors %q, want %q", registered, want)
	}
	var fixtures []string
	for _, f := range loadFixtures(t) {
		fixtures = append(fixtures, f.lang)
	}
	slices.Sort(fixtures)
	fixtures = slices.Compact(fixtures) // a language may have several
	if !slices.Equal(fixtures, want) {
		t.Errorf("golden fixtures cover %q, want %q", fixtures, want)
	}
}
