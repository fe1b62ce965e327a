package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/workspace"
)

// TestWideLinesMatchLines checks that keeping only the non-ASCII lines
// converts every byte column within a line (the index records no other)
// exactly as the whole file's line table does.
func TestWideLinesMatchLines(t *testing.T) {
	cases := map[string]string{
		"empty":          "",
		"ascii":          "package a\nfunc F() {}\n",
		"mixed":          "a := 1\n// «é» x\nb\n😀 y := 2\n",
		"crlf":           "x\r\n«y» z\r\nw\r\n",
		"no final eol":   "ab\né",
		"wide first":     "é\nabc",
		"blank lines":    "\n\né\n\n",
		"invalid utf-8":  "a\xffb c\n",
		"surrogate pair": "s := \"𝄞\" + t\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			full := workspace.NewLines([]byte(text))
			w := newWideLines([]byte(text), 1)
			for line, content := range strings.Split(text, "\n") {
				for col := range uint32(len(strings.TrimSuffix(content, "\r")) + 1) {
					for _, enc := range []workspace.Encoding{workspace.UTF16, workspace.UTF32} {
						want, err := full.Character(uint32(line), col, enc)
						if err != nil {
							t.Fatal(err)
						}
						got, _ := w.Character(uint32(line), col, enc)
						if got != want {
							t.Fatalf("line %d col %d enc %v: got %d, want %d", line, col, enc, got, want)
						}
					}
				}
			}
		})
	}
}

func TestWideCacheVersion(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "f.go")
	v1 := []byte("é := 1\n")
	if err := os.WriteFile(abs, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newWideCache(1 << 20)
	if _, ok := c.get(abs, xxhash.Sum64(v1)+1); ok {
		t.Fatal("a hash the disk does not hold must not be served")
	}
	w, ok := c.get(abs, xxhash.Sum64(v1))
	if !ok || len(w.lines) != 1 {
		t.Fatalf("got %v %v, want one wide line", w, ok)
	}
	if err := os.Remove(abs); err != nil {
		t.Fatal(err)
	}
	if w2, ok := c.get(abs, xxhash.Sum64(v1)); !ok || w2 != w {
		t.Fatal("a cached version must be served without reading the file")
	}
	small := newWideCache(1)
	small.get(filepath.Join(dir, "missing"), 0)
	if small.lru.order.Len() != 0 {
		t.Fatal("an unreadable file must not be cached")
	}
}
