package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
)

// Defaults for zero Agent fields.
const (
	DefaultMaxIterations = 50
	// DefaultRepeatLimit is how many identical calls (same tool, same
	// arguments) a turn may make before they are refused.
	DefaultRepeatLimit = 3
	// maxParallel bounds concurrently running read-only tools.
	maxParallel = 8
)

// StopReason says why a turn ended.
type StopReason string

const (
	StopEndTurn       StopReason = "end_turn"       // the model answered
	StopMaxTokens     StopReason = "max_tokens"     // the answer hit the token cap
	StopMaxIterations StopReason = "max_iterations" // too many model calls
	StopRepeated      StopReason = "repeated_calls" // the model kept repeating a refused call
	StopCancelled     StopReason = "cancelled"      // ctx was cancelled
	StopError         StopReason = "error"          // Run returned an error
)

// Policy decides whether a tool call may run; *permission.Policy is the
// implementation. allowed false with a reason is a denial for the model;
// err means the decision itself failed.
type Policy interface {
	Check(ctx context.Context, ap permission.Approver, tool string, readOnly bool, a access.Access) (allowed bool, reason string, err error)
}

// Saver persists a session; *SessionStore is the implementation.
type Saver interface {
	Save(s *Session) error
}

// Agent is the configured loop. Its fields are read, never written, by
// Run, so one Agent may serve several sessions at once.
type Agent struct {
	Provider provider.Provider
	Model    string
	Registry *tools.Registry // nil: no tools
	Env      *tools.Env
	// Policy nil allows read-only tools and denies everything else.
	Policy Policy
	// Approver nil means non-interactive: calls needing a question are denied.
	Approver permission.Approver
	Sink     Sink  // nil: events are dropped
	Store    Saver // nil: the session lives in memory only
	// MaxIterations caps model calls per turn (0: DefaultMaxIterations).
	MaxIterations int
	// MaxTokens caps each answer (0: the provider's default, -1: all that
	// fits); the cap sent shrinks to what is left of the window, see
	// budget.go.
	MaxTokens      int
	ThinkingBudget int
	// RepeatLimit (0: DefaultRepeatLimit); see DefaultRepeatLimit.
	RepeatLimit  int
	SystemPrompt string
	// ContextWindow is the configured context_window: the window, in
	// tokens, of a model provider.ContextWindow does not know (0: its
	// default). Known models use their documented window.
	ContextWindow int
	// Hooks runs the user's hook commands (nil: none); see hooks.go.
	Hooks *hooks.Runner
	// AutoRecall puts the long-term memories relevant to each user
	// message (from Env.Memory) in front of the model; see recall.go.
	AutoRecall bool
	// CompactThreshold is the share of ContextWindow above which the
	// history is compacted before a model call (0 or out of (0, 1]:
	// DefaultCompactThreshold). See compact.go.
	CompactThreshold float64
	// Vision is the configuration's "vision" section: model-name prefixes
	// that do (true) or do not take images, over provider.SupportsImages's
	// table. See images.go.
	Vision map[string]bool

	// subAgent is set on the Agent of a task sub-agent: its end runs the
	// SubagentStop hooks, and it has no session of its own to start.
	subAgent bool
}

// TurnResult summarises a finished turn.
type TurnResult struct {
	// Text is the text of the turn's last assistant message.
	Text       string
	StopReason StopReason
	Usage      provider.Usage // this turn only
	Iterations int            // model calls made
}

// turn is the state of one Run.
type turn struct {
	a     *Agent
	ctx   context.Context
	s     *Session
	n     int
	specs []provider.ToolSpec
	res   TurnResult

	mu      sync.Mutex // serializes Sink calls
	usageMu sync.Mutex // guards res.Usage and s.Usage against sub-agents
	repeats map[string]int
	// noAutoCompact is set when a compaction left the prompt above the
	// threshold: compacting again before every call would only add
	// summary requests.
	noAutoCompact bool
	hookState
}

// usageKey carries a turn's addUsage in the context of its tool calls, so
// sub-agents (the task tool) charge their tokens to the turn and session
// that started them.
type usageKey struct{}

// addUsage accounts tokens spent for this turn, by its own model calls or
// by a sub-agent's, and reports them.
func (t *turn) addUsage(u provider.Usage) {
	t.usageMu.Lock()
	t.res.Usage.Add(u)
	t.s.Usage.Add(u)
	t.usageMu.Unlock()
	t.emit(Event{Kind: EventUsage, Usage: u})
}

// chargeUsage adds u to the turn running in ctx, if any.
func chargeUsage(ctx context.Context, u provider.Usage) {
	if add, ok := ctx.Value(usageKey{}).(func(provider.Usage)); ok {
		add(u)
	}
}

// Run appends userMessage to the session and runs the loop until the model
// answers without tool calls, the iteration cap is hit, the model keeps
// repeating refused calls, ctx is cancelled or something fails. The session
// is saved (if a Store is set) after the user message and after every
// completed model call or tool round; a response that calls tools is saved
// together with their results, so the stored history never holds an
// unanswered call and a crash loses at most the step in flight. The
// result is never nil; err is
// non-nil only for failures (then the result's StopReason is StopError).
func (a *Agent) Run(ctx context.Context, s *Session, userMessage string) (*TurnResult, error) {
	return a.RunInput(ctx, s, Input{Text: userMessage})
}

// RunInput is Run with images besides the text (see Input). Images for a
// model that does not take them are refused (*provider.NoVisionError,
// reported like any failure) before the session changes or anything is
// sent.
func (a *Agent) RunInput(ctx context.Context, s *Session, in Input) (*TurnResult, error) {
	if err := a.checkImages(in.Images); err != nil {
		return (&turn{a: a, s: s, n: s.Turns}).fail(err)
	}
	userMessage := in.Text
	s.Turns++
	t := &turn{a: a, s: s, n: s.Turns, repeats: map[string]int{}}
	t.ctx = ledger.WithTurn(context.WithValue(ctx, usageKey{}, t.addUsage), t.n)
	t.ctx = ledger.WithCounter(t.ctx, tokcount.For(a.Model)) // reads are accounted as prompts are counted
	if !a.subAgent {
		t.ctx = context.WithValue(t.ctx, parentSessionKey{}, s.ID)
	}
	t.specs = a.specs()
	a.calibrate(s)
	if a.Provider == nil {
		return t.fail(errors.New("agent: no model provider configured"))
	}
	extra, stop := t.startHooks(userMessage)
	if stop != "" {
		return t.finish(stop), nil
	}
	s.addUser(userMessage, in.Images)
	for _, x := range extra {
		s.addUserText(x)
	}
	t.autoRecall(userMessage)
	if err := t.save(); err != nil {
		return t.fail(err)
	}
	limit := a.MaxIterations
	if limit <= 0 {
		limit = DefaultMaxIterations
	}
	for t.res.Iterations < limit {
		t.res.Iterations++
		stop, err := t.step()
		if err != nil {
			return t.fail(err)
		}
		if stop == StopEndTurn {
			var goOn bool
			if goOn, stop = t.stopHooks(); goOn {
				continue
			}
			if stop == "" {
				stop = StopEndTurn
			}
		}
		if stop != "" {
			return t.finish(stop), nil
		}
	}
	return t.finish(StopMaxIterations), nil
}

// step makes one model call and runs its tool calls. A non-empty stop ends
// the turn.
func (t *turn) step() (StopReason, error) {
	if err := t.autoCompact(); err != nil {
		if t.ctx.Err() != nil {
			return StopCancelled, nil
		}
		return "", err
	}
	resp, err := t.callModel()
	if errors.Is(err, provider.ErrContextOverflow) && t.ctx.Err() == nil {
		resp, err = t.recoverOverflow(err)
	}
	if err != nil {
		if t.ctx.Err() != nil {
			return StopCancelled, nil
		}
		return "", fmt.Errorf("model call: %w", err)
	}
	msg := resp.Message
	msg.Role = provider.RoleAssistant
	if len(msg.Blocks) == 0 {
		// Nothing to keep: an empty assistant message is rejected by APIs.
		return stopFor(resp.StopReason), nil
	}
	t.s.Messages = append(t.s.Messages, msg)
	t.res.Text = textOf(msg)
	calls := toolUses(msg)
	if len(calls) == 0 {
		if err := t.save(); err != nil {
			return "", err
		}
		return stopFor(resp.StopReason), nil
	}
	for _, c := range calls {
		t.emit(Event{Kind: EventToolCall, ToolCallID: c.ToolCallID, ToolName: c.ToolName, Input: c.Input})
	}
	results, stop, runErr := t.runCalls(calls)
	t.s.Messages = append(t.s.Messages, provider.Message{Role: provider.RoleUser, Blocks: results})
	if err := t.save(); err != nil {
		return "", errors.Join(runErr, err)
	}
	switch {
	case runErr != nil:
		return "", runErr
	case t.ctx.Err() != nil:
		return StopCancelled, nil
	case t.stoppedByHook():
		return StopHook, nil
	}
	return stop, nil
}

// callModel streams one response, emitting text and thinking as they
// arrive, and accounts its usage.
func (t *turn) callModel() (*provider.Response, error) {
	a := t.a
	req := &provider.Request{
		Model:    a.Model,
		System:   a.SystemPrompt,
		Messages: a.visible(t.s.Messages),
		Tools:    t.specs,
	}
	tc := t.s.counter(a.Model)
	raw := tc.raw(req.System, req.Tools, req.Messages)
	req.MaxTokens, req.ThinkingBudget = a.responseBudget(tc.scale(raw))
	resp, err := a.Provider.Stream(t.ctx, req, func(d provider.Delta) {
		switch d.Kind {
		case provider.DeltaText:
			t.emit(Event{Kind: EventText, Text: d.Text})
		case provider.DeltaThinking:
			t.emit(Event{Kind: EventThinking, Text: d.Text})
		}
	})
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("provider returned no response")
	}
	if a.Model != "" {
		t.s.Model = a.Model
	}
	t.addUsage(resp.Usage)
	before := tc.ratio
	tc.observe(raw, resp.Usage)
	if err := a.saveCalibration(tc, before); err != nil {
		return nil, err
	}
	if resp.StopReason == provider.StopContextOverflow {
		// The answer is cut short and a retry of the same prompt would be
		// cut the same way: it is dropped like a broken stream's, and step
		// compacts and asks again (recoverOverflow).
		return nil, fmt.Errorf("the model ran out of context window mid-answer: %w", provider.ErrContextOverflow)
	}
	return resp, nil
}

func (t *turn) save() error {
	t.s.Updated = time.Now().UTC()
	if t.a.Store == nil {
		return nil
	}
	if err := t.a.Store.Save(t.s); err != nil {
		return fmt.Errorf("save session %s: %w", t.s.ID, err)
	}
	return nil
}

func (t *turn) emit(e Event) {
	if t.a.Sink == nil {
		return
	}
	e.Session, e.Turn = t.s.ID, t.n
	t.mu.Lock()
	defer t.mu.Unlock()
	t.a.Sink(e)
}

func (t *turn) finish(stop StopReason) *TurnResult {
	t.res.StopReason = stop
	t.emit(Event{Kind: EventDone, Usage: t.res.Usage, StopReason: stop})
	r := t.res
	return &r
}

func (t *turn) fail(err error) (*TurnResult, error) {
	t.emit(Event{Kind: EventError, Err: err, Text: err.Error()})
	return t.finish(StopError), err
}

func stopFor(r provider.StopReason) StopReason {
	if r == provider.StopMaxTokens {
		return StopMaxTokens
	}
	return StopEndTurn
}

func toolUses(m provider.Message) []provider.Block {
	var out []provider.Block
	for _, b := range m.Blocks {
		if b.Kind == provider.BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}

func textOf(m provider.Message) string {
	var sb strings.Builder
	for _, b := range m.Blocks {
		if b.Kind == provider.BlockText {
			sb.WriteString(b.Text)
		}
	}
	return sb.String()
}
