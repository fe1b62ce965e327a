package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/complete/fim"
)

func TestTokenize(t *testing.T) {
	got := tokenize("x := parseHTTPServer(my_var, URL2) // 42 a")
	want := []string{"parse", "http", "server", "parsehttpserver", "my", "var", "my_var", "url2"}
	if !slices.Equal(got, want) {
		t.Errorf("tokenize = %q, want %q", got, want)
	}
}

func TestRetrieve(t *testing.T) {
	files := map[string]string{
		"a.go": "package a\n\n// TrimSuffix trims.\nfunc TrimSuffix(s, suffix string) string {\n\treturn s\n}\n",
		"b.go": "package a\n\nfunc other() int {\n\treturn 1\n}\n",
		"c.go": "package a\n\nfunc caller() {\n\tTrimSuffix(name, suffix)\n}\n",
	}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	x := newWindowIndex(paths, func(p string) ([]byte, error) { return []byte(files[p]), nil })
	count := func(s string) int { return (len(s) + 3) / 4 }
	got := x.retrieve("name = TrimSuffix(name, suffix)", "c.go", 1024, count)
	if len(got) == 0 || got[0].Path != "a.go" {
		t.Fatalf("retrieve: %+v, want a.go first", got)
	}
	d := decl{Name: "TrimSuffix", Path: "a.go", Line: 4, Col: 5, Source: "func TrimSuffix(s, suffix string) string {"}
	if !anyHit(got, d) {
		t.Errorf("anyHit(%+v) = false", got)
	}
	// A budget of 12 tokens holds the first lines only.
	small := x.retrieve("TrimSuffix", "", 12, count)
	if n := strings.Count(small[0].Text, "\n") + 1; n != 3 || small[0].EndLine != 3 {
		t.Errorf("small budget: %d lines, %+v", n, small[0])
	}
}

func TestTextHas(t *testing.T) {
	d := decl{Name: "write", Path: "w.py", Line: 3, Col: 8, Source: "    def write(self, s):", Signature: "def write(self, s):"}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"def write(self, s):", true},
		{"    def write(self, s):  # the line", true},
		{"# writes s\ndef write(self, s)", true},
		{"def writelines(self, lines):", false},
		{"self.write(s)", false},
	} {
		if got := textHas(tc.text, d); got != tc.want {
			t.Errorf("textHas(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	ts := decl{Name: "subscribe", Path: "o.ts", Col: 2, Source: "  subscribe(observer?: Partial<Observer<T>>): Subscription;"}
	if !anyHit([]fim.Snippet{{Path: "o.ts", Text: "subscribe(next: (value: T) => void): Subscription;"}}, ts) {
		t.Error("an overload's other signature is the name as declared")
	}
	if anyHit([]fim.Snippet{{Path: "p.ts", Text: ts.Source}}, ts) {
		t.Error("a snippet of another file is not a hit")
	}
}

func TestPositionOf(t *testing.T) {
	prefixes := []string{"a\nbc", "a\nbcd", "a\nbcd\n", "a\nbcd\ne"}
	for i, p := range []string{"bc", "a\nbcd", "e", "bcd\n", "x"} {
		want := []int{0, 1, 3, 2, -1}[i]
		if got := positionOf(prefixes, p); got != want {
			t.Errorf("positionOf(%q) = %d, want %d", p, got, want)
		}
	}
}

func TestKeystrokeTimes(t *testing.T) {
	sc := scenario{Interval: 80e6, PauseEvery: 1200e6, Pause: 400e6, Duration: 5e9}
	ts := sc.keystrokeTimes()
	// Bursts of 15 keystrokes, each followed by the pause: 3 bursts of
	// 1.52 s, then 6 keystrokes before 5 s.
	if len(ts) != 51 || ts[15]-ts[14] != 400e6 || ts[1]-ts[0] != 80e6 {
		t.Errorf("%d keystrokes; gaps %v %v", len(ts), ts[15]-ts[14], ts[1]-ts[0])
	}
}

func TestEdited(t *testing.T) {
	src := []byte("a := x.Name(1)\nb\n")
	if got := string(edited(src, 7)); got != "a := x.\nb\n" {
		t.Errorf("edited = %q", got)
	}
}
