package mentions

import (
	"slices"
	"strings"
	"testing"
)

func scoreOf(q, p string) (int, bool) {
	return newMatcher(q).score(p, strings.ToLower(p), strings.LastIndexByte(p, '/')+1)
}

// The matcher prefers what quick-open users expect, pair by pair: the
// first path must score above the second.
func TestFuzzyOrder(t *testing.T) {
	for _, tc := range []struct{ q, better, worse string }{
		{"server", "net/http/server.go", "net/rpc/observer_test.go"},
		{"srv", "net/http/server.go", "cmd/vet/testdata/srvx/a.go"}, // base name over a directory
		{"nhs", "net/http/server.go", "net/hashes.go"},              // segment starts
		{"http", "net/http/client.go", "net/xhttpx/client.go"},      // a segment start over inside a word
		{"fmtprint", "fmt/print.go", "fmt/format_test_printer.go"},
		{"ListenAndServe", "net/http/listenandserve.go", "net/http/server.go"},
		{"ts", "go/types/TypeString.go", "go/types/tests.go"}, // camel case starts
	} {
		b, ok1 := scoreOf(tc.q, tc.better)
		w, ok2 := scoreOf(tc.q, tc.worse)
		if !ok1 || (ok2 && b <= w) {
			t.Errorf("%q: %s scores %d (%v), %s scores %d (%v)", tc.q, tc.better, b, ok1, tc.worse, w, ok2)
		}
	}
}

func TestFuzzyMatches(t *testing.T) {
	for _, tc := range []struct {
		q, p string
		ok   bool
	}{
		{"", "a.go", true},
		{"AGO", "a.go", true},
		{"a go", "a.go", true},
		{"og", "a.go", false},
		{"abc", "ab", false},
	} {
		if _, ok := scoreOf(tc.q, tc.p); ok != tc.ok {
			t.Errorf("%q in %q: %v", tc.q, tc.p, ok)
		}
	}
}

func TestSpecials(t *testing.T) {
	names := func(items []Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, string(it.Mention.Kind)+"/"+it.Mention.Scope+"/"+it.Mention.Text)
		}
		return out
	}
	for _, tc := range []struct {
		q, uri string
		want   []string
	}{
		{"", "", []string{"diagnostics/workspace/@diagnostics", "changes//@changes", "selection//@selection", "url//@url:"}},
		{"D", "file:///a.go", []string{"diagnostics/file/@diagnostics", "diagnostics/workspace/@diagnostics"}},
		{"url:https://x", "", []string{"url//@url:"}},
		{"se", "", []string{"selection//@selection"}},
		{"x", "", nil},
	} {
		if got := names(specials(tc.q, tc.uri)); !slices.Equal(got, tc.want) {
			t.Errorf("specials(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestStatusPaths(t *testing.T) {
	got := statusPaths("## main\n M a.go\n?? new/\n?? b.txt\nR  old.go -> new.go\n")
	if want := []string{"a.go", "b.txt", "new.go"}; !slices.Equal(got, want) {
		t.Errorf("statusPaths = %q, want %q", got, want)
	}
}

func TestCut(t *testing.T) {
	count := func(s string) int { return len(s) / 4 }
	long := strings.Repeat("0123456789abcde\n", 100)
	got := cut(long, 100, count)
	if count(got) > 100 || !strings.HasSuffix(got, "[... cut at 100 tokens]\n") || !strings.HasPrefix(long, strings.TrimSuffix(got, "[... cut at 100 tokens]\n")) {
		t.Errorf("cut: %d tokens, %q", count(got), got[max(0, len(got)-60):])
	}
	if short := "a\nb\n"; cut(short, 100, count) != short {
		t.Error("a short text was cut")
	}
}
