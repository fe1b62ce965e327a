package extract

import (
	"bytes"
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// FuzzExtract feeds arbitrary bytes to every registered extractor and
// checks the invariants callers rely on: no panic (Extract turns panics into
// errors, so any error fails), bounded time, parents before children, and
// well-formed ranges and positions.
//
// FUZZ_LANGS=python,c restricts the languages; -short skips swift, whose
// grammar takes seconds and about 2 GB to load. Under the fuzzer's coverage
// instrumentation gotreesitter runs ~100x slower, so minimising each new
// corpus entry stalls the run for minutes; use -fuzzminimizetime=5x:
//
//	FUZZ_LANGS=python,javascript go test -run '^$' -fuzz FuzzExtract -fuzztime 60s -fuzzminimizetime 5x
func FuzzExtract(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		f.Add(fx.src)
	}
	for _, s := range []string{"", "\x00", "\xff\xfe", "((((((((((", "{{{{{{{{", "\"\"\"", "/*", "#", "<?php", "\n\n\n",
		"class A { def f( { [ ( ", strings.Repeat("(", 2000), strings.Repeat("{\n", 500),
		"\"\\\n\"A0" /* an escaped newline ends a Go string: A0 is on line 2 */} {
		f.Add([]byte(s))
	}
	langs := fuzzLanguages(f)
	// Load every grammar before the timed calls.
	for _, l := range langs {
		if _, err := For(l).Extract(context.Background(), "warmup", nil, Options{}); err != nil {
			f.Fatalf("%s: warm-up: %v", l, err)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, l := range langs {
			checkExtract(t, l, src)
		}
	})
}

func fuzzLanguages(t testing.TB) []string {
	var langs []string
	if env := os.Getenv("FUZZ_LANGS"); env != "" {
		langs = strings.Split(env, ",")
	} else {
		langs = Languages()
		sort.Strings(langs)
	}
	out := langs[:0]
	for _, l := range langs {
		if For(l) == nil {
			t.Fatalf("FUZZ_LANGS names unknown language %q", l)
		}
		if testing.Short() && l == "swift" {
			continue
		}
		out = append(out, l)
	}
	return out
}

// checkExtract runs one extraction and asserts the Result invariants.
func checkExtract(t *testing.T, lang string, src []byte) {
	t.Helper()
	const budget = 500 * time.Millisecond
	start := time.Now()
	res, err := For(lang).Extract(context.Background(), "fuzz", src, Options{Budget: budget})
	if took := time.Since(start); took > 20*budget+2*time.Second {
		t.Errorf("%s: Extract took %v with a %v budget", lang, took, budget)
	}
	if err != nil {
		t.Fatalf("%s: Extract: %v", lang, err)
	}
	lines := bytes.Split(src, []byte("\n"))
	validPos := func(p Pos) bool {
		// The end of a range may sit one past the last line's end.
		return int(p.Line) < len(lines) && int(p.Col) <= len(lines[p.Line])
	}
	for i, s := range res.Symbols {
		if s.Parent < -1 || int(s.Parent) >= i {
			t.Fatalf("%s: symbol %d %q has parent %d", lang, i, s.Name, s.Parent)
		}
		if s.Name == "" {
			t.Fatalf("%s: symbol %d has no name", lang, i)
		}
		for _, r := range []Range{s.Range, s.Selection} {
			if r.End.Less(r.Start) || !validPos(r.Start) || !validPos(r.End) {
				t.Fatalf("%s: symbol %q has bad range %+v", lang, s.Name, r)
			}
		}
		if !s.Range.Contains(s.Selection) {
			t.Fatalf("%s: symbol %q: selection %+v outside range %+v", lang, s.Name, s.Selection, s.Range)
		}
	}
	for _, r := range res.Refs {
		if r.Name == "" || len(r.Name) > maxRefName || !validPos(r.Pos) {
			t.Fatalf("%s: bad ref %+v", lang, r)
		}
		if !bytes.HasPrefix(lines[r.Pos.Line][r.Pos.Col:], []byte(r.Name)) {
			t.Fatalf("%s: ref %q does not match the source at %+v", lang, r.Name, r.Pos)
		}
	}
	for _, im := range res.Imports {
		if im.Path == "" || int(im.Line) >= len(lines) {
			t.Fatalf("%s: bad import %+v", lang, im)
		}
	}
	for _, td := range res.Todos {
		if int(td.Line) >= len(lines) {
			t.Fatalf("%s: bad todo %+v", lang, td)
		}
	}
}
