package ledger

import (
	"fmt"
	"strings"
	"testing"
)

// numbered builds a file of n lines "line 1".."line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func replaceLine(s string, n int, with string) string {
	lines := strings.SplitAfter(s, "\n")
	lines[n-1] = with + "\n"
	return strings.Join(lines, "")
}

// memStore is a Store in memory, to check replay.
type memStore struct{ recs []Record }

func (m *memStore) LoadLedger() ([]Record, error) { return m.recs, nil }
func (m *memStore) AppendLedger(r Record) error   { m.recs = append(m.recs, r); return nil }

// step is one read (or edit, when edit is set) in a scripted session.
type step struct {
	content    string
	start, end int // 0: whole file
	full       bool
	edit       string // non-empty: the agent edits content into edit
	want       Kind
	contains   []string
}

func run(t *testing.T, l *Ledger, steps []step) {
	t.Helper()
	for i, s := range steps {
		turn := i + 1
		if s.edit != "" {
			if err := l.Edited("/w/a.go", []byte(s.content), []byte(s.edit), turn); err != nil {
				t.Fatal(err)
			}
			continue
		}
		n := CountLines([]byte(s.content))
		start, end := max(s.start, 1), n
		if s.end > 0 {
			end = s.end
		}
		r := Request{Path: "/w/a.go", Shown: "a.go", Content: []byte(s.content), Start: start, End: end, Full: s.full, Turn: turn}
		a := l.Read(r)
		if a.Kind != s.want {
			t.Fatalf("step %d: answer %v, want %v\n%s", i, a.Kind, s.want, a.Text)
		}
		for _, c := range s.contains {
			if !strings.Contains(a.Text, c) {
				t.Errorf("step %d: answer lacks %q:\n%s", i, c, a.Text)
			}
		}
		if err := l.Record(r, a, Range{start, end}, Tokens{Sent: 1, Baseline: 10}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLedger(t *testing.T) {
	v1 := numbered(200)
	v2 := replaceLine(v1, 100, "changed 100")
	scattered := v1
	for i := 1; i <= 200; i += 10 {
		scattered = replaceLine(scattered, i, "x")
	}
	edited := replaceLine(v1, 50, "edited 50")
	tests := []struct {
		name  string
		steps []step
	}{
		{"first read is full", []step{{content: v1, want: Fresh}}},
		{"unchanged re-read is a stub", []step{
			{content: v1, want: Fresh},
			{content: v1, want: Unchanged, contains: []string{"a.go unchanged since your read at turn 1 (lines 1–200)"}},
		}},
		{"full always shows", []step{{content: v1, want: Fresh}, {content: v1, full: true, want: Fresh}}},
		{"small change is a diff", []step{
			{content: v1, want: Fresh},
			{content: v2, want: Diff, contains: []string{"changed since your read at turn 1", "-line 100\n", "+changed 100\n", "@@ -98,5 +98,5 @@"}},
			{content: v2, want: Unchanged, contains: []string{"since your read at turn 2"}},
		}},
		{"scattered change is the file", []step{{content: v1, want: Fresh}, {content: scattered, want: Fresh}}},
		{"range reads are tracked per range", []step{
			{content: v1, start: 10, end: 20, want: Fresh},
			{content: v1, start: 12, end: 18, want: Unchanged, contains: []string{"lines 12–18 unchanged"}},
			{content: v1, start: 15, end: 30, want: Fresh},
			{content: v1, start: 10, end: 30, want: Unchanged},
			{content: v1, want: Fresh},
		}},
		{"a change after a range read is shown", []step{
			{content: v1, start: 1, end: 20, want: Fresh},
			{content: v2, want: Fresh},
		}},
		{"own edit gives a certificate, then a stub", []step{
			{content: v1, want: Fresh},
			{content: v1, edit: edited},
			{content: edited, want: Certificate, contains: []string{"as your edit at turn 2 left it: 200 lines, hash " + Hash([]byte(edited)), "changed: line 50", " 49\tline 49\n 50\tedited 50\n 51\tline 51\n"}},
			{content: edited, want: Unchanged, contains: []string{"since your edit at turn 2"}},
		}},
		{"edit keeps what was seen of a file read in part", []step{
			{content: v1, start: 1, end: 10, want: Fresh},
			{content: v1, edit: edited},
			{content: edited, start: 1, end: 10, want: Unchanged, contains: []string{"lines 1–10 unchanged since your edit at turn 2"}},
			{content: edited, start: 49, end: 51, want: Fresh},
			{content: edited, want: Fresh},
		}},
		{"edit of a file never read is not known", []step{
			{content: v1, edit: edited},
			{content: edited, want: Fresh},
		}},
		{"edit then outside change is a diff", []step{
			{content: v1, want: Fresh},
			{content: v1, edit: edited},
			{content: replaceLine(edited, 150, "outside"), want: Diff, contains: []string{"since your edit at turn 2", "+outside"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { run(t, NewMemory(), tt.steps) })
	}
}

func TestReplay(t *testing.T) {
	v1 := numbered(100)
	st := &memStore{}
	l, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	run(t, l, []step{{content: v1, want: Fresh}, {content: v1, want: Unchanged}})
	// A second process (parley read, a resumed chat) sees the same state.
	l2, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	run(t, l2, []step{
		{content: v1, want: Unchanged},
		{content: replaceLine(v1, 3, "three"), want: Diff},
	})
	if got := l2.Stats().ByKind["unchanged"]; got.Reads != 2 || got.Saved() != 18 {
		t.Errorf("unchanged stats after replay = %+v", got)
	}
	if fp := l2.Footprint(); fp < int64(len(v1)) {
		t.Errorf("Footprint %d does not count the %d bytes held", fp, len(v1))
	}
	if err := l2.Forget(9); err != nil {
		t.Fatal(err)
	}
	if fp := l2.Footprint(); fp != 0 {
		t.Errorf("Footprint after Forget = %d", fp)
	}
	l3, _ := New(st)
	run(t, l3, []step{{content: v1, want: Fresh}})
}

func TestChangedRanges(t *testing.T) {
	v := numbered(10)
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"one line", v, replaceLine(v, 4, "x"), "line 4"},
		{"insert", v, strings.Replace(v, "line 2\n", "line 2\na\nb\n", 1), "lines 3–4"},
		{"delete", v, strings.Replace(v, "line 5\n", "", 1), "lines deleted before line 5"},
		{"two", v, replaceLine(replaceLine(v, 2, "x"), 9, "y"), "line 2, line 9"},
	}
	for _, tt := range tests {
		if got := rangeList(changedRanges([]byte(tt.old), []byte(tt.new))); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// An outline is the first read's answer when offered; an unchanged
// re-read is a stub saying so; an edit inside a body the outline elided is
// caught by Elided, one in a shown part keeps the outline state and gives
// a certificate; a read of an elided range shows it.
func TestLedgerOutline(t *testing.T) {
	v1 := numbered(100)
	lines := strings.Split(strings.TrimSuffix(v1, "\n"), "\n")
	ov := RenderOutline("a.go", lines, []Range{{11, 40}, {51, 90}})
	l := NewMemory()
	req := func(content string, start, end int) Request {
		return Request{Path: "/w/a.go", Shown: "a.go", Content: []byte(content), Start: start, End: end, Turn: 1, Outline: &ov}
	}
	r := req(v1, 1, 100)
	a := l.Read(r)
	if a.Kind != Outline || !strings.Contains(a.Text, "\n10\tline 10\n…\n41\tline 41\n") || strings.Contains(a.Text, "line 20\n") {
		t.Fatalf("first read: %v\n%s", a.Kind, a.Text)
	}
	if err := l.Record(r, a, Range{}, Tokens{}); err != nil {
		t.Fatal(err)
	}
	if a := l.Read(r); a.Kind != Unchanged || !strings.Contains(a.Text, "your outline read") {
		t.Fatalf("re-read: %v %s", a.Kind, a.Text)
	}
	if gap, ok := l.Elided("/w/a.go", []byte(v1), 20, 21); !ok || gap != (Range{11, 40}) {
		t.Errorf("Elided(20-21) = %v, %v", gap, ok)
	}
	if _, ok := l.Elided("/w/a.go", []byte(v1), 41, 50); ok {
		t.Error("Elided(41-50): the outline showed those lines")
	}
	edited := replaceLine(v1, 45, "x\ny")
	if err := l.Edited("/w/a.go", []byte(v1), []byte(edited), 2); err != nil {
		t.Fatal(err)
	}
	r = req(edited, 1, 101)
	if a := l.Read(r); a.Kind != Certificate || !strings.Contains(a.Text, "changed: lines 45–46") {
		t.Fatalf("after the edit: %v %s", a.Kind, a.Text)
	}
	// The second body moved down a line with the edit.
	if gap, ok := l.Elided("/w/a.go", []byte(edited), 60, 60); !ok || gap != (Range{52, 91}) {
		t.Errorf("Elided after the edit = %v, %v", gap, ok)
	}
	r = req(edited, 52, 91)
	if a := l.Read(r); a.Kind != Fresh {
		t.Fatalf("read of the elided body: %v", a.Kind)
	}
	if err := l.Record(r, Answer{Kind: Fresh}, Range{52, 91}, Tokens{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Elided("/w/a.go", []byte(edited), 60, 60); ok {
		t.Error("a body read since is still elided")
	}
}

// rewriteStore is a memStore that can rewrite its log (a Rewriter).
type rewriteStore struct{ memStore }

func (m *rewriteStore) ReplaceLedger(recs []Record) error {
	m.recs = append([]Record(nil), recs...)
	return nil
}

// readAll reads each of files once at turn, answering fresh reads.
func readAll(t *testing.T, l *Ledger, files []string, turn int) {
	t.Helper()
	for _, p := range files {
		content := []byte("package " + p + "\n")
		r := Request{Path: "/w/" + p, Shown: p, Content: content, Start: 1, End: 1, Turn: turn}
		a := l.Read(r)
		seen := Range{}
		if a.Kind == Fresh {
			seen = Range{Start: 1, End: 1}
		}
		if err := l.Record(r, a, seen, Tokens{Sent: 10, Baseline: 10}); err != nil {
			t.Fatal(err)
		}
	}
}

// A long session's log is rewritten as one record per file (plus the
// totals) instead of growing by a record per read, and replays to the
// same ledger, totals included.
func TestLedgerLogIsRewritten(t *testing.T) {
	st := &rewriteStore{}
	l, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"a", "b", "c"}
	for turn := 1; turn <= 400; turn++ {
		readAll(t, l, files, turn)
	}
	if n := len(st.recs); n > 2*len(files)+rewriteSlack+1 {
		t.Errorf("%d records after 1200 reads of 3 files", n)
	}
	want := l.Stats().Total()
	if want.Reads != 1200 {
		t.Fatalf("stats %+v", want)
	}
	again, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Stats().Total(); got != want {
		t.Errorf("replayed totals %+v, want %+v", got, want)
	}
	r := Request{Path: "/w/b", Shown: "b", Content: []byte("package b\n"), Start: 1, End: 1, Turn: 401}
	if k := again.Read(r).Kind; k != Unchanged {
		t.Errorf("replayed ledger answers %v, want unchanged", k)
	}
}

// Beyond MaxFiles the files read longest ago are forgotten first (their
// next read is full), in memory and in the store.
func TestLedgerForgetsTheOldestFiles(t *testing.T) {
	for _, st := range []Store{&memStore{}, &rewriteStore{}} {
		l, err := New(st)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for i := range MaxFiles + 10 {
			files = append(files, fmt.Sprintf("f%04d", i))
		}
		for i, p := range files {
			readAll(t, l, []string{p}, i+1)
		}
		replayed, err := New(st)
		if err != nil {
			t.Fatal(err)
		}
		for _, led := range []*Ledger{l, replayed} {
			for _, c := range []struct {
				path string
				want Kind
			}{{files[0], Fresh}, {files[9], Fresh}, {files[10], Unchanged}, {files[len(files)-1], Unchanged}} {
				r := Request{Path: "/w/" + c.path, Shown: c.path, Content: []byte("package " + c.path + "\n"), Start: 1, End: 1}
				if k := led.Read(r).Kind; k != c.want {
					t.Errorf("%T: %s is %v, want %v", st, c.path, k, c.want)
				}
			}
		}
	}
}
