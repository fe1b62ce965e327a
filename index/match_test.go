package index

import (
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        int
	}{
		{"NewReader", "NewReader", matchExact},
		{"NewReader", "newreader", matchExactFold},
		{"NewReader", "newre", matchPrefix},
		{"HandleFileServer", "hfs", matchCamelStart},
		{"HandleFileServer", "hanFiSe", matchCamelStart},
		{"HTTPRequest", "hr", matchCamelStart},
		{"HTTPRequest", "req", matchCamel},
		{"FSTYPE_HFS", "hfs", matchCamel},
		{"parse_http_line", "phl", matchCamelStart},
		{"utf8Decode", "8d", matchCamel},
		{"Unreadable", "read", matchSubstring},
		{"NewReader", "nwrdr", matchFuzzy},
		{"NewReader", "xyz", matchNone},
		{"NewReader", "readernew", matchNone},
		{"Ünïcode", "ünï", matchPrefix},
		{"anything", "", matchPrefix},
	} {
		lower := appendLower(nil, tc.name)
		got := classify([]byte(tc.name), lower, tc.query, appendLower(nil, tc.query))
		if got != tc.want {
			t.Errorf("classify(%q, %q) = %d, want %d", tc.name, tc.query, got, tc.want)
		}
	}
}

func TestWordStarts(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []int
	}{
		{"HTTPRequest", []int{0, 4}},
		{"parseHTTPLine2x", []int{0, 5, 9, 13}},
		{"snake_case_name", []int{0, 6, 11}},
		{"_private", []int{1}},
		{"x", []int{0}},
	} {
		got := wordStarts([]byte(tc.name), make([]int, 0, maxWords))
		if len(got) != len(tc.want) {
			t.Errorf("wordStarts(%q) = %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("wordStarts(%q) = %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestSearchRanking(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"a.go": `package a

func HandleFileServer() {}
func handleFiles()      {}
const FSTYPE_HFS = 1
func hfs()              {}
func Hfs()              {}
type Unhfsable struct{}
`,
	})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	hits, err := st.SearchSymbols("hfs", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.Symbol.Name)
	}
	want := []string{"hfs", "Hfs", "HandleFileServer", "FSTYPE_HFS", "Unhfsable", "handleFiles"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if hits, _ := st.SearchSymbols("hfs", 2); len(hits) != 2 {
		t.Errorf("limit 2 gave %d hits", len(hits))
	}
}
