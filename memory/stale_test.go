package memory

import (
	"slices"
	"strings"
	"testing"
)

// fakeCode is an AnchorHasher over an in-memory map of anchor names to
// content.
type fakeCode map[string]string

func (c fakeCode) hash(a Anchor) (string, bool, error) {
	v, ok := c[anchorName(a)]
	return "h:" + v, ok, nil
}

func TestStaleAnchors(t *testing.T) {
	s := openSet(t)
	code := fakeCode{"db/migrate.go#Run": "v1", "README.md": "r1", "db/other.go": "o1"}
	s.Anchors = code.hash

	if _, err := s.Add(Memory{Content: "x", Anchors: []Anchor{{Path: "nope.go"}}}); err == nil || !strings.Contains(err.Error(), "anchor nope.go: no such file or symbol") {
		t.Fatalf("anchor to nothing: %v", err)
	}
	sym, err := s.Add(Memory{Content: "migrations run in one transaction", Anchors: []Anchor{{Path: "db/migrate.go", Symbol: "Run"}}})
	if err != nil {
		t.Fatal(err)
	}
	if sym.Anchors[0].Hash != "h:v1" {
		t.Fatalf("hash not recorded: %+v", sym.Anchors)
	}
	file, _ := s.Add(Memory{Content: "the readme lists migrations", Anchors: []Anchor{{Path: "README.md"}, {Path: "db/other.go"}}})
	plain, _ := s.Add(Memory{Content: "migrations are numbered"})

	if got, _ := s.ListStale(); len(got) != 0 {
		t.Fatalf("stale before any change: %+v", got)
	}
	code["db/migrate.go#Run"] = "v2"
	delete(code, "README.md")
	hits, err := s.Recall("migrations", 5)
	if err != nil {
		t.Fatal(err)
	}
	why := map[uint64][]string{}
	for _, h := range hits {
		why[h.ID] = h.Stale
	}
	if !slices.Equal(why[sym.ID], []string{"db/migrate.go#Run changed"}) || !slices.Equal(why[file.ID], []string{"README.md is gone"}) || why[plain.ID] != nil {
		t.Errorf("stale reasons %v", why)
	}
	stale, _ := s.ListStale()
	if len(stale) != 2 {
		t.Errorf("ListStale: %+v", stale)
	}
	if line := FormatHit(Hit{Memory: sym, Stale: why[sym.ID]}); !strings.HasSuffix(line, "[STALE: db/migrate.go#Run changed since it was written]") {
		t.Errorf("FormatHit: %s", line)
	}

	// Editing reviews: hashes renewed, vanished anchors dropped.
	file.Content = "the readme is gone; see db/other.go"
	edited, err := s.Update(Ref(file), file)
	if err != nil {
		t.Fatal(err)
	}
	if len(edited.Anchors) != 1 || edited.Anchors[0].Path != "db/other.go" {
		t.Errorf("anchors after edit: %+v", edited.Anchors)
	}
	sym.Content = "migrations run in one transaction each"
	if _, err := s.Update(Ref(sym), sym); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ListStale(); len(got) != 0 {
		t.Errorf("stale after review: %+v", got)
	}
}
