package complete

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/index"
)

// DefaultDebounce is how long an automatic request waits for the next
// keystroke before it builds anything.
const DefaultDebounce = 75 * time.Millisecond

// Settings are what the configuration says about completion.
type Settings struct {
	// Model answers requests; nil when none is configured (Complete then
	// answers nothing, with Reason NoModel).
	Model fim.Model
	// Debounce delays automatic requests (0: DefaultDebounce; negative:
	// none).
	Debounce time.Duration
	Budget   Budget
	// Languages maps a language to false to turn completion off for it.
	Languages map[string]bool
	// NextEdit is where next-edit proposals come from: "index" (also
	// for ""), "model" or "off" (config.NextEditIndex, ...).
	NextEdit string
}

// Request is one completion asked at a cursor.
type Request struct {
	Source
	// Doc identifies the document across requests (its URI or path).
	Doc string
	// Invoked is set when the user asked explicitly (LSP triggerKind 1):
	// no debounce, and comments and strings are completed too.
	Invoked bool
}

// Why a request got no items.
const (
	NoModel    = "no completion model configured"
	Disabled   = "completion is off for this language"
	InComment  = "inside a comment or string"
	Superseded = "superseded by a newer request"
	Empty      = "the model offered nothing usable"
)

// Item is one completion to show at the cursor.
type Item struct {
	// ID names it in feedback (Engine.Feedback) and in LastContext.
	ID string
	// Text is inserted at the cursor.
	Text string
}

// Result is Complete's answer.
type Result struct {
	Items []Item
	// Reason says why Items is empty.
	Reason string
	// Cached is set when the answer reused the last completion (the
	// user typed through it) without a model call.
	Cached bool
	// Context and Model are the time spent building the request and
	// waiting for the model.
	Context, Model time.Duration
	Prepared       *Prepared
}

// Engine answers completion requests; see the package doc. Safe for
// concurrent use.
type Engine struct {
	mu   sync.Mutex
	set  Settings
	docs map[string]*docState
	ids  uint64
	// byID remembers recent items' language and request for feedback
	// and LastContext (bounded).
	byID  map[string]shownItem
	order []string
	stats StatsSink
}

type shownItem struct {
	lang     string
	prepared *Prepared
}

// docState is one document's request sequence, its in-flight model call
// and its last completion.
type docState struct {
	seq      uint64
	cancel   context.CancelFunc // the in-flight model call's
	inflight chan struct{}      // closed when that call returns
	last     *lastCompletion
}

type lastCompletion struct {
	prefix, suffixLine, text, id string
}

// StatsSink receives what the engine counts (nil: nothing is kept).
type StatsSink func(Event)

// maxRemembered bounds byID.
const maxRemembered = 256

// NewEngine returns an engine with settings set; stats may be nil.
func NewEngine(set Settings, stats StatsSink) *Engine {
	return &Engine{set: set, docs: map[string]*docState{}, byID: map[string]shownItem{}, stats: stats}
}

// SetSettings replaces the settings (a configuration change).
func (e *Engine) SetSettings(set Settings) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.set = set
}

// Configured reports whether a model is configured.
func (e *Engine) Configured() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.set.Model != nil
}

// NextEditMode is Settings.NextEdit, "index" when unset.
func (e *Engine) NextEditMode() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.set.NextEdit == "" {
		return config.NextEditIndex
	}
	return e.set.NextEdit
}

// Warm prepares for completions in a document just opened (Warm), when
// a model is configured and completion is on for lang.
func (e *Engine) Warm(st *index.Store, rel, lang string, content []byte) {
	e.mu.Lock()
	set := e.set
	e.mu.Unlock()
	if on, ok := set.Languages[lang]; set.Model == nil || ok && !on {
		return
	}
	Warm(st, rel, content, set.Budget.Count)
}

// Forget drops a closed document's state, cancelling its model call.
func (e *Engine) Forget(doc string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st, ok := e.docs[doc]; ok {
		st.seq++
		if st.cancel != nil {
			st.cancel()
		}
		delete(e.docs, doc)
	}
}

// Complete answers r: see the package doc for the order of decisions. An
// error is an infrastructure failure (the model's HTTP error); nothing to
// offer is a Result with a Reason.
func (e *Engine) Complete(ctx context.Context, r Request) (Result, error) {
	e.mu.Lock()
	set := e.set
	st := e.docs[r.Doc]
	if st == nil {
		st = &docState{}
		e.docs[r.Doc] = st
	}
	st.seq++
	seq := st.seq
	if st.cancel != nil {
		st.cancel() // a newer keystroke: the older answer is worth nothing
	}
	e.mu.Unlock()

	if set.Model == nil {
		return Result{Reason: NoModel}, nil
	}
	if on, ok := set.Languages[r.Language]; ok && !on {
		return Result{Reason: Disabled}, nil
	}
	off := min(max(r.Offset, 0), len(r.Text))
	prefix, suffix := string(r.Text[:off]), string(r.Text[off:])
	if !r.Invoked && inCommentOrString(r.Language, prefix) {
		return Result{Reason: InComment}, nil
	}
	if res, ok := e.typedThrough(st, prefix, suffix); ok {
		return res, nil
	}
	if !r.Invoked {
		if err := e.debounce(ctx, set.Debounce); err != nil {
			return Result{Reason: Superseded}, nil
		}
	}
	if !e.current(st, seq) {
		return Result{Reason: Superseded}, nil
	}
	start := time.Now()
	p := Build(r.Source, set.Budget)
	res := Result{Context: time.Since(start), Prepared: &p}
	text, err := e.ask(ctx, st, seq, set.Model, p.Request)
	res.Model = time.Since(start) - res.Context
	if err != nil {
		if errors.Is(err, context.Canceled) || !e.current(st, seq) {
			return Result{Reason: Superseded}, nil
		}
		return res, err
	}
	if !e.current(st, seq) {
		return Result{Reason: Superseded}, nil
	}
	text = Clean(r.Language, text, p.Request.Prefix, p.Request.Suffix, p.Request.Multiline)
	if text == "" {
		res.Reason = Empty
		return res, nil
	}
	id := e.remember(r.Language, &p)
	e.mu.Lock()
	st.last = &lastCompletion{prefix: prefix, suffixLine: firstLine(suffix), text: text, id: id}
	e.mu.Unlock()
	res.Items = []Item{{ID: id, Text: text}}
	e.emit(Event{Kind: "offered", ID: id, Language: r.Language, ContextMS: ms(res.Context), ModelMS: ms(res.Model)})
	return res, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// typedThrough answers from the document's last completion when the user
// has typed its first characters since: the rest of it, with no request.
func (e *Engine) typedThrough(st *docState, prefix, suffix string) (Result, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := st.last
	if l == nil || !strings.HasPrefix(prefix, l.prefix) || firstLine(suffix) != l.suffixLine {
		return Result{}, false
	}
	typed := prefix[len(l.prefix):]
	if !strings.HasPrefix(l.text, typed) || len(typed) == len(l.text) {
		return Result{}, false
	}
	return Result{Items: []Item{{ID: l.id, Text: l.text[len(typed):]}}, Cached: true}, true
}

func (e *Engine) debounce(ctx context.Context, d time.Duration) error {
	if d == 0 {
		d = DefaultDebounce
	}
	if d < 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// current reports whether seq is still the document's newest request.
func (e *Engine) current(st *docState, seq uint64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return st.seq == seq
}

// ask calls the model for the document's request seq, after the previous
// call (cancelled by now) has returned: one model call per document at a
// time.
func (e *Engine) ask(ctx context.Context, st *docState, seq uint64, m fim.Model, req fim.Request) (string, error) {
	e.mu.Lock()
	prev := st.inflight
	e.mu.Unlock()
	if prev != nil {
		select {
		case <-prev:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	e.mu.Lock()
	if st.seq != seq {
		e.mu.Unlock()
		return "", context.Canceled
	}
	st.cancel, st.inflight = cancel, done
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		if st.inflight == done {
			st.cancel, st.inflight = nil, nil
		}
		e.mu.Unlock()
		close(done)
	}()
	c, err := m.Complete(mctx, req)
	if err != nil {
		return "", fmt.Errorf("%s completion: %w", m.Name(), err)
	}
	return c.Text, nil
}

// remember gives an offered completion its ID.
func (e *Engine) remember(lang string, p *Prepared) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ids++
	id := fmt.Sprintf("c%d", e.ids)
	e.byID[id] = shownItem{lang: lang, prepared: p}
	e.order = append(e.order, id)
	if len(e.order) > maxRemembered {
		delete(e.byID, e.order[0])
		e.order = e.order[1:]
	}
	return id
}

// LastContext returns the request behind item id ("" for the latest).
func (e *Engine) LastContext(id string) (*Prepared, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if id == "" {
		if len(e.order) == 0 {
			return nil, false
		}
		id = e.order[len(e.order)-1]
	}
	s, ok := e.byID[id]
	return s.prepared, ok
}

// Feedback records what the user did with item id: "shown", "accepted",
// "partial" (chars accepted so far) or "dismissed". Unknown IDs and
// events are ignored.
func (e *Engine) Feedback(id, event string, chars int) {
	switch event {
	case "shown", "accepted", "partial", "dismissed":
	default:
		return
	}
	e.mu.Lock()
	s, ok := e.byID[id]
	e.mu.Unlock()
	if ok {
		e.emit(Event{Kind: event, ID: id, Language: s.lang, Chars: chars})
	}
}

func (e *Engine) emit(ev Event) {
	if e.stats != nil {
		ev.Time = time.Now()
		e.stats(ev)
	}
}
