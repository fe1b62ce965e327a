package complete

import (
	"strings"
	"testing"
	"time"
)

func TestChangedLines(t *testing.T) {
	for _, tc := range []struct {
		before, after string
		start, end    int
		old, cur      string
	}{
		{"a\nb\nc\n", "a\nB\nc\n", 2, 2, "b\n", "B\n"},
		{"a\nb\nc\n", "a\nb\nx\ny\nc\n", 3, 4, "", "x\ny\n"},
		{"a\nb\nc\n", "a\nc\n", 2, 2, "b\n", ""},
		{"a", "ab", 1, 1, "a", "ab"},
		{"a\nb\n", "a\nxb\n", 2, 2, "b\n", "xb\n"},
		{"b\n", "ab\n", 1, 1, "b\n", "ab\n"},
		{"x", "yx", 1, 1, "x", "yx"},
		{"ab\n", "b\n", 1, 1, "ab\n", "b\n"},
	} {
		e, ok := changedLines("f.go", []byte(tc.before), []byte(tc.after))
		if !ok || e.StartLine != tc.start || e.EndLine != tc.end || e.Before != tc.old || e.After != tc.cur {
			t.Errorf("%q -> %q: got %d-%d %q -> %q", tc.before, tc.after, e.StartLine, e.EndLine, e.Before, e.After)
		}
	}
	if _, ok := changedLines("f.go", []byte("same"), []byte("same")); ok {
		t.Error("no change reported as one")
	}
}

// FuzzChangedLines: the edit is whole lines, and putting its Before back
// in place of its After gives the old text.
func FuzzChangedLines(f *testing.F) {
	f.Add("a\nb\n", "a\nxb\n")
	f.Add("b\n", "ab\n")
	f.Add("", "x")
	f.Add("x\ny", "")
	f.Fuzz(func(t *testing.T, before, after string) {
		e, ok := changedLines("f", []byte(before), []byte(after))
		if !ok {
			if before != after {
				t.Fatal("a change not reported")
			}
			return
		}
		lines := strings.SplitAfter(after, "\n")
		start := e.StartLine - 1
		head := strings.Join(lines[:start], "")
		if !strings.HasPrefix(after[len(head):], e.After) {
			t.Fatalf("After %q is not at line %d of %q", e.After, e.StartLine, after)
		}
		tail := after[len(head)+len(e.After):]
		if head+e.Before+tail != before {
			t.Fatalf("%q -> %q: edit %+v does not rebuild the old text", before, after, e)
		}
		if e.After != "" && !strings.HasSuffix(e.After, "\n") && tail != "" {
			t.Fatalf("After %q ends mid-line before %q", e.After, tail)
		}
	})
}

func TestEditRing(t *testing.T) {
	now := time.Unix(1000, 0)
	r := &EditRing{now: func() time.Time { return now }}
	// Typing a line one keystroke at a time is one edit.
	text := "func f() {\n}\n"
	for _, typed := range []string{"r", "re", "ret", "retu", "return"} {
		next := "func f() {\n\t" + typed + "\n}\n"
		if typed == "r" {
			next = "func f() {\n\tr\n}\n"
		}
		r.Record("a.go", []byte(text), []byte(next))
		text = next
		now = now.Add(time.Second)
	}
	got := r.Recent()
	if len(got) != 1 || got[0].After != "\treturn\n" || got[0].Before != "" || got[0].StartLine != 2 {
		t.Fatalf("typing one line: %+v", got)
	}
	if d := got[0].Diff(); !strings.Contains(d, "+\treturn\n") || !strings.HasPrefix(d, "--- a/a.go\n") {
		t.Errorf("diff %q", d)
	}
	// Another file is another edit, newest first; old ones age out.
	r.Record("b.go", []byte("x\n"), []byte("y\n"))
	if got := r.Recent(); len(got) != 2 || got[0].Path != "b.go" {
		t.Fatalf("two files: %+v", got)
	}
	now = now.Add(ringAge + time.Second)
	if got := r.Recent(); len(got) != 0 {
		t.Errorf("edits older than %v kept: %+v", ringAge, got)
	}
	for i := range ringSize + 5 {
		r.Record("c.go", []byte(strings.Repeat("x\n", i*3)), []byte(strings.Repeat("x\n", i*3)+"y\n\n\n"))
		now = now.Add(2 * time.Minute)
	}
	if n := len(r.edits); n > ringSize {
		t.Errorf("ring holds %d edits, bound %d", n, ringSize)
	}
}
