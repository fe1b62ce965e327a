package repomap

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/internal/fixture"
)

func openShop(t *testing.T) *Mapper {
	t.Helper()
	root := fixture.Extract(t, filepath.Join("testdata", "shop.txtar"))
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
	}
	for _, tt := range tests {
		if got := m.Mentioned(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Mentioned(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
