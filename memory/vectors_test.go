package memory

import (
	"testing"

	"github.com/parleyhq/parley/memory/vector"
)

// TestVectorsSurviveReopen uses the store's vector indices in a real
// directory, beside memories, and reopens the store.
func TestVectorsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	add(t, s, Memory{Content: "a memory beside the vectors"})
	vdb, err := s.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vdb.Create("docs", 2); err != nil {
		t.Fatal(err)
	}
	if _, err := vdb.Add("docs", []vector.Item{{Vector: []float32{1, 0}, Text: "east"}, {Vector: []float32{0, 1}, Text: "north"}}, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir)
	vdb, err = s.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	res, err := vdb.Search("docs", []float32{0.1, 1}, 1)
	if err != nil || len(res) != 1 || res[0].Text != "north" {
		t.Fatalf("search after reopening = %+v, %v", res, err)
	}
	if n, err := s.Count(); err != nil || n != 1 {
		t.Errorf("memories after reopening: %d, %v", n, err)
	}
	if list, _ := s.List(); len(list) != 1 {
		t.Errorf("List sees vector records: %+v", list)
	}
}
