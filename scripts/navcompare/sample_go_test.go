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

// -seeds draws each seed's sample in turn, as -seed would alone.
func TestSampleSeeds(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.go", "b.go", "c.go"} {
		src := "package p\n\nimport \"strings\"\n\nfunc f() { strings.ToUpper(\"\"); strings.ToLower(\"\"); strings.TrimSpace(\"\") }\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := judges["gopls"]
	all, err := sampleSeeds(dir, 2, 0, "4,7-8", j, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[site]bool{}
	for _, s := range all {
		if seen[s] {
			t.Errorf("duplicate %+v", s)
		}
		seen[s] = true
	}
	for _, seed := range []uint64{4, 7, 8} {
		one, _ := sample(dir, 2, seed, j, nil, nil)
		for _, s := range one {
			if !seen[s] {
				t.Errorf("seed %d's %+v missing from -seeds", seed, s)
			}
		}
	}
	if _, err := sampleSeeds(dir, 2, 0, "x", j, nil, nil); err == nil {
		t.Error("bad -seeds accepted")
	}
}
