package mentions

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want []Mention
	}{
		{"look at @a.go", []Mention{{Text: "@a.go", Path: "a.go", Name: "a.go"}}},
		{"see @src/x.go.", []Mention{{Text: "@src/x.go.", Path: "src/x.go.", Name: "src/x.go."}}},
		{"mail a@b.c", nil},
		{"@diagnostics and @changes, (@selection)", []Mention{
			{Kind: KindDiagnostics, Text: "@diagnostics"}, {Kind: KindChanges, Text: "@changes"}, {Kind: KindSelection, Text: "@selection"}}},
		{"fix @diagnostics.", []Mention{{Kind: KindDiagnostics, Text: "@diagnostics."}}},
		{"read @url:https://go.dev/doc/ now", []Mention{{Kind: KindURL, Text: "@url:https://go.dev/doc/", URL: "https://go.dev/doc/"}}},
		{"@url:https://x.org/a.", []Mention{{Kind: KindURL, Text: "@url:https://x.org/a.", URL: "https://x.org/a"}}},
		{"twice @a @a", []Mention{{Text: "@a", Path: "a", Name: "a"}}},
		{"`@code` and \"@q\"", []Mention{{Text: "@q", Path: "q", Name: "q"}}},
		{"@ alone and @@x", []Mention{{Text: "@@x", Path: "@x", Name: "@x"}}},
		{"", nil},
	} {
		if got := Parse(tc.msg); !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.msg, got, tc.want)
		}
	}
}

func TestIdentRE(t *testing.T) {
	for s, want := range map[string]bool{
		"Serve": true, "Server.Serve": true, "_x": true, "Größe": true,
		"a/b": false, "1x": false, "a.b.c": false, "": false, "a.": false,
	} {
		if identRE.MatchString(s) != want {
			t.Errorf("identRE(%q) = %v", s, !want)
		}
	}
}

// Parse never panics, returns mentions that occur in the message, and
// each once.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"look at @a.go", "@url:http://x", "a@b", "(@selection)", "@\xff", "@diagnostics."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		seen := map[string]bool{}
		for _, m := range Parse(msg) {
			if !strings.HasPrefix(m.Text, "@") || len(m.Text) < 2 || !strings.Contains(msg, m.Text) {
				t.Fatalf("mention %+v is not in %q", m, msg)
			}
			if seen[m.Text] {
				t.Fatalf("%q twice", m.Text)
			}
			seen[m.Text] = true
			if m.Kind == "" && (m.Path == "" || m.Name == "") {
				t.Fatalf("an unclassified mention without a word: %+v", m)
			}
			if utf8.ValidString(msg) && !utf8.ValidString(m.Text) {
				t.Fatalf("invalid UTF-8 from valid input: %q", m.Text)
			}
		}
	})
}
