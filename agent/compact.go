package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/provider"
)

// Compaction keeps a session inside the model's context window. Before
// each model call the prompt is counted (see tokens.go); above the
// threshold (Agent.CompactThreshold of the window) the history is
// compacted in two stages:
//
//  1. Masking: the results of old tool calls are replaced by a one-line
//     stub naming the tool and what it returned; the calls stay, so the
//     model knows what it did and can call again. Cheap, no model call.
//  2. Summarising, when masking did not bring the prompt down to half
//     the threshold: a separate request (compact_prompt.md) has the
//     model summarise the old messages, and the summary, followed by the
//     open todos, the files changed and the user's last message
//     verbatim, replaces them in one user message.
//
// "Old" is everything before the most recent messages worth keepShare of
// the window (at least the last assistant message and what follows it),
// which stay whole. The history keeps the invariants of the package doc:
// roles alternate and every kept tool call keeps its result. A manual
// Compact and the recovery from a context-overflow error keep only the
// last exchange and always go on to the summary; when the last exchange
// alone is too big, the recovery also cuts its largest tool results
// (compact_clip.go). Each compaction is recorded in Session.Compactions.
//
// There is no early background summary (at ~40% of the window): measured
// on the 200-turn session of TestLongSessionStaysInTheWindow, summary
// requests are 1.7% of the prompt tokens; an early summary could at best
// halve the one still needed at the threshold and adds one of its own.

// DefaultCompactThreshold is the share of the context window at which the
// history is compacted before a model call.
const DefaultCompactThreshold = config.DefaultCompactThreshold

const (
	// keepShare of the window is kept whole at the end of the history.
	keepShare = 0.2
	// maskMinTokens: smaller results are not worth a stub.
	maskMinTokens = 64
	// transcriptShare of the window is the most the summary request as a
	// whole takes (transcript, prompt and summary); the rest is room for
	// the estimate's error.
	transcriptShare = 0.75
)

// Compaction reasons.
const (
	CompactAuto     = "auto"     // the prompt passed the threshold
	CompactManual   = "manual"   // Agent.Compact (the user asked)
	CompactOverflow = "overflow" // the model rejected the prompt as too long
)

// Compaction records one compaction of a session's history.
type Compaction struct {
	Time   time.Time `json:"time"`
	Reason string    `json:"reason"` // CompactAuto, CompactManual or CompactOverflow
	Focus  string    `json:"focus,omitempty"`
	// TokensBefore and TokensAfter are the estimated prompt sizes.
	TokensBefore int `json:"tokensBefore"`
	TokensAfter  int `json:"tokensAfter"`
	// Masked counts tool results replaced by a stub; Summarised counts
	// the messages replaced by the summary (0 when masking was enough).
	Masked     int `json:"masked"`
	Summarised int `json:"summarised"`
	// Clipped counts tool results of the last exchange cut to their first
	// lines (an overflow that compacting the older messages did not cure).
	Clipped int `json:"clipped,omitempty"`
}

// contextWindow is the model's window in tokens. It follows Model, which
// a front end may change between turns.
func (a *Agent) contextWindow() int {
	return provider.ContextWindow(a.Model, a.ContextWindow)
}

// compactAt is the prompt size in tokens above which a call compacts.
func (a *Agent) compactAt() int {
	th := a.CompactThreshold
	if th <= 0 || th > 1 {
		th = DefaultCompactThreshold
	}
	return int(th * float64(a.contextWindow()))
}

// Compact compacts s now, summarising everything but its last exchange
// (the last assistant message and what follows it); focus (may be empty)
// tells the summary what to keep above all. It returns nil when there is
// nothing old enough to compact. Like Run, it must not run while another
// Run or Compact uses s. The session is saved when a Store is set, and
// the summary request's tokens are added to s.Usage.
func (a *Agent) Compact(ctx context.Context, s *Session, focus string) (*Compaction, error) {
	if a.Provider == nil {
		return nil, errors.New("compact: no model provider configured")
	}
	emit := func(e Event) {
		if a.Sink != nil {
			e.Session, e.Turn = s.ID, s.Turns
			a.Sink(e)
		}
	}
	a.calibrate(s)
	c := compactor{a: a, s: s, specs: a.specs(), charge: s.Usage.Add, emit: emit}
	rec, err := c.run(ctx, CompactManual, focus, true)
	if err != nil || rec == nil {
		return nil, err
	}
	s.Updated = time.Now().UTC()
	if a.Store != nil {
		if err := a.Store.Save(s); err != nil {
			return rec, fmt.Errorf("save session %s: %w", s.ID, err)
		}
	}
	return rec, nil
}

// specs lists the tools offered to the model.
func (a *Agent) specs() []provider.ToolSpec {
	if a.Registry == nil {
		return nil
	}
	return a.Registry.Specs()
}

// compactor compacts one session's history.
type compactor struct {
	a      *Agent
	s      *Session
	specs  []provider.ToolSpec
	charge func(provider.Usage) // accounts the summary request
	emit   func(Event)          // reports the compaction
}

// estimate is the calibrated prompt size of the session's next request.
func (c *compactor) estimate() int {
	return c.s.counter(c.a.Model).estimate(c.a.SystemPrompt, c.specs, c.s.Messages)
}

// run masks old tool results and, when force is set or masking was not
// enough, summarises the old messages. It returns nil when nothing
// changed. On a failed summary the masking stays (the history is valid
// either way) and is recorded.
func (c *compactor) run(ctx context.Context, reason, focus string, force bool) (*Compaction, error) {
	rec := &Compaction{Reason: reason, Focus: focus, TokensBefore: c.estimate()}
	rec.TokensAfter = rec.TokensBefore
	keep := int(keepShare * float64(c.a.contextWindow()))
	if reason != CompactAuto {
		// The user asked, or the model said the prompt does not fit
		// whatever the estimate says: keep only the last exchange.
		keep = 0
	}
	tc := c.s.counter(c.a.Model)
	var err error
	// With at most the first user message old, there is nothing to
	// summarise.
	if cut := c.cut(keep); cut >= 2 {
		c.preCompactHooks(ctx, reason, focus)
		rec.Masked = maskResults(c.s.Messages[:cut], tc.count)
		tc.reset()
		rec.TokensAfter = c.estimate()
		if force || rec.TokensAfter > c.a.compactAt()/2 {
			err = c.summarise(ctx, cut, focus)
			if err == nil {
				rec.Summarised = cut
				tc.reset()
				rec.TokensAfter = c.estimate()
			}
		}
	}
	if reason == CompactOverflow && err == nil && (rec.Masked+rec.Summarised == 0 || rec.TokensAfter > c.a.compactAt()) {
		// The last exchange itself is too big (compact_clip.go).
		rec.Clipped = c.clip(c.clipTarget())
		rec.TokensAfter = c.estimate()
	}
	if rec.Masked == 0 && rec.Summarised == 0 && rec.Clipped == 0 {
		return nil, err
	}
	if c.a.Env != nil && c.a.Env.Ledger != nil {
		// The texts the ledger's stubs point at may be gone from the
		// history: from now on a re-read shows the file again. (Coarse:
		// files whose last read is among the kept messages are shown
		// again too, which costs tokens but is never wrong.)
		err = errors.Join(err, c.a.Env.Ledger.Forget(c.s.Turns))
	}
	rec.Time = time.Now().UTC()
	c.s.Compactions = append(c.s.Compactions, *rec)
	c.emit(Event{Kind: EventCompaction, Compaction: rec, Text: rec.String()})
	return rec, err
}

// String says what a compaction did in one line: "compacted the
// conversation (auto): 172000 -> 41000 tokens; 12 tool results masked,
// 40 messages summarised".
func (r *Compaction) String() string {
	var did []string
	if r.Masked > 0 {
		did = append(did, fmt.Sprintf("%d tool %s masked", r.Masked, plural(r.Masked, "result", "results")))
	}
	if r.Summarised > 0 {
		did = append(did, fmt.Sprintf("%d %s summarised", r.Summarised, plural(r.Summarised, "message", "messages")))
	}
	if r.Clipped > 0 {
		did = append(did, fmt.Sprintf("%d tool %s cut", r.Clipped, plural(r.Clipped, "result", "results")))
	}
	return fmt.Sprintf("compacted the conversation (%s): %d -> %d tokens; %s", r.Reason, r.TokensBefore, r.TokensAfter, strings.Join(did, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// cut is the index of the first message kept whole: the earliest
// assistant message from which the rest of the history fits budget
// tokens, and never after the last assistant message. Cutting before an
// assistant message keeps each kept call with its result and lets the
// summary (a user message) precede it. A history without an assistant
// message is all old.
func (c *compactor) cut(budget int) int {
	msgs := c.s.Messages
	tc := c.s.counter(c.a.Model)
	tc.messages(msgs) // fill the per-message cache
	cut, size := len(msgs), 0
	for i := len(msgs) - 1; i >= 0; i-- {
		size += tc.scale(tc.msgs[i].tokens)
		if msgs[i].Role != provider.RoleAssistant {
			continue
		}
		if cut < len(msgs) && size > budget {
			break
		}
		cut = i
	}
	return cut
}

// autoCompact compacts before a model call whose prompt would pass the
// threshold.
func (t *turn) autoCompact() error {
	c := t.compactor()
	at := t.a.compactAt()
	if t.noAutoCompact || c.estimate() <= at {
		return nil
	}
	rec, err := c.run(t.ctx, CompactAuto, "", false)
	if err != nil {
		return err
	}
	if rec == nil || rec.TokensAfter > at {
		t.noAutoCompact = true
	}
	return t.save()
}

// recoverOverflow handles a call the model rejected as too long: compact
// (always summarising, and cutting the last exchange's largest tool
// results when that was not enough), then try the call once more. A second overflow is
// reported with the sizes involved.
func (t *turn) recoverOverflow(cause error) (*provider.Response, error) {
	c := t.compactor()
	rec, err := c.run(t.ctx, CompactOverflow, "", true)
	if err != nil {
		return nil, fmt.Errorf("%w; compacting the conversation failed: %w", cause, err)
	}
	if err := t.save(); err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, fmt.Errorf("%w (the conversation has nothing left to compact or cut: the last exchange alone is too long for the %d-token window)", cause, t.a.contextWindow())
	}
	resp, err := t.callModel()
	if errors.Is(err, provider.ErrContextOverflow) {
		return nil, fmt.Errorf("the conversation does not fit the model's %d-token context window even after compaction (about %d tokens now): %w",
			t.a.contextWindow(), rec.TokensAfter, err)
	}
	return resp, err
}

func (t *turn) compactor() *compactor {
	return &compactor{a: t.a, s: t.s, specs: t.specs, charge: t.addUsage, emit: t.emit}
}
