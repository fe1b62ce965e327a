package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestGoRules(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import (
	"strings"
	"sync/atomic"
)

type Stringer interface{ String() string }

type T struct {
	b strings.Builder
	n atomic.Int64
}

func (t *T) f(s Stringer) {
	t.b.WriteString(s.String())
	t.n.Add(1)
	strings.ToUpper("x")
	local()
}

func local() {}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"exported":  {"WriteString", "String", "Add", "ToUpper"},
		"fieldcall": {"WriteString", "Add"},
		"iface":     {"String"},
		"atomic":    {"Add"},
	}
	for rule, names := range want {
		_, listers, err := goRuleSites(dir, rule)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range listers[0](filepath.Join(dir, "p.go")) {
			got = append(got, s.Name)
		}
		slices.Sort(got)
		slices.Sort(names)
		if !slices.Equal(got, names) {
			t.Errorf("%s: got %v, want %v", rule, got, names)
		}
	}
	if _, _, err := goRuleSites(dir, "nope"); err == nil {
		t.Error("unknown rule accepted")
	}
	// Several rules tag each site with the one that drew it.
	rules, listers, _ := goRuleSites(dir, "all")
	sites, err := sample(dir, 4, 3, judges["gopls"], rules, listers)
	if err != nil || len(sites) == 0 {
		t.Fatalf("sample: %v %v", sites, err)
	}
	for _, s := range sites {
		if !slices.Contains(goRules, s.Rule) {
			t.Errorf("site %+v has no rule", s)
		}
	}
}
