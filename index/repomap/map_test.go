package repomap

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/internal/fixture"
)

func openShop(t *testing.T) *Mapper { return openFixture(t, "shop.txtar") }

func openFixture(t *testing.T, name string) *Mapper {
	t.Helper()
	root := fixture.Extract(t, filepath.Join("testdata", name))
	st, err := index.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), root, index.Options{}); err != nil {
		t.Fatal(err)
	}
	return New(st, root)
}

func cl100k(t *testing.T) func(string) (int, error) {
	c, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	return c.Count
}

// position is the rank of path in the map (its line among the file
// lines), -1 when absent.
func position(m, path string) int {
	var files []string
	for _, l := range strings.Split(m, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			files = append(files, strings.TrimSuffix(l, ":"))
		}
	}
	return slices.Index(files, path)
}

func TestBuild(t *testing.T) {
	m := openShop(t)
	count := cl100k(t)
	tests := []struct {
		name  string
		opts  Options
		check func(t *testing.T, m string)
	}{
		{"hub first", Options{Tokens: 1024}, func(t *testing.T, m string) {
			if p := position(m, "model/model.go"); p != 0 {
				t.Errorf("model/model.go at %d, want first:\n%s", p, m)
			}
			for _, want := range []string{"type Item struct", "func Total(items []Item) int", "func (c *Cart) Add(it model.Item)"} {
				if !strings.Contains(m, want) {
					t.Errorf("map lacks %q:\n%s", want, m)
				}
			}
		}},
		{"focus moves a file up", Options{Tokens: 1024, Focus: []string{"report/report.go"}}, func(t *testing.T, m string) {
			if p := position(m, "report/report.go"); p != 0 {
				t.Errorf("focused report/report.go at %d, want first:\n%s", p, m)
			}
		}},
		{"unknown focus ignored", Options{Tokens: 1024, Focus: []string{"nope.go"}}, func(t *testing.T, m string) {
			if p := position(m, "model/model.go"); p != 0 {
				t.Errorf("model/model.go at %d, want first:\n%s", p, m)
			}
		}},
		{"budget respected", Options{Tokens: 40}, func(t *testing.T, m string) {
			n, err := count(m)
			if err != nil {
				t.Fatal(err)
			}
			if n > 40 || n == 0 {
				t.Errorf("map of %d tokens for a budget of 40:\n%s", n, m)
			}
			if position(m, "model/model.go") != 0 {
				t.Errorf("the hub did not make the small budget:\n%s", m)
			}
		}},
		{"0 disables", Options{Tokens: 0}, func(t *testing.T, m string) {
			if m != "" {
				t.Errorf("map with budget 0: %q", m)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Count = count
			out, err := m.Build(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, out)
		})
	}
}

func TestRankWithoutFocus(t *testing.T) {
	r, err := openShop(t).Rank(nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(p string) int {
		return slices.IndexFunc(r, func(x Ranked) bool { return x.Path == p })
	}
	if idx("model/model.go") != 0 {
		t.Errorf("ranking %v: want model/model.go first", r)
	}
	if idx("report/report.go") < idx("cart/cart.go") {
		t.Errorf("ranking %v: the unimported report ranks above cart, which order imports", r)
	}
}

func TestMentioned(t *testing.T) {
	m := openShop(t)
	tests := []struct {
		text string
		want []string
	}{
		{"why does `./report/report.go` differ from cart/cart.go:9? see report/report.go.", []string{"report/report.go", "cart/cart.go"}},
		{"nothing here, not even report.go or model/", nil},
		{"why is `Total` off after Place() in cart.Add? Please check the Daily report", []string{"model/model.go", "order/order.go", "cart/cart.go"}},
	}
	for _, tt := range tests {
		if got := m.Mentioned(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Mentioned(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestRankByReferences: util/core.go, whose functions every other file
// calls, outranks util/big.go, which has more symbols but no callers. The
// import graph alone shares the import of util by symbol count and ranks
// them the other way round.
func TestRankByReferences(t *testing.T) {
	m := openFixture(t, "refs.txtar")
	r, err := m.Rank(nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(p string) int {
		return slices.IndexFunc(r, func(x Ranked) bool { return x.Path == p })
	}
	if idx("util/core.go") != 0 || idx("util/big.go") < idx("app/app.go") {
		t.Errorf("ranking %v: want util/core.go first and util/big.go below app/app.go, which app/serve.go calls", r)
	}
}

// TestFocusUpdate: the map follows the files each message names and the
// documents open in the editor, and stays the same (the prompt cache
// survives) while nothing new and unseen comes into focus.
func TestFocusUpdate(t *testing.T) {
	m := openShop(t)
	// A budget for about two entries, so most files are not shown.
	f := NewFocus(m, Options{Tokens: 45, Count: cl100k(t)})
	steps := []struct {
		msg     string
		open    []string
		changed bool
		first   string
	}{
		{"hello", nil, true, "model/model.go"},
		{"what does model/model.go hold?", nil, false, "model/model.go"}, // shown already
		{"now look at report/report.go", nil, true, "report/report.go"},
		{"and again", nil, false, "report/report.go"},
		// Shown in the map already: moving it up is not worth the cache.
		{"back to model/model.go", nil, false, "report/report.go"},
		{"thanks", []string{"billing/billing.go", "nope.go"}, true, ""},
		{"more", []string{"billing/billing.go"}, false, ""},
		{"who calls `Invoice`?", []string{"billing/billing.go"}, false, ""}, // declared in an open file
	}
	for i, s := range steps {
		text, changed, err := f.Update(s.msg, s.open)
		if err != nil {
			t.Fatal(err)
		}
		if changed != s.changed {
			t.Errorf("step %d (%q): changed = %v, want %v:\n%s", i, s.msg, changed, s.changed, text)
		}
		if s.first != "" && position(text, s.first) != 0 {
			t.Errorf("step %d (%q): %s not first:\n%s", i, s.msg, s.first, text)
		}
		if s.open != nil && position(text, s.open[0]) < 0 {
			t.Errorf("step %d: open %s not in the map:\n%s", i, s.open[0], text)
		}
	}
}

// A new index generation re-reads only the changed files' names
// (nameCache), and ranks exactly as a Mapper built from scratch.
func TestRankAfterAChange(t *testing.T) {
	m := openFixture(t, "refs.txtar")
	before, err := m.Rank(nil)
	if err != nil {
		t.Fatal(err)
	}
	src := "package app\n\nimport \"example.com/refs/util\"\n\n// Run runs the app.\nfunc Run() int {\n\treturn util.Alpha() + util.Beta() + util.Gamma() + util.Delta() + util.Epsilon()\n}\n"
	if err := m.st.PutContent(context.Background(), "app/app.go", []byte(src), index.Options{}); err != nil {
		t.Fatal(err)
	}
	after, err := m.Rank(nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(m.st, m.root).Rank(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(after, fresh, func(a, b Ranked) bool { return a.Path == b.Path && math.Abs(a.Score-b.Score) < 1e-12 }) {
		t.Errorf("after a change: %v\nfrom scratch: %v", after, fresh)
	}
	score := func(r []Ranked, p string) float64 {
		return r[slices.IndexFunc(r, func(x Ranked) bool { return x.Path == p })].Score
	}
	if score(after, "util/big.go") <= score(before, "util/big.go") {
		t.Errorf("util/big.go, now called by app/app.go, did not rise: %v -> %v", before, after)
	}
}
