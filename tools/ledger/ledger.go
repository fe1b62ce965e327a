package ledger

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/internal/tokcount"
)

// Range is a span of lines, 1-based and inclusive. An empty range (End <
// Start) marks a point: where an edit deleted lines.
type Range struct {
	Start int `json:"s"`
	End   int `json:"e"`
}

// Kind is how a read is answered.
type Kind uint8

const (
	// Fresh: the caller shows the requested lines itself and Records them.
	Fresh Kind = iota
	// Unchanged: Answer.Text is a stub naming the earlier read.
	Unchanged
	// Diff: Answer.Text is a unified diff against what the model saw.
	Diff
	// Certificate: Answer.Text certifies the agent's own edit.
	Certificate
	// Outline: Answer.Text is Request.Outline's text.
	Outline
)

var kindNames = [...]string{Fresh: "full", Unchanged: "unchanged", Diff: "diff", Certificate: "certificate", Outline: "outline"}

func (k Kind) String() string { return kindNames[k] }

// Request is one read as the tool sees it. Start and End are normalised
// by the caller to 1 <= Start <= End <= the file's line count.
type Request struct {
	Path    string // the key: absolute, resolved
	Shown   string // the path as the model knows it, for the texts
	Content []byte // the content now (the editor's buffer, else the disk)
	Start   int
	End     int
	Full    bool // the model asked for the full text
	Turn    int
	// Outline, when set, is what a first read of the whole file may show
	// instead of the text (see Elisions).
	Outline *OutlineView
}

// Answer is the ledger's decision for a Request.
type Answer struct {
	Kind Kind
	Text string // empty for Fresh
}

// Tokens is what a read cost: Sent, the tokens of the answer, and
// Baseline, what showing the requested lines in full would have cost.
type Tokens struct {
	Sent     int
	Baseline int
}

// Store persists a session's records (agent.SessionStore's 'l' records).
type Store interface {
	LoadLedger() ([]Record, error)
	AppendLedger(r Record) error
}

// Record is one entry of the ledger: the whole state of Path after it (an
// empty Path with Kind "forget" clears every path), plus the tokens the
// read cost. Content is set when Hash differs from the path's previous
// state, so that a later process can diff against it.
type Record struct {
	Seq      uint64  `json:"seq"`
	Path     string  `json:"path,omitempty"`
	Kind     string  `json:"kind"` // a Kind's name, or "edit", "shown" or "forget"
	Turn     int     `json:"turn"`
	Hash     string  `json:"hash,omitempty"`
	Seen     []Range `json:"seen,omitempty"`
	SeenTurn int     `json:"seen_turn,omitempty"`
	FromEdit bool    `json:"from_edit,omitempty"`
	Edited   []Range `json:"edited,omitempty"`
	Pending  bool    `json:"pending,omitempty"` // a certificate is due
	Outline  bool    `json:"outline,omitempty"` // the model saw an outline
	Content  []byte  `json:"content,omitempty"`
	Sent     int     `json:"sent,omitempty"`
	Baseline int     `json:"baseline,omitempty"`
	// Totals, in a "totals" record, are the token totals of the records
	// a rewrite of the log dropped (see prune.go).
	Totals map[string]Mechanism `json:"totals,omitempty"`
}

const (
	kindEdit   = "edit"
	kindForget = "forget"
	kindShown  = "shown"
)

// file is what the model knows of one path.
type file struct {
	hash     string
	content  []byte
	lines    int
	seen     []Range // sorted, merged
	turn     int     // when the model last got this content
	fromEdit bool    // ... by its own edit
	edited   []Range // the edit's changed lines
	pending  bool    // the certificate has not been shown yet
	outline  bool    // the model saw this content as an outline (seen: its lines)
}

// Ledger is one session's ledger. Safe for concurrent use.
type Ledger struct {
	mu    sync.Mutex
	files map[string]*file
	store Store
	seq   uint64
	// stored counts the records in store (see prune).
	stored int
	stats  Stats
	// Gate decides when a diff is worth sending.
	Gate DiffGate
}

// NewMemory returns an empty ledger kept in memory only.
func NewMemory() *Ledger {
	return &Ledger{files: map[string]*file{}, Gate: DefaultGate, stats: newStats()}
}

// New returns a ledger replaying store's records and appending new ones.
func New(store Store) (*Ledger, error) {
	l := NewMemory()
	l.store = store
	recs, err := store.LoadLedger()
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	for _, r := range recs {
		l.apply(r)
		l.seq = max(l.seq, r.Seq)
	}
	l.stored = len(recs)
	return l, nil
}

// Hash names a content version.
func Hash(b []byte) string { return strconv.FormatUint(xxhash.Sum64(b), 16) }

// Read decides how to answer r. It changes nothing.
func (l *Ledger) Read(r Request) Answer {
	if r.Full {
		return Answer{Kind: Fresh}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.files[r.Path]
	if f == nil {
		return first(r)
	}
	whole := r.Start == 1 && r.End >= CountLines(r.Content)
	if Hash(r.Content) == f.hash {
		switch {
		case f.pending && whole && (f.outline || covered(f.seen, 1, f.lines)):
			return Answer{Kind: Certificate, Text: certificate(r, f)}
		case covered(f.seen, r.Start, r.End):
			return Answer{Kind: Unchanged, Text: stub(r, f, whole)}
		case f.outline && whole:
			return Answer{Kind: Unchanged, Text: outlineStub(r, f)}
		}
		return Answer{Kind: Fresh}
	}
	if whole && covered(f.seen, 1, f.lines) {
		if d, ok := l.Gate.diff(r.Shown, f.content, r.Content); ok {
			return Answer{Kind: Diff, Text: fmt.Sprintf("[%s changed since %s; unified diff from that version to now, @@ -old +new line numbers; pass full: true for the whole file]\n%s", r.Shown, since(f), d)}
		}
	}
	return first(r)
}

// first answers a read of content the model has not seen: its outline
// when the caller offers one for a whole-file read, else the text.
func first(r Request) Answer {
	if r.Outline != nil && r.Start == 1 && r.End >= CountLines(r.Content) {
		return Answer{Kind: Outline, Text: r.Outline.Text}
	}
	return Answer{Kind: Fresh}
}

// Seen says whether the model has seen any version of path in this
// session: only a first read needs an outline.
func (l *Ledger) Seen(path string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.files[path] != nil
}

// Elided returns the lines around start..end of path's content that the
// model has not seen because its read showed an outline, so that an edit
// there can be refused; ok is false when the model has seen them (or
// never saw an outline of this content).
func (l *Ledger) Elided(path string, content []byte, start, end int) (gap Range, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.files[path]
	if f == nil || !f.outline || f.hash != Hash(content) {
		return Range{}, false
	}
	for n := start; n <= end; n++ {
		if covered(f.seen, n, n) {
			continue
		}
		gap = Range{n, n}
		for gap.Start > 1 && !covered(f.seen, gap.Start-1, gap.Start-1) {
			gap.Start--
		}
		for gap.End < f.lines && !covered(f.seen, gap.End+1, gap.End+1) {
			gap.End++
		}
		return gap, true
	}
	return Range{}, false
}

// Record makes the answer a to r part of the ledger: shown is the range of
// lines a Fresh answer showed (it may end before r.End when the output was
// cut to its budget).
func (l *Ledger) Record(r Request, a Answer, shown Range, tok Tokens) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := Hash(r.Content)
	f := l.files[r.Path]
	changed := f == nil || f.hash != h
	if changed {
		f = &file{hash: h, content: r.Content, lines: CountLines(r.Content)}
	}
	switch a.Kind {
	case Fresh:
		if shown.End >= shown.Start {
			f.seen = addRange(f.seen, shown)
		}
		f.turn, f.fromEdit = r.Turn, false
		if covered(f.seen, 1, f.lines) {
			f.pending = false
		}
	case Diff:
		f.seen = []Range{{1, f.lines}}
		f.turn, f.fromEdit = r.Turn, false
	case Certificate:
		f.pending = false
	case Outline:
		f.seen, f.outline = r.Outline.Kept, true
		f.turn, f.fromEdit = r.Turn, false
	}
	return l.commit(r.Path, a.Kind.String(), r.Turn, f, changed, tok)
}

// Shown records that another tool (get_symbol) showed the model lines of
// path's content, so that an outline's body counts as seen.
func (l *Ledger) Shown(path string, content []byte, lines Range, turn int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := Hash(content)
	f := l.files[path]
	changed := f == nil || f.hash != h
	if changed {
		f = &file{hash: h, content: content, lines: CountLines(content), turn: turn}
	}
	f.seen = addRange(f.seen, lines)
	return l.commit(path, kindShown, turn, f, changed, Tokens{})
}

// Edited tells the ledger that the agent changed path from old to new. The
// model knows what it wrote and what it had seen of old (all of it when
// old was empty), at the lines the edit moved it to; when it had not seen
// old at all, the path is forgotten, so the next read shows it.
func (l *Ledger) Edited(path string, old, new []byte, turn int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.files[path]
	if len(old) > 0 && (f == nil || f.hash != Hash(old)) {
		if f == nil {
			return nil
		}
		delete(l.files, path)
		return l.commit(path, kindForget, turn, nil, false, Tokens{})
	}
	n := &file{hash: Hash(new), content: new, lines: CountLines(new), turn: turn, fromEdit: true,
		edited: changedRanges(old, new), pending: true}
	switch {
	case n.lines == 0:
	case len(old) == 0 || covered(f.seen, 1, f.lines):
		n.seen = []Range{{1, n.lines}}
	default:
		// The model saw part of old (an outline, line ranges): it knows
		// those lines where the edit moved them, and what it wrote.
		n.seen, n.outline = mapSeen(f.seen, old, new), f.outline
	}
	return l.commit(path, kindEdit, turn, n, true, Tokens{})
}

// Removed forgets path (deleted or moved away).
func (l *Ledger) Removed(path string, turn int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.files[path] == nil {
		return nil
	}
	delete(l.files, path)
	return l.commit(path, kindForget, turn, nil, false, Tokens{})
}

// Forget clears what the model is known to have seen, for when its
// context lost earlier tool results (compaction).
func (l *Ledger) Forget(turn int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.files)
	return l.commit("", kindForget, turn, nil, false, Tokens{})
}

// commit updates the in-memory state for path to f (nil: forgotten),
// counts the tokens and appends the record to the store.
func (l *Ledger) commit(path, kind string, turn int, f *file, withContent bool, tok Tokens) error {
	l.seq++
	r := Record{Seq: l.seq, Path: path, Kind: kind, Turn: turn, Sent: tok.Sent, Baseline: tok.Baseline}
	if f != nil {
		r.Hash, r.Seen, r.SeenTurn, r.FromEdit, r.Edited, r.Pending, r.Outline = f.hash, f.seen, f.turn, f.fromEdit, f.edited, f.pending, f.outline
		if withContent {
			r.Content = f.content
		}
	}
	l.apply(r)
	if err := l.append(r); err != nil {
		return err
	}
	return l.prune()
}

// append writes r, numbered if it is not yet, to the store. Precondition:
// l.mu is held.
func (l *Ledger) append(r Record) error {
	if l.store == nil {
		return nil
	}
	if r.Seq == 0 {
		l.seq++
		r.Seq = l.seq
	}
	if err := l.store.AppendLedger(r); err != nil {
		return fmt.Errorf("ledger %s: %w", r.Path, err)
	}
	l.stored++
	return nil
}

// apply replays one record. Precondition: l.mu is held (or l is not yet
// shared).
func (l *Ledger) apply(r Record) {
	l.stats.add(r)
	switch {
	case r.Kind == kindTotals:
		l.stats = Stats{ByKind: maps.Clone(r.Totals)}
		if l.stats.ByKind == nil {
			l.stats = newStats()
		}
		return
	case r.Kind == kindForget && r.Path == "":
		clear(l.files)
		return
	case r.Kind == kindForget:
		delete(l.files, r.Path)
		return
	}
	f := l.files[r.Path]
	if f == nil || f.hash != r.Hash {
		if r.Content == nil {
			// The content is stored with the record that changed the hash;
			// without it the state cannot be diffed against, so it is
			// safer to forget the path.
			delete(l.files, r.Path)
			return
		}
		f = &file{hash: r.Hash, content: r.Content, lines: CountLines(r.Content)}
	}
	f.seen, f.turn, f.fromEdit, f.edited, f.pending, f.outline = r.Seen, r.SeenTurn, r.FromEdit, r.Edited, r.Pending, r.Outline
	l.files[r.Path] = f
}

// Footprint estimates the bytes the ledger holds: the content the model
// last saw of each file, and a little per file.
func (l *Ledger) Footprint() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for path, f := range l.files {
		n += int64(len(f.content)+len(path)+16*len(f.seen)) + 128
	}
	return n
}

// Stats returns the session's token accounting so far.
func (l *Ledger) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats.clone()
}

// turnKey carries the current turn number in a tool call's context.
type turnKey struct{}

type counterKey struct{}

// WithCounter returns ctx carrying the session's token counter (its
// model's, tokcount.For), with which reads are accounted in Stats.
func WithCounter(ctx context.Context, count func(string) int) context.Context {
	return context.WithValue(ctx, counterKey{}, count)
}

// CounterOf returns the counter WithCounter put in ctx, or the default
// model's (tokcount.For("")) when none was.
func CounterOf(ctx context.Context) func(string) int {
	if c, ok := ctx.Value(counterKey{}).(func(string) int); ok {
		return c
	}
	return tokcount.For("")
}

// WithTurn returns ctx carrying the session's turn number n.
func WithTurn(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, turnKey{}, n)
}

// TurnOf returns the turn number WithTurn put in ctx (0 if none).
func TurnOf(ctx context.Context) int {
	n, _ := ctx.Value(turnKey{}).(int)
	return n
}
