package index

import (
	"encoding/binary"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/parleyhq/parley/index/extract"
)

func TestCodecRoundTrip(t *testing.T) {
	h := FileHeader{ID: 7, Path: "a/b.go", Size: 1234, ModTime: 1700000000123456789, Hash: 0xdeadbeefcafe, Lines: 42, Status: StatusPartial, Lang: "go", Symbols: 3, Refs: 99}
	got, err := decodeHeader(h.Path, encodeHeader(&h))
	if err != nil || got != h {
		t.Fatalf("header: got %+v, %v; want %+v", got, err, h)
	}

	d := FileDetail{Path: "x/y.py", Reason: "syntax errors", Package: "pkg",
		Imports: []extract.Import{{Path: "os.path", Line: 1}, {Path: ".sib", Line: 9}},
		Todos:   []extract.Todo{{Tag: "TODO", Text: "fix ünicode", Line: 3}}}
	gotD, err := decodeDetail(encodeDetail(&d))
	if err != nil || !reflect.DeepEqual(gotD, d) {
		t.Fatalf("detail: got %+v, %v; want %+v", gotD, err, d)
	}

	syms := []extract.Symbol{
		{Name: "T", Kind: extract.KindStruct, Parent: -1, Exported: true,
			Range:     extract.Range{Start: extract.Pos{Line: 10, Col: 0}, End: extract.Pos{Line: 20, Col: 1}},
			Selection: extract.Range{Start: extract.Pos{Line: 10, Col: 5}, End: extract.Pos{Line: 10, Col: 6}},
			Signature: "type T struct", Doc: "T is a thing."},
		{Name: "f", Kind: extract.KindField, Container: "T", Parent: 0, Complexity: 0,
			Range:     extract.Range{Start: extract.Pos{Line: 11, Col: 1}, End: extract.Pos{Line: 11, Col: 8}},
			Selection: extract.Range{Start: extract.Pos{Line: 11, Col: 1}, End: extract.Pos{Line: 11, Col: 2}}},
		{Name: "Run", Kind: extract.KindMethod, Container: "T", Parent: -1, Complexity: 7,
			Range:     extract.Range{Start: extract.Pos{Line: 30, Col: 0}, End: extract.Pos{Line: 29, Col: 0}}, // inverted on purpose
			Selection: extract.Range{Start: extract.Pos{Line: 31, Col: 2}, End: extract.Pos{Line: 32, Col: 3}}},
	}
	gotS, err := decodeSymbols(encodeSymbols(nil, syms))
	if err != nil || !reflect.DeepEqual(gotS, syms) {
		t.Fatalf("symbols: got %+v, %v", gotS, err)
	}

	occ := []Occurrence{{Pos: extract.Pos{Line: 0, Col: 3}}, {Pos: extract.Pos{Line: 0, Col: 9}, Call: true, Sel: true}, {Pos: extract.Pos{Line: 2, Col: 4}, Sel: true, Import: 300}, {Pos: extract.Pos{Line: 100, Col: 70000}}}
	gotO, err := decodeOccurrences(encodeOccurrences(nil, occ))
	if err != nil || !reflect.DeepEqual(gotO, occ) {
		t.Fatalf("occurrences: got %+v, %v", gotO, err)
	}

	names := []string{"a", "Ünï", ""}
	gotN, err := decodeNames(encodeNames(nil, names))
	if err != nil || !reflect.DeepEqual(gotN, names) {
		t.Fatalf("names: got %q, %v", gotN, err)
	}
}

func TestCodecCorrupt(t *testing.T) {
	valid := encodeSymbols(nil, []extract.Symbol{{Name: "abc", Kind: extract.KindFunction, Parent: -1, Signature: "func abc()"}})
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"truncated", valid[:len(valid)-3]},
		{"huge count", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}},
		{"string past end", []byte{1, 50, 'a'}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeSymbols(tc.b); !errors.Is(err, errCorrupt) {
				t.Errorf("decodeSymbols: err = %v, want errCorrupt", err)
			}
			if _, err := decodeOccurrences(tc.b); tc.name == "huge count" && !errors.Is(err, errCorrupt) {
				t.Errorf("decodeOccurrences: err = %v, want errCorrupt", err)
			}
		})
	}
}

// FuzzDecode feeds arbitrary bytes to every decoder of on-disk records: a
// damaged store must produce errors, never panics or huge allocations.
func FuzzDecode(f *testing.F) {
	f.Add(encodeSymbols(nil, []extract.Symbol{{Name: "x", Parent: -1}}))
	f.Add(encodeOccurrences(nil, []Occurrence{{Pos: extract.Pos{Line: 3, Col: 4}}}))
	h := FileHeader{ID: 1, Lang: "go"}
	f.Add(encodeHeader(&h))
	f.Add(encodeDetail(&FileDetail{Path: "p", Imports: []extract.Import{{Path: "fmt"}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeSymbols(b)
		decodeOccurrences(b)
		decodeHeader("p", b)
		decodeDetail(b)
		decodeNames(b)
		parseSymNameKey(b)
		parseRefKey(b)
	})
}

func TestKeys(t *testing.T) {
	k := symNameKey("HTTPServer", 258, 3)
	lower, id, idx, ok := parseSymNameKey(k)
	if !ok || string(lower) != "httpserver" || id != 258 || idx != 3 {
		t.Fatalf("parseSymNameKey = %q %d %d %v", lower, id, idx, ok)
	}
	name, id, ok := parseRefKey(refKey("Ωmega", 9))
	if !ok || string(name) != "Ωmega" || id != 9 {
		t.Fatalf("parseRefKey = %q %d %v", name, id, ok)
	}
	if got := string(appendLower(nil, "ÀBc")); got != "àbc" {
		t.Errorf("appendLower = %q", got)
	}
}

func TestChunkSort(t *testing.T) {
	checkChunkSort(t, []string{"rzeta\x00\x00\x00\x00\x01", "ra\x00\x00\x00\x00\x02", "ralphabetical\x00\x00\x00\x00\x01",
		"ralphabet\x00\x00\x00\x00\x01", "ralphabet\x00\x00\x00\x00\x00", "p/x.go", "f\x00\x00\x00\x07", "", "\xff", "ralpha"})
}

// TestChunkSortDeepRun: a run of one prefix longer than deepRun, radix-sorted
// by its second word, comes out in key order, including keys that end
// within the first or second word, zero bytes where padding would be, and
// keys equal in all sixteen bytes.
func TestChunkSortDeepRun(t *testing.T) {
	keys := []string{"ralphabe", "ralphabe\x00", "ralphabe\x00\x00", "ralphab", "ralphabet", "ralphabetical_sixteen_a", "ralphabetical_sixteen_b"}
	for i := range 3 * deepRun {
		id := uint32(i*7919) % 5000
		keys = append(keys,
			"ralphabet\x00"+string(binary.BigEndian.AppendUint32(nil, id)),
			"ralphabetical_sixteen\x00"+string(binary.BigEndian.AppendUint32(nil, id)))
	}
	checkChunkSort(t, keys)
}

// checkChunkSort puts keys in a chunk, sorts it as a bulk load does, and
// checks the entries come out in key order with their values and
// prefixes.
func checkChunkSort(t *testing.T, keys []string) {
	t.Helper()
	var c chunk
	f := &fileRecords{}
	for _, k := range keys {
		f.Set([]byte(k), []byte("v:"+k), nil)
	}
	c.add(f, &FileHeader{})
	parts := c.parts(1)
	c.sortRuns(parts[0])
	var got []string
	for _, e := range parts[0] {
		got = append(got, string(c.key(e)))
		if string(c.value(e)) != "v:"+string(c.key(e)) {
			t.Fatalf("value of %q lost", c.key(e))
		}
		if e.prefix != keyPrefix(c.key(e)) {
			t.Fatalf("prefix of %q not restored", c.key(e))
		}
	}
	want := slices.Clone(keys)
	slices.Sort(want)
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("at %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
