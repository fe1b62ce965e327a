package complete

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/internal/fixture"
)

// shopStore indexes testdata/shop.txtar.
func shopStore(t *testing.T) (*index.Store, string) {
	t.Helper()
	root := fixture.Extract(t, filepath.Join("testdata", "shop.txtar"))
	st, err := nav.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), root, index.Options{}); err != nil {
		t.Fatal(err)
	}
	return st, root
}

// cursorAfter returns src with the rest of the line after the first
// occurrence of mark removed, and the offset right after mark.
func cursorAfter(t *testing.T, src, mark string) ([]byte, int) {
	t.Helper()
	i := strings.Index(src, mark)
	if i < 0 {
		t.Fatalf("%q not in the source", mark)
	}
	off := i + len(mark)
	end := off + strings.IndexByte(src[off:], '\n')
	return []byte(src[:off] + src[end:]), off
}

func TestBuildGoMembers(t *testing.T) {
	st, root := shopStore(t)
	raw, err := os.ReadFile(filepath.Join(root, "app", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	text, off := cursorAfter(t, string(raw), "\t\ts.")
	p := Build(Source{Store: st, Path: "app/main.go", Language: "go", Text: text, Offset: off}, Budget{})
	r := p.Request
	if !strings.HasSuffix(r.Prefix, "\t\ts.") || !strings.HasPrefix(r.Suffix, "\n\t}") {
		t.Errorf("prefix/suffix not cut at the cursor: %q | %q", r.Prefix, r.Suffix)
	}
	if r.Multiline {
		t.Error("a selector asks for the rest of the line, got multiline")
	}
	if len(r.Context) == 0 {
		t.Fatal("no context")
	}
	first := r.Context[0]
	if first.Path != "store/store.go" || first.Why != "members of s's type Store" {
		t.Fatalf("first snippet %s (%s), want store/store.go's members of s's type Store", first.Path, first.Why)
	}
	for _, want := range []string{"func (s *Store) Add(item string, n int) error", "// Count is how many of item the store holds.", "Name  string"} {
		if !strings.Contains(first.Text, want) {
			t.Errorf("members snippet lacks %q:\n%s", want, first.Text)
		}
	}
	if strings.Contains(first.Text, "items map") {
		t.Errorf("another package's unexported field offered:\n%s", first.Text)
	}
	if first.StartLine < 1 || first.EndLine < first.StartLine {
		t.Errorf("snippet lines %d-%d", first.StartLine, first.EndLine)
	}
	// The call on the line above the cursor: pricing.Discountable.
	var calls bool
	for _, sn := range r.Context {
		if sn.Why == "called near the cursor" && strings.Contains(sn.Text, "func Discountable(item string) bool") {
			calls = true
		}
	}
	if !calls {
		t.Errorf("no snippet of the call near the cursor: %+v", r.Context)
	}
}

func TestBuildBudget(t *testing.T) {
	st, root := shopStore(t)
	raw, _ := os.ReadFile(filepath.Join(root, "app", "main.go"))
	text, off := cursorAfter(t, string(raw), "\t\ts.")
	lines := func(s string) int { return strings.Count(s, "\n") }
	p := Build(Source{Store: st, Path: "app/main.go", Language: "go", Text: text, Offset: off}, Budget{Context: 24, Prefix: 12, Suffix: 4, Count: func(s string) int { return lines(s) + 1 }})
	if p.ContextTokens > 24 {
		t.Errorf("context %d tokens over a budget of 24", p.ContextTokens)
	}
	if !strings.HasSuffix(p.Request.Prefix, "s.") || strings.Contains(p.Request.Prefix, "package main") {
		t.Errorf("prefix not cut to the budget at a line start: %q", p.Request.Prefix)
	}
	if !strings.HasPrefix(p.Request.Suffix, "\n") || lines(p.Request.Suffix) > 3 {
		t.Errorf("suffix not cut to the budget: %q", p.Request.Suffix)
	}
}

func TestBuildRecentAndLexical(t *testing.T) {
	st, root := shopStore(t)
	raw, _ := os.ReadFile(filepath.Join(root, "app", "main.go"))
	text, off := cursorAfter(t, string(raw), "\treturn")
	recent := []RecentEdit{{Path: "store/store.go", StartLine: 20, EndLine: 20, After: "func (s *Store) Remove(item string, n int) error { return nil }\n"}}
	p := Build(Source{Store: st, Path: "app/main.go", Language: "go", Text: text, Offset: off, Recent: recent}, Budget{})
	var whys []string
	for _, sn := range p.Request.Context {
		whys = append(whys, sn.Why)
	}
	got := strings.Join(whys, "; ")
	for _, want := range []string{"recently edited", "declares Add, used near the cursor"} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q: %s", want, got)
		}
	}
}

func TestBuildNoStore(t *testing.T) {
	p := Build(Source{Path: "a.go", Language: "go", Text: []byte("package a\n\nfunc f() {\n\t\n}\n"), Offset: 23}, Budget{})
	if !p.Request.Multiline || len(p.Request.Context) != 0 || p.Request.Prefix != "package a\n\nfunc f() {\n\t" {
		t.Errorf("%+v", p.Request)
	}
}

// TestAddHitsCompact: a long member list shows every signature, the best
// fullHits under their docs, so that more members fit the budget.
func TestAddHitsCompact(t *testing.T) {
	var hits []index.SymbolHit
	for i := range 30 {
		name := fmt.Sprintf("M%02d", i)
		hits = append(hits, index.SymbolHit{Path: "t/t.go", Symbol: extract.Symbol{Name: name, Signature: "func (T) " + name + "(a, b int) error", Doc: name + " does a thing.", Range: extract.Range{Start: extract.Pos{Line: uint32(i)}}}})
	}
	c := &snippets{budget: 1000, count: func(s string) int { return (len(s) + 3) / 4 }, seen: map[string]bool{}}
	addHits(c, hits, "members")
	if len(c.list) != 1 {
		t.Fatalf("snippets %+v", c.list)
	}
	text := c.list[0].Text
	if n, d := strings.Count(text, "func (T) "), strings.Count(text, "does a thing."); n != 30 || d != fullHits {
		t.Errorf("%d signatures and %d docs, want 30 and %d:\n%s", n, d, fullHits, text)
	}
	if strings.Contains(text, "M16 does") || !strings.Contains(text, "M15 does") || c.list[0].EndLine != 30 {
		t.Errorf("docs past the best %d, or lines %d-%d:\n%s", fullHits, c.list[0].StartLine, c.list[0].EndLine, text)
	}
}

// TestWarmCountsLines: Warm counts each line as cutPrefix will (with its
// newline), so the first request in an opened file finds them counted.
func TestWarmCountsLines(t *testing.T) {
	var counted []string
	Warm(nil, "a.py", []byte("one\ntwo\nthree"), func(s string) int { counted = append(counted, s); return 1 })
	if got := strings.Join(counted, "|"); got != "one\n|two\n|three" {
		t.Errorf("counted %q", got)
	}
	counted = nil
	memo := MemoCount(func(s string) int { counted = append(counted, s); return len(s) })
	Warm(nil, "a.py", []byte("x = 1\ny = 2\n"), memo)
	n := len(counted)
	cutPrefix("x = 1\ny = 2\nz", 100, memo)
	// Only the cursor's own line, being typed, is new.
	if got := counted[n:]; len(got) != 1 || got[0] != "z" {
		t.Errorf("counted after Warm: %q, want only the cursor's line", got)
	}
}
