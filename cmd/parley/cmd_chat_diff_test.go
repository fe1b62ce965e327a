package main

import (
	"fmt"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/parleyhq/parley/tools"
)

func TestRenderDiff(t *testing.T) {
	short := func(abs string) string { return strings.TrimPrefix(abs, "/w/") }
	plain := diffStyle{perFile: 12, total: 30, shortPath: short}
	numbered := func(n int, format string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, format+"\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name    string
		changes []tools.FileChange
		style   diffStyle
		want    string
	}{
		{
			name:    "small edit",
			changes: []tools.FileChange{{Op: tools.OpModify, Path: "/w/a.go", Old: []byte(numbered(9, "l%d")), New: []byte(strings.Replace(numbered(9, "l%d"), "l5\n", "five\n", 1))}},
			style:   plain,
			want: `modify a.go  +1 -1
@@ -2,7 +2,7 @@
 l2
 l3
 l4
-l5
+five
 l6
 l7
 l8
`,
		},
		{
			name:    "big edit truncated",
			changes: []tools.FileChange{{Op: tools.OpModify, Path: "/w/big.go", Old: []byte(numbered(50, "old %d")), New: []byte(numbered(50, "new %d"))}},
			style:   plain,
			want: `modify big.go  +50 -50
@@ -1,50 +1,50 @@
-old 1
-old 2
-old 3
-old 4
-old 5
-old 6
-old 7
-old 8
-old 9
-old 10
-old 11
  … 89 more lines
`,
		},
		{
			name:    "create",
			changes: []tools.FileChange{{Op: tools.OpCreate, Path: "/w/new/b.go", New: []byte("package b\n\nfunc B() {}")}},
			style:   plain,
			want: `create new/b.go  +3 -0
@@ -0,0 +1,3 @@
+package b
+
+func B() {}
\ No newline at end of file
`,
		},
		{
			name:    "delete",
			changes: []tools.FileChange{{Op: tools.OpDelete, Path: "/w/gone.go", Old: []byte("package a\n")}},
			style:   plain,
			want: `delete gone.go  +0 -1
@@ -1 +0,0 @@
-package a
`,
		},
		{
			name:    "move",
			changes: []tools.FileChange{{Op: tools.OpRename, Path: "/w/a.go", NewPath: "/w/sub/a.go", Old: []byte("package a\n")}},
			style:   plain,
			want:    "move a.go → sub/a.go\n",
		},
		{
			name: "budget shared by the files",
			changes: []tools.FileChange{
				{Op: tools.OpCreate, Path: "/w/one.go", New: []byte(numbered(3, "%d"))},
				{Op: tools.OpCreate, Path: "/w/two.go", New: []byte(numbered(3, "%d"))},
			},
			style: diffStyle{perFile: 10, total: 6, shortPath: short},
			want: `create one.go  +3 -0
@@ -0,0 +1,3 @@
+1
+2
+3
create two.go  +3 -0
@@ -0,0 +1,3 @@
+1
  … 2 more lines
`,
		},
		{
			name:    "binary",
			changes: []tools.FileChange{{Op: tools.OpModify, Path: "/w/x.bin", Old: []byte("a\x00b"), New: []byte("a\x00c")}},
			style:   plain,
			want:    "modify x.bin  (binary, 3 → 3 bytes)\n",
		},
		{
			name:    "colour",
			changes: []tools.FileChange{{Op: tools.OpModify, Path: "/w/a.go", Old: []byte("x\n"), New: []byte("y\n")}},
			style:   diffStyle{color: true, perFile: 10, total: 10, shortPath: short},
			want:    bold + "modify a.go  +1 -1" + reset + "\n" + cyan + "@@ -1 +1 @@" + reset + "\n" + red + "-x" + reset + "\n" + green + "+y" + reset + "\n",
		},
		{
			name:    "control characters are shown, not sent",
			changes: []tools.FileChange{{Op: tools.OpCreate, Path: "/w/evil.txt", New: []byte("ok\x1b[2J\tend\r\n")}},
			style:   plain,
			want:    "create evil.txt  +1 -0\n@@ -0,0 +1 @@\n+ok\\x1b[2J\tend\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderDiff(tt.changes, tt.style); got != tt.want {
				t.Errorf("renderDiff =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// A huge change (every line of a 20k-line file) is still diffed line by
// line, counted exactly and cut to the budget.
func TestRenderDiffHugeRegion(t *testing.T) {
	const n = 20000
	var before, after strings.Builder
	before.WriteString("keep 1\nkeep 2\n")
	after.WriteString("keep 1\nkeep 2\n")
	for i := range n {
		fmt.Fprintf(&before, "old %d\n", i)
		fmt.Fprintf(&after, "new %d\n", i)
	}
	before.WriteString("tail\n")
	after.WriteString("tail\n")
	got := renderDiff([]tools.FileChange{{Op: tools.OpModify, Path: "/w/a", Old: []byte(before.String()), New: []byte(after.String())}},
		diffStyle{perFile: 5, total: 5, shortPath: func(s string) string { return s }})
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if want := fmt.Sprintf("modify /w/a  +%d -%d", n, n); lines[0] != want {
		t.Errorf("header %q, want %q", lines[0], want)
	}
	if len(lines) != 1+5+1 || !strings.HasPrefix(lines[1], "@@ -1,") || !strings.Contains(lines[6], "more lines") {
		t.Errorf("renderDiff =\n%s", got)
	}
}

// FuzzDiffHunks checks, for any two texts, that the hunks shown take the
// first to the second: every context and removed line is what the old
// text holds there, and applying them gives the new text.
func FuzzDiffHunks(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("", "x")
	f.Add("x\ny", "")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n0\n")
	f.Add("same\n", "same\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		old, want := splitKeep(before), splitKeep(after)
		var got []string
		cursor := 0
		for _, h := range hunks(before, after) {
			if h.FromLine-1 < cursor || h.FromLine-1 > len(old) {
				t.Fatalf("hunk at line %d, cursor %d, %d lines", h.FromLine, cursor, len(old))
			}
			got = append(got, old[cursor:h.FromLine-1]...)
			cursor = h.FromLine - 1
			for _, l := range h.Lines {
				if l.Kind == udiff.Insert {
					got = append(got, l.Content)
					continue
				}
				if cursor >= len(old) || old[cursor] != l.Content {
					t.Fatalf("%s line %q at %d does not match the old text", l.Kind, l.Content, cursor)
				}
				if l.Kind == udiff.Equal {
					got = append(got, l.Content)
				}
				cursor++
			}
		}
		got = append(got, old[cursor:]...)
		if strings.Join(got, "") != strings.Join(want, "") {
			t.Fatalf("hunks give %q, want %q", strings.Join(got, ""), after)
		}
	})
}
