package memory

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/dirlock"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Workspace)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func add(t *testing.T, s *Store, m Memory) Memory {
	t.Helper()
	got, err := s.Add(m)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func ids(hits []Hit) []uint64 {
	var out []uint64
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func TestMemoriesSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Workspace)
	if err != nil {
		t.Fatal(err)
	}
	a := add(t, s, Memory{Content: "The build uses make bench for benchmarks", Type: Fact, Tags: []string{"build"}})
	b := add(t, s, Memory{Content: "Prefer table tests", Type: Preference, Importance: 8})
	if _, err := s.Forget(a.ID); err != nil {
		t.Fatal(err)
	}
	c := add(t, s, Memory{Content: "Pebble batches are synced for memories", Type: Decision})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir)
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if got := []uint64{list[0].ID, list[1].ID}; len(list) != 2 || !slices.Equal(got, []uint64{b.ID, c.ID}) {
		t.Fatalf("after reopen: %+v", list)
	}
	if c.ID != 3 {
		t.Errorf("IDs are reused: third memory got %d", c.ID)
	}
	hits, err := s.Recall("pebble", 5)
	if err != nil || !slices.Equal(ids(hits), []uint64{c.ID}) {
		t.Fatalf("recall after reopen: %v %v", ids(hits), err)
	}
	if hits, _ := s.Recall("benchmarks", 5); len(hits) != 0 {
		t.Errorf("a forgotten memory is recalled: %v", ids(hits))
	}
	if d := add(t, s, Memory{Content: "fourth"}); d.ID != 4 {
		t.Errorf("ID after reopen = %d, want 4", d.ID)
	}
	if n, _ := s.Count(); n != 3 {
		t.Errorf("Count = %d, want 3", n)
	}
}

func TestRecallRanking(t *testing.T) {
	s := open(t, t.TempDir())
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	deploy := add(t, s, Memory{Content: "Deploy with the release script, never by hand", Type: Instruction})
	tabs := add(t, s, Memory{Content: "The user prefers tabs over spaces", Type: Preference})
	errSol := add(t, s, Memory{Content: "Error 'database locked' means another parley holds the store; close it", Type: ErrorSolution, Tags: []string{"pebble"}})
	low := add(t, s, Memory{Content: "spaces in file names break the old script", Importance: 2})
	high := add(t, s, Memory{Content: "spaces in file names break the old script", Importance: 9})
	older := add(t, s, Memory{Content: "identical importance and text"})
	newer := add(t, s, Memory{Content: "identical importance and text"})

	tests := []struct {
		name  string
		query string
		types []Type
		k     int
		want  []uint64
	}{
		{"single term", "deploy", nil, 5, []uint64{deploy.ID}},
		{"tags are indexed", "pebble", nil, 5, []uint64{errSol.ID}},
		{"importance breaks ties", "file names", nil, 5, []uint64{high.ID, low.ID}},
		{"recency breaks ties", "identical", nil, 5, []uint64{newer.ID, older.ID}},
		{"rarer and repeated terms rank first", "tabs spaces", nil, 5, []uint64{tabs.ID, high.ID, low.ID}},
		{"type filter", "spaces", []Type{Preference}, 5, []uint64{tabs.ID}},
		{"k bounds", "spaces", nil, 1, []uint64{tabs.ID}},
		{"stop words only", "the and of", nil, 5, nil},
		{"no match", "kubernetes", nil, 5, nil},
		{"case and identifiers", "DatabaseLocked", nil, 5, []uint64{errSol.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := s.Recall(tt.query, tt.k, tt.types...)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(hits); !slices.Equal(got, tt.want) {
				t.Errorf("Recall(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
	// Using the older memory makes it the more recent one.
	if err := s.MarkUsed(older.ID, 999); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.Recall("identical", 5); !slices.Equal(ids(hits), []uint64{older.ID, newer.ID}) {
		t.Errorf("after MarkUsed: %v", ids(hits))
	}
}

func TestUpdateReindexes(t *testing.T) {
	s := open(t, t.TempDir())
	m := add(t, s, Memory{Content: "use gofmt", Tags: []string{"style"}})
	m.Content = "use gofumpt"
	m.Tags = nil
	if _, err := s.Update(m); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"gofmt": 0, "style": 0, "gofumpt": 1} {
		if hits, _ := s.Recall(q, 5); len(hits) != want {
			t.Errorf("Recall(%q) = %d hits, want %d", q, len(hits), want)
		}
	}
	got, err := s.Get(m.ID)
	if err != nil || got.Content != "use gofumpt" || got.Updated.IsZero() || got.Created.IsZero() {
		t.Errorf("Get after update = %+v, %v", got, err)
	}
	if _, err := s.Update(Memory{ID: 77, Content: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Update unknown: %v", err)
	}
	if _, err := s.Forget(77); !errors.Is(err, ErrNotFound) {
		t.Errorf("Forget unknown: %v", err)
	}
}

func TestAddValidates(t *testing.T) {
	s := open(t, t.TempDir())
	for _, m := range []Memory{
		{Content: "  "},
		{Content: "x", Type: "gossip"},
		{Content: "x", Importance: 11},
		{Content: "x", Importance: -1},
		{Content: "x", Scope: "team"},
		{Content: "x", Anchors: []Anchor{{Symbol: "Foo"}}},
	} {
		if _, err := s.Add(m); err == nil {
			t.Errorf("Add(%+v) succeeded", m)
		}
	}
	m := add(t, s, Memory{Content: "x", Tags: []string{"a", " a ", ""}})
	if m.Type != Fact || m.Importance != DefaultImportance || m.Scope != Workspace || !slices.Equal(m.Tags, []string{"a"}) {
		t.Errorf("defaults: %+v", m)
	}
}

// Two handles on one store (as two processes have) both work: each
// operation waits for the other's. An operation that cannot get the lock
// in time says who holds it; a store of another schema version is
// refused.
func TestSharedStoreLockAndOtherSchema(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	add(t, a, Memory{Content: "written through a"})
	add(t, b, Memory{Content: "written through b"})
	if list, err := a.List(); err != nil || len(list) != 2 || list[1].Content != "written through b" {
		t.Fatalf("a sees %+v, %v", list, err)
	}

	held, err := dirlock.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	a.lockTimeout = 20 * time.Millisecond
	if _, err := a.Count(); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "waited 20ms") {
		t.Fatalf("Count while another holds the lock: %v, want ErrLocked", err)
	}
	a.lockTimeout = LockTimeout
	released := make(chan struct{})
	go func() {
		time.Sleep(50 * time.Millisecond)
		dirlock.Unlock(held)
		close(released)
	}()
	if n, err := a.Count(); err != nil || n != 2 {
		t.Fatalf("Count after waiting: %d, %v", n, err)
	}
	<-released

	a.Close()
	if _, err := a.List(); err == nil {
		t.Error("List on a closed store succeeded")
	}
	db, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	db.Set(schemaKey, []byte{9}, pebble.Sync)
	db.Close()
	if _, err := Open(dir, Workspace); err == nil || !strings.Contains(err.Error(), "schema version 9") {
		t.Fatalf("a store of another schema version: %v", err)
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The build is broken", []string{"build", "broken"}},
		{"builds parsers class status analysis", []string{"build", "parser", "class", "status", "analysis"}},
		{"parseConfig failed", []string{"parseconfig", "parse", "config", "failed"}},
		{"snake_case_name", []string{"snakecasename", "snake", "case", "name"}},
		{"x y 42 HTTP/2", []string{"42", "http"}},
		{"Ünïcode wörds", []string{"ünïcode", "wörd"}},
	}
	for _, tt := range tests {
		if got := tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestConcurrentAddAndRecall(t *testing.T) {
	s := open(t, t.TempDir())
	done := make(chan error, 4)
	for w := range 4 {
		go func() {
			for range 25 {
				if w%2 == 0 {
					if _, err := s.Add(Memory{Content: "shared words for every writer"}); err != nil {
						done <- err
						return
					}
				} else if _, err := s.Recall("shared writer", 3); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := s.Count(); n != 50 {
		t.Errorf("Count = %d, want 50", n)
	}
	if list, _ := s.List(); len(list) != 50 || list[49].ID != 50 {
		t.Errorf("List has %d memories", len(list))
	}
}

func TestTopCandidates(t *testing.T) {
	sc := scoreTable{
		scores:  []float64{0, 1, 5, 3, 3, 0.5, 4, 0},
		matched: []int32{0, 1, 1, 1, 1, 1, 1, 0},
		count:   6,
	}
	var got []uint64
	for _, c := range topCandidates(sc, 3) {
		got = append(got, c.id)
	}
	// The third best score (3) is tied: both 3 and 4 stay.
	if !slices.Equal(got, []uint64{2, 6, 3, 4}) && !slices.Equal(got, []uint64{2, 6, 4, 3}) {
		t.Errorf("topCandidates = %v", got)
	}
	if n := len(topCandidates(sc, 10)); n != 6 {
		t.Errorf("k above the count kept %d", n)
	}
}

// The type filter applies before the cut to k: the best matches of other
// types do not hide a worse match of the wanted type.
func TestRecallTypeFilterBeyondK(t *testing.T) {
	s := open(t, t.TempDir())
	for range 5 {
		add(t, s, Memory{Content: "cache cache cache invalidation"})
	}
	want := add(t, s, Memory{Content: "cache eviction is LRU and the rest of a long sentence about other things", Type: Decision})
	hits, err := s.Recall("cache", 1, Decision)
	if err != nil || len(hits) != 1 || hits[0].ID != want.ID {
		t.Fatalf("Recall with a type filter = %v, %v", ids(hits), err)
	}
}
