package lsp

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/workspace"
)

var allEncodings = []workspace.Encoding{workspace.UTF8, workspace.UTF16, workspace.UTF32}

// te builds a TextEdit replacing l1:c1-l2:c2 with text.
func te(l1, c1, l2, c2 uint32, text string) protocol.TextEdit {
	return protocol.TextEdit{
		Range: protocol.Range{
			Start: protocol.Position{Line: l1, Character: c1},
			End:   protocol.Position{Line: l2, Character: c2},
		},
		NewText: text,
	}
}

// applyTextEdits applies edits to old the way a client does: positions
// back to offsets with workspace.Lines in enc, then back to front. It
// fails unless the edits are in document order and do not overlap.
func applyTextEdits(old []byte, edits []protocol.TextEdit, enc workspace.Encoding) ([]byte, error) {
	lines := workspace.NewLines(old)
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		s, err := lines.Offset(e.Range.Start.Line, e.Range.Start.Character, enc)
		if err != nil {
			return nil, fmt.Errorf("edit %d start: %v", i, err)
		}
		t, err := lines.Offset(e.Range.End.Line, e.Range.End.Character, enc)
		if err != nil {
			return nil, fmt.Errorf("edit %d end: %v", i, err)
		}
		if s > t {
			return nil, fmt.Errorf("edit %d: start %d after end %d", i, s, t)
		}
		if i > 0 && s < spans[i-1].end {
			return nil, fmt.Errorf("edit %d at %d overlaps or precedes edit %d ending at %d", i, s, i-1, spans[i-1].end)
		}
		spans[i] = span{s, t, e.NewText}
	}
	out := slices.Clone(old)
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		out = slices.Concat(out[:sp.start], []byte(sp.text), out[sp.end:])
	}
	return out, nil
}

func TestMinimalEdits(t *testing.T) {
	for _, tc := range minimalEditCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, enc := range allEncodings {
				got := minimalEdits([]byte(tc.old), []byte(tc.new), enc)
				want := tc.want
				if w, ok := tc.byEnc[enc]; ok {
					want = w
				}
				if !tc.anyEdits && !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Errorf("%v: edits\n got %s\nwant %s", enc, fmtEdits(got), fmtEdits(want))
				}
				applied, err := applyTextEdits([]byte(tc.old), got, enc)
				if err != nil {
					t.Fatalf("%v: %v (edits %s)", enc, err, fmtEdits(got))
				}
				if string(applied) != tc.new {
					t.Errorf("%v: applying %s gives %q, want %q", enc, fmtEdits(got), applied, tc.new)
				}
			}
		})
	}
}

// minimalEditCases are the table of TestMinimalEdits and the fuzz seeds.
// want holds for every encoding unless byEnc overrides it.
var minimalEditCases = []struct {
	name     string
	old, new string
	want     []protocol.TextEdit
	byEnc    map[workspace.Encoding][]protocol.TextEdit
	anyEdits bool // only check that the edits apply
}{
	{name: "unchanged", old: "a\nb\n", new: "a\nb\n"},
	{name: "both empty", old: "", new: ""},
	{
		name: "one word mid-line",
		old:  "func main() {\n\tx := foo(1)\n}\n",
		new:  "func main() {\n\tx := bar(1)\n}\n",
		want: []protocol.TextEdit{te(1, 6, 1, 9, "bar")},
	},
	{
		name: "longer word",
		old:  "the quick fox\n",
		new:  "the quickest fox\n",
		want: []protocol.TextEdit{te(0, 9, 0, 9, "est")},
	},
	{
		name: "insert line",
		old:  "a\nc\n",
		new:  "a\nb\nc\n",
		want: []protocol.TextEdit{te(1, 0, 1, 0, "b\n")},
	},
	{
		name: "delete line",
		old:  "a\nb\nc\n",
		new:  "a\nc\n",
		want: []protocol.TextEdit{te(1, 0, 2, 0, "")},
	},
	{
		name: "two separate changes",
		old:  "a\nb\nc\nd\ne\n",
		new:  "A\nb\nc\nd\nE\n",
		want: []protocol.TextEdit{te(0, 0, 0, 1, "A"), te(4, 0, 4, 1, "E")},
	},
	{
		name: "change at start",
		old:  "hello world\nbye\n",
		new:  "jello world\nbye\n",
		want: []protocol.TextEdit{te(0, 0, 0, 1, "j")},
	},
	{
		name: "change at end",
		old:  "abc\nxyz",
		new:  "abc\nxyQ",
		want: []protocol.TextEdit{te(1, 2, 1, 3, "Q")},
	},
	{
		name: "append at end",
		old:  "abc\n",
		new:  "abc\ndef",
		want: []protocol.TextEdit{te(1, 0, 1, 0, "def")},
	},
	{
		name: "crlf word",
		old:  "a\r\nfoo\r\nb\r\n",
		new:  "a\r\nbar\r\nb\r\n",
		want: []protocol.TextEdit{te(1, 0, 1, 3, "bar")},
	},
	{
		name: "crlf insert line",
		old:  "a\r\nc\r\n",
		new:  "a\r\nb\r\nc\r\n",
		want: []protocol.TextEdit{te(1, 0, 1, 0, "b\r\n")},
	},
	{
		// The cut cannot fall between '\r' and '\n' (Lines puts both in the
		// terminator), so the edit ends at the next line start.
		name: "crlf to lf",
		old:  "a\r\nb\r\n",
		new:  "a\nb\n",
		want: []protocol.TextEdit{te(0, 1, 2, 0, "\nb\n")},
	},
	{
		name: "lf to crlf",
		old:  "a\nb\n",
		new:  "a\r\nb\r\n",
		want: []protocol.TextEdit{te(0, 1, 1, 1, "\r\nb\r")},
	},
	{
		name: "no trailing newline",
		old:  "a\nb",
		new:  "a\nc",
		want: []protocol.TextEdit{te(1, 0, 1, 1, "c")},
	},
	{
		name: "add final newline",
		old:  "a\nb",
		new:  "a\nb\n",
		want: []protocol.TextEdit{te(1, 1, 1, 1, "\n")},
	},
	{
		name: "drop final newline",
		old:  "a\nb\n",
		new:  "a\nb",
		want: []protocol.TextEdit{te(1, 1, 2, 0, "")},
	},
	{
		name: "empty to text",
		old:  "",
		new:  "hello\nworld\n",
		want: []protocol.TextEdit{te(0, 0, 0, 0, "hello\nworld\n")},
	},
	{
		name: "text to empty",
		old:  "a\nb\n",
		new:  "",
		want: []protocol.TextEdit{te(0, 0, 2, 0, "")},
	},
	{
		name: "text without newline to empty",
		old:  "abc",
		new:  "",
		want: []protocol.TextEdit{te(0, 0, 0, 3, "")},
	},
	{
		// é and « » take 2 bytes, 😀 4 bytes and 2 UTF-16 units.
		name: "non-ascii before the change",
		old:  "x\né «x» 😀 foo\n",
		new:  "x\né «x» 😀 bar\n",
		byEnc: map[workspace.Encoding][]protocol.TextEdit{
			workspace.UTF8:  {te(1, 14, 1, 17, "bar")},
			workspace.UTF16: {te(1, 9, 1, 12, "bar")},
			workspace.UTF32: {te(1, 8, 1, 11, "bar")},
		},
	},
	{
		// é (c3 a9) and ê (c3 aa) share their first byte: the edit must
		// replace the whole character.
		name: "character sharing a lead byte",
		old:  "café\n",
		new:  "cafê\n",
		byEnc: map[workspace.Encoding][]protocol.TextEdit{
			workspace.UTF8:  {te(0, 3, 0, 5, "ê")},
			workspace.UTF16: {te(0, 3, 0, 4, "ê")},
			workspace.UTF32: {te(0, 3, 0, 4, "ê")},
		},
	},
	{
		// 😀 f0 9f 98 80 and 😁 f0 9f 98 81 share three bytes.
		name: "emoji sharing three bytes",
		old:  "«a😀b»\n",
		new:  "«a😁b»\n",
		byEnc: map[workspace.Encoding][]protocol.TextEdit{
			workspace.UTF8:  {te(0, 3, 0, 7, "😁")},
			workspace.UTF16: {te(0, 2, 0, 4, "😁")},
			workspace.UTF32: {te(0, 2, 0, 3, "😁")},
		},
	},
	{
		name: "insert after emoji",
		old:  "😀😀\n",
		new:  "😀x😀\n",
		byEnc: map[workspace.Encoding][]protocol.TextEdit{
			workspace.UTF8:  {te(0, 4, 0, 4, "x")},
			workspace.UTF16: {te(0, 2, 0, 2, "x")},
			workspace.UTF32: {te(0, 1, 0, 1, "x")},
		},
	},
	{
		// Stray continuation bytes fold into the preceding character in
		// workspace.Lines, so no cut may fall before them.
		name: "invalid utf-8 continuation bytes",
		old:  "a\x80\x80b\n",
		new:  "a\x80Xb\n",
		want: []protocol.TextEdit{te(0, 0, 0, 3, "a\x80X")},
	},
	{
		// A truncated € (e2 82) completed to e2 82 ac: the new text must
		// hold the whole character.
		name: "invalid utf-8 truncated sequence",
		old:  "x\xe2\x82\n",
		new:  "x\xe2\x82\xac\n",
		want: []protocol.TextEdit{te(0, 1, 0, 3, "€")},
	},
	{
		name:     "invalid utf-8 garbage",
		old:      "\xff\xfe\xfd\n\xc0\xaf\n",
		new:      "\xff\xfe\n\xc0\xae\xaf\n",
		anyEdits: true,
	},
	{
		name:     "lone carriage returns",
		old:      "a\rb\r\n\r",
		new:      "a\r\rb\r",
		anyEdits: true,
	},
}

func fmtEdits(edits []protocol.TextEdit) string {
	var b strings.Builder
	b.WriteString("[")
	for i, e := range edits {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d:%d-%d:%d %q", e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Line, e.Range.End.Character, e.NewText)
	}
	return b.String() + "]"
}

// TestMinimalEditsLarge: changes to a 10k-line generated file go out as
// small edits, one per changed spot, however far apart the spots are (a
// whole-file replacement would lose the user's cursor, folds and marks,
// and flood the undo history).
func TestMinimalEditsLarge(t *testing.T) {
	old := generatedFile(10_000)
	change := func(text []byte, pairs ...string) []byte {
		for i := 0; i+1 < len(pairs); i += 2 {
			if !bytes.Contains(text, []byte(pairs[i])) {
				t.Fatalf("no %q in the file", pairs[i])
			}
			text = bytes.Replace(text, []byte(pairs[i]), []byte(pairs[i+1]), 1)
		}
		return text
	}
	tests := []struct {
		name string
		new  []byte
		// want is the text of each edit in order; each must lie on one line.
		want []string
	}{
		{"one word", change(old, "Field05000 int", "Field05000 uint"), []string{"u"}},
		{"three lines far apart", change(old, "Field00100 int", "Field00100 int64", "Field05000 int", "Field05000 int64",
			"// value 69930\n", "// value 42\n"), []string{"64", "64", "42"}},
		{"two lines near", change(old, "Field00010 int", "Field00010 int8", "Field00050 int", "Field00050 int8"), []string{"8", "8"}},
		{"insert a line", change(old, "\tField07000", "\tInserted bool\n\tField07000"), []string{"\tInserted bool\n"}},
		// Past go-udiff's search bound (about 50 spots): coarse hunks are
		// diffed again.
		{"every 20th line", denseChanges(old), slices.Repeat([]string{"Member"}, 500)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := minimalEdits(old, tc.new, workspace.UTF16)
			applied, err := applyTextEdits(old, got, workspace.UTF16)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(applied, tc.new) {
				t.Fatalf("applying %d edits does not give new", len(got))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d edits, want %d: %.500s", len(got), len(tc.want), fmtEdits(got))
			}
			for i, e := range got {
				if e.NewText != tc.want[i] || e.Range.End.Line-e.Range.Start.Line > 1 {
					t.Errorf("edit %d: %s, want new text %q within one line", i, fmtEdits(got[i:i+1]), tc.want[i])
				}
			}
		})
	}
}

func FuzzMinimalEdits(f *testing.F) {
	for _, tc := range minimalEditCases {
		f.Add([]byte(tc.old), []byte(tc.new))
	}
	f.Add([]byte("a\nb\nc\nd\n"), []byte("d\nc\nb\na\n"))
	f.Add([]byte("x\r\ny\r\n"), []byte("x\ny\r\nz"))
	f.Fuzz(func(t *testing.T, old, new []byte) {
		for _, enc := range allEncodings {
			edits := minimalEdits(old, new, enc)
			if bytes.Equal(old, new) && len(edits) != 0 {
				t.Fatalf("%v: identical texts gave %s", enc, fmtEdits(edits))
			}
			applied, err := applyTextEdits(old, edits, enc)
			if err != nil {
				t.Fatalf("%v: %v (edits %s)", enc, err, fmtEdits(edits))
			}
			if !bytes.Equal(applied, new) {
				t.Fatalf("%v: applying %s to %q gives %q, want %q", enc, fmtEdits(edits), old, applied, new)
			}
			if utf8.Valid(new) {
				for _, e := range edits {
					if !utf8.ValidString(e.NewText) {
						t.Fatalf("%v: new text %q splits a character", enc, e.NewText)
					}
				}
			}
		}
	})
}
