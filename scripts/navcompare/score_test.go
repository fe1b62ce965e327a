package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPrecisionRecall(t *testing.T) {
	a, b, c := loc{"a.go", 1, 2}, loc{"a.go", 3, 4}, loc{"b.go", 0, 0}
	tests := []struct {
		name      string
		got, want []loc
		p, r      float64
		ok        bool
	}{
		{"both empty", nil, nil, 0, 0, false},
		{"exact", []loc{a, b}, []loc{b, a}, 1, 1, true},
		{"extra", []loc{a, b, c}, []loc{a}, 1.0 / 3, 1, true},
		{"missing", []loc{a}, []loc{a, b}, 1, 0.5, true},
		{"duplicates count once", []loc{a, a, c}, []loc{a}, 0.5, 1, true},
		{"nothing found", nil, []loc{a}, 1, 0, true},
	}
	for _, tt := range tests {
		p, r, ok := precisionRecall(tt.got, tt.want)
		if p != tt.p || r != tt.r || ok != tt.ok {
			t.Errorf("%s: got %v %v %v, want %v %v %v", tt.name, p, r, ok, tt.p, tt.r, tt.ok)
		}
	}
}

func TestScoresTop1AndAnywhere(t *testing.T) {
	want, other := loc{"x.go", 1, 1}, loc{"y.go", 2, 2}
	var sc scores
	if m := sc.add(site{}, answers{defs: []loc{want}}, answers{defs: []loc{want}}); m != nil {
		t.Errorf("agreeing site reported as a miss: %+v", m)
	}
	if m := sc.add(site{}, answers{defs: []loc{other, want}}, answers{defs: []loc{want}}); m == nil || *m.Parley != other {
		t.Errorf("second-place answer: miss = %+v", m)
	}
	sc.add(site{}, answers{defs: []loc{other}}, answers{}) // gopls silent: not scored
	var r report
	sc.fill(&r)
	if r.Scored != 2 || r.DefinitionTop1 != 1 || r.DefinitionAnywhere != 2 {
		t.Errorf("report = %+v", r)
	}
	if len(r.PerSite) != 2 || !r.PerSite[0].Top1 || r.PerSite[1].Top1 || !r.PerSite[1].Anywhere {
		t.Errorf("per-site scores = %+v", r.PerSite)
	}
}

// The judge's references outside the tree (its stubs) are not counted
// against parley's recall.
func TestScoresIgnoreJudgeRefsOutsideTree(t *testing.T) {
	def, stub := loc{"x.py", 1, 1}, loc{"/stubs/x.pyi", 1, 1}
	var sc scores
	sc.add(site{}, answers{defs: []loc{def}, refs: []loc{def}}, answers{defs: []loc{def}, refs: []loc{stub, def}})
	var r report
	sc.fill(&r)
	if r.ReferencesPrecision != 1 || r.ReferencesRecall != 1 {
		t.Errorf("precision/recall = %v/%v, want 1/1", r.ReferencesPrecision, r.ReferencesRecall)
	}
}

func TestDecodeLocations(t *testing.T) {
	root := "/r"
	tests := []struct{ raw, want string }{
		{`null`, `[]`},
		{`{"uri":"file:///r/a/b.go","range":{"start":{"line":3,"character":5},"end":{"line":3,"character":9}}}`, `[{"path":"a/b.go","line":3,"col":5}]`},
		{`[{"uri":"file:///elsewhere/c.go","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}}}]`, `[{"path":"/elsewhere/c.go","line":1,"col":0}]`},
		{`[{"targetUri":"file:///r/d.go","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"targetSelectionRange":{"start":{"line":2,"character":6},"end":{"line":2,"character":7}}}]`, `[{"path":"d.go","line":2,"col":6}]`},
	}
	for _, tt := range tests {
		got, err := decodeLocations(json.RawMessage(tt.raw), root)
		if err != nil {
			t.Fatalf("%s: %v", tt.raw, err)
		}
		var want []loc
		json.Unmarshal([]byte(tt.want), &want)
		if len(got) != 0 || len(want) != 0 {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: got %+v, want %+v", tt.raw, got, want)
			}
		}
	}
}

func TestSampleIsSeededAndExported(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nimport \"fmt\"\n\nfunc F() { fmt.Println(g()); F(); g() }\n\nfunc g() int { return 0 }\n")
	write("a_test.go", "package a\n\nfunc T() { F() }\n")
	write("testdata/x.go", "package x\n\nfunc X() { X() }\n")
	write("_asm/y.go", "package y\n\nfunc Y() { Y() }\n")
	s1, err := sample(dir, 5, 7, judges["gopls"], nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := sample(dir, 5, 7, judges["gopls"], nil, nil)
	if !reflect.DeepEqual(s1, s2) {
		t.Errorf("same seed, different samples: %v vs %v", s1, s2)
	}
	want := map[site]bool{
		{File: "a.go", Line: 4, Col: 15, Name: "Println"}: true,
		{File: "a.go", Line: 4, Col: 29, Name: "F"}:       true,
	}
	if len(s1) != len(want) {
		t.Fatalf("sample = %+v, want the two exported calls of a.go", s1)
	}
	for _, s := range s1 {
		if !want[s] {
			t.Errorf("unexpected site %+v", s)
		}
	}
}
