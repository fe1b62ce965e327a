package golang

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestCompletionAtFixture checks testdata/complete_go.txtar's cursors.
func TestCompletionAtFixture(t *testing.T) {
	archive := filepath.Join("testdata", "complete_go.txtar")
	root := fixture.Extract(t, archive)
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name != "want" {
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
			use, want, ok := strings.Cut(line, " -> ")
			if !ok {
				t.Fatalf("malformed want line %q", line)
			}
			got, err := completionFixture(st, root, use, want)
			if err != nil {
				t.Fatalf("%s: %v", use, err)
			}
			if got != want {
				t.Errorf("%s\n got %s\nwant %s", use, got, want)
			}
		}
	}
}

// completionFixture runs CompletionAt at use ("FILE:LINE TEXT|") with
// the rest of that line removed (what follows TEXT's last dot typed in its
// place) and prints the part want names.
func completionFixture(st *index.Store, root, use, want string) (string, error) {
	loc, text, _ := strings.Cut(use, " ")
	text = strings.TrimSuffix(text, "|")
	file, ln, _ := strings.Cut(loc, ":")
	n, err := strconv.Atoi(ln)
	if err != nil {
		return "", err
	}
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return "", err
	}
	start := navtest.LineOffset(src, n-1)
	end := start + strings.IndexByte(string(src[start:]), '\n')
	// What follows TEXT's last dot is typed, not found on the line.
	find, typed := text, ""
	if d := strings.LastIndexByte(text, '.'); d >= 0 {
		find, typed = text[:d+1], text[d+1:]
	}
	i := strings.Index(string(src[start:end]), find)
	if i < 0 {
		return "", fmt.Errorf("%q not on line %d", find, n)
	}
	cut := start + i + len(find)
	buf := slices.Concat(src[:cut], []byte(typed), src[end:])
	off := cut + len(typed)
	cur := CompletionAt(st, file, buf, off)
	part, _, _ := strings.Cut(want, ":")
	var names []string
	switch part {
	case "members", "enclosing":
		set := cur.Members
		if part == "enclosing" {
			set = cur.Enclosing
		}
		if set != nil {
			for _, h := range set.Hits {
				names = append(names, h.Symbol.Name)
			}
		}
	case "calls":
		for _, h := range cur.Calls {
			names = append(names, h.Symbol.Name)
		}
	}
	if len(names) == 0 {
		names = []string{"-"}
	}
	return part + ": " + strings.Join(names, " "), nil
}

// TestCompletionAtBrokenBuffer: a buffer with many syntax errors (a line
// cut short in a block, more errors than go/parser reports by default)
// gives what it can, never a panic.
func TestCompletionAtBrokenBuffer(t *testing.T) {
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	for _, src := range []string{
		"package p\nfunc f() {\n\tx := a[(\n" + strings.Repeat("\t}}} ))) ]]\n", 30) + "\ts.",
		"",
		"s.",
		"package p\nfunc f() { defer os.",
	} {
		CompletionAt(st, "p/p.go", []byte(src), len(src))
	}
}
