package workspace

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

func rng(sl, sc, el, ec uint32) *Range { return &Range{sl, sc, el, ec} }

func TestApplyChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		changes []Change
		enc     Encoding
		want    string
		err     bool
	}{
		{"insert", "hello\nworld\n", []Change{{Range: rng(1, 0, 1, 0), Text: "big "}}, UTF16, "hello\nbig world\n", false},
		{"replace across lines", "ab\ncd\nef", []Change{{Range: rng(0, 1, 2, 1), Text: "X"}}, UTF16, "aXf", false},
		{"delete", "abc", []Change{{Range: rng(0, 1, 0, 2)}}, UTF16, "ac", false},
		{"full", "old", []Change{{Text: "new"}}, UTF16, "new", false},
		{"sequential", "abc", []Change{{Range: rng(0, 0, 0, 1), Text: "xy"}, {Range: rng(0, 2, 0, 3), Text: "Z"}}, UTF16, "xyZc", false},
		{"after surrogate pair, utf-16", "😀a", []Change{{Range: rng(0, 2, 0, 3), Text: "b"}}, UTF16, "😀b", false},
		{"after surrogate pair, utf-32", "😀a", []Change{{Range: rng(0, 1, 0, 2), Text: "b"}}, UTF32, "😀b", false},
		{"utf-8 columns", "éa", []Change{{Range: rng(0, 2, 0, 3), Text: "b"}}, UTF8, "éb", false},
		{"clamped past line end", "ab\ncd", []Change{{Range: rng(0, 9, 0, 9), Text: "!"}}, UTF16, "ab!\ncd", false},
		{"append at end", "ab\n", []Change{{Range: rng(1, 0, 1, 0), Text: "c"}}, UTF16, "ab\nc", false},
		{"line past end", "ab", []Change{{Range: rng(3, 0, 3, 0), Text: "x"}}, UTF16, "", true},
		{"inverted", "abc", []Change{{Range: rng(0, 2, 0, 1), Text: "x"}}, UTF16, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ApplyChanges([]byte(tc.in), tc.changes, tc.enc)
			if tc.err {
				if !errors.Is(err, ErrPosition) {
					t.Fatalf("err = %v, want ErrPosition", err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestOverlays(t *testing.T) {
	o := NewOverlays()
	if _, err := o.Change("a.go", 2, nil, UTF16); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("change before open: %v", err)
	}
	first := o.Open("a.go", 1, []byte("package a\n"))
	if !first.Saved || first.Hash == 0 {
		t.Fatalf("opened overlay = %+v", first)
	}
	ov, err := o.Change("a.go", 2, []Change{{Range: rng(1, 0, 1, 0), Text: "func F() {}\n"}}, UTF16)
	if err != nil || string(ov.Content) != "package a\nfunc F() {}\n" || ov.Saved || ov.Hash == first.Hash {
		t.Fatalf("after change: %+v, %v", ov, err)
	}
	if string(first.Content) != "package a\n" {
		t.Fatalf("an earlier snapshot changed: %q", first.Content)
	}
	if _, err := o.Change("a.go", 2, []Change{{Text: "x"}}, UTF16); !errors.Is(err, ErrStaleVersion) {
		t.Fatalf("same version again: %v", err)
	}
	if _, err := o.Change("a.go", 3, []Change{{Range: rng(9, 0, 9, 0), Text: "x"}}, UTF16); !errors.Is(err, ErrPosition) {
		t.Fatalf("bad range: %v", err)
	}
	if cur, _ := o.Get("a.go"); cur.Version != 2 {
		t.Fatalf("a failed change moved the version to %d", cur.Version)
	}
	o.Open("b.go", 1, []byte("package a\n"))
	if got := o.Unsaved(); !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("unsaved %q, want the changed document only", got)
	}
	saved, err := o.Save("a.go", nil)
	if err != nil || !saved.Saved || saved.Version != 2 {
		t.Fatalf("save: %+v, %v", saved, err)
	}
	if got := o.Unsaved(); len(got) != 0 {
		t.Fatalf("unsaved after save: %q", got)
	}
	if got := o.Paths(); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Fatalf("open documents %q", got)
	}
	o.Close("a.go")
	if _, ok := o.Get("a.go"); ok {
		t.Fatal("closed document still held")
	}
	if got := o.Paths(); !slices.Equal(got, []string{"b.go"}) {
		t.Fatalf("open documents after close %q", got)
	}
}

// TestOverlaysConcurrent runs readers against a writer; -race checks it.
func TestOverlaysConcurrent(t *testing.T) {
	o := NewOverlays()
	o.Open("a.go", 0, []byte(""))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for v := int32(1); v <= 200; v++ {
			if _, err := o.Change("a.go", v, []Change{{Range: rng(0, 0, 0, 0), Text: "x"}}, UTF16); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for range 200 {
			if ov, ok := o.Get("a.go"); ok && len(ov.Content) != int(ov.Version) {
				t.Errorf("version %d with %d bytes", ov.Version, len(ov.Content))
				return
			}
		}
	}()
	wg.Wait()
}
