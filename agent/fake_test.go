package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

// waitTimeout bounds every wait in these tests; reaching it is a failure,
// never a way to synchronise.
const waitTimeout = 10 * time.Second

// step is one scripted model call.
type step func(ctx context.Context, req *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error)

// scripted is a provider.Provider that plays steps in order and records
// every request it receives.
type scripted struct {
	mu    sync.Mutex
	steps []step
	reqs  []provider.Request
}

func newScripted(steps ...step) *scripted { return &scripted{steps: steps} }

func (p *scripted) Name() string { return "scripted" }

func (p *scripted) Stream(ctx context.Context, req *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
	p.mu.Lock()
	r := *req
	r.Messages = make([]provider.Message, len(req.Messages))
	for i, m := range req.Messages {
		r.Messages[i] = provider.Message{Role: m.Role, Blocks: slices.Clone(m.Blocks)}
	}
	p.reqs = append(p.reqs, r)
	n := len(p.reqs)
	if n > len(p.steps) {
		p.mu.Unlock()
		return nil, fmt.Errorf("scripted provider: unexpected call %d", n)
	}
	s := p.steps[n-1]
	p.mu.Unlock()
	return s(ctx, req, onDelta)
}

func (p *scripted) requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reqs)
}

var stepUsage = provider.Usage{InputTokens: 10, OutputTokens: 5}

// say answers with text, streamed in two deltas.
func say(text string) step {
	return func(_ context.Context, _ *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
		half := len(text) / 2
		onDelta(provider.Delta{Kind: provider.DeltaText, Text: text[:half]})
		onDelta(provider.Delta{Kind: provider.DeltaText, Text: text[half:]})
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: text}}},
			StopReason: provider.StopEndTurn, Usage: stepUsage,
		}, nil
	}
}

// use builds a tool_use block.
func use(id, name, input string) provider.Block {
	return provider.Block{Kind: provider.BlockToolUse, ToolCallID: id, ToolName: name, Input: json.RawMessage(input)}
}

// callTools answers with the given tool calls.
func callTools(calls ...provider.Block) step {
	return func(context.Context, *provider.Request, func(provider.Delta)) (*provider.Response, error) {
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: slices.Clone(calls)},
			StopReason: provider.StopToolUse, Usage: stepUsage,
		}, nil
	}
}

// fakeTool is a configurable tool.
type fakeTool struct {
	name     string
	readOnly bool
	access   func(input json.RawMessage) (access.Access, error)
	run      func(ctx context.Context, input json.RawMessage) (*tools.Result, error)
}

func (f *fakeTool) Name() string            { return f.name }
func (f *fakeTool) Description() string     { return "fake tool " + f.name }
func (f *fakeTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f *fakeTool) ReadOnly() bool          { return f.readOnly }
func (f *fakeTool) Prepare(_ *tools.Env, in json.RawMessage) (tools.Call, error) {
	if f.access != nil {
		a, err := f.access(in)
		if err != nil {
			return nil, err
		}
		return &fakeCall{f, in, a}, nil
	}
	kind := access.Edit
	if f.readOnly {
		kind = access.Read
	}
	return &fakeCall{f, in, access.Access{Kind: kind, Summary: f.name}}, nil
}

// fakeCall is a prepared call of a fakeTool.
type fakeCall struct {
	tool *fakeTool
	in   json.RawMessage
	acc  access.Access
}

func (c *fakeCall) Access() access.Access { return c.acc }
func (c *fakeCall) Run(ctx context.Context) (*tools.Result, error) {
	if c.tool.run != nil {
		return c.tool.run(ctx, c.in)
	}
	return &tools.Result{Content: c.tool.name + " " + string(c.in)}, nil
}

// echo returns its name and input.
func echo(name string, readOnly bool) *fakeTool { return &fakeTool{name: name, readOnly: readOnly} }

// allowAll is a Policy that allows everything except the listed tools.
type allowAll struct{ deny map[string]string }

func (p allowAll) Check(_ context.Context, _ permission.Approver, tool string, _ bool, _ access.Access) (bool, string, error) {
	if reason, ok := p.deny[tool]; ok {
		return false, reason, nil
	}
	return true, "", nil
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) sink(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) kinds() []EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []EventKind
	for _, e := range r.events {
		if len(out) > 0 && out[len(out)-1] == e.Kind && (e.Kind == EventText || e.Kind == EventThinking) {
			continue // deltas collapse
		}
		out = append(out, e.Kind)
	}
	return out
}

func (r *recorder) of(kind EventKind) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, e := range r.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// newTestAgent builds an agent with the given tools and an allow-all policy.
func newTestAgent(t testing.TB, p provider.Provider, ts ...tools.Tool) (*Agent, *recorder) {
	t.Helper()
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	return &Agent{Provider: p, Model: "test-model", Registry: reg, Env: &tools.Env{}, Policy: allowAll{}, Sink: rec.sink}, rec
}

// checkConsistent asserts the history alternates roles and answers every
// tool_use with a tool_result in the next message.
func checkConsistent(t *testing.T, msgs []provider.Message) {
	t.Helper()
	for i, m := range msgs {
		if i > 0 && msgs[i-1].Role == m.Role {
			t.Fatalf("messages %d and %d both have role %s", i-1, i, m.Role)
		}
		var want []string
		for _, b := range m.Blocks {
			if b.Kind == provider.BlockToolUse {
				want = append(want, b.ToolCallID)
			}
		}
		if len(want) == 0 {
			continue
		}
		if i+1 >= len(msgs) {
			t.Fatalf("message %d: tool calls %v have no results", i, want)
		}
		var got []string
		for _, b := range msgs[i+1].Blocks {
			if b.Kind == provider.BlockToolResult {
				got = append(got, b.ToolCallID)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("message %d: results %v, want %v in call order", i+1, got, want)
		}
	}
}

// results returns the tool_result blocks of a message.
func results(m provider.Message) []provider.Block {
	var out []provider.Block
	for _, b := range m.Blocks {
		if b.Kind == provider.BlockToolResult {
			out = append(out, b)
		}
	}
	return out
}

// runAsync runs a turn in a goroutine; the returned func waits for it.
func runAsync(a *Agent, ctx context.Context, s *Session, msg string) func(t *testing.T) (*TurnResult, error) {
	type out struct {
		r   *TurnResult
		err error
	}
	ch := make(chan out, 1)
	go func() {
		r, err := a.Run(ctx, s, msg)
		ch <- out{r, err}
	}()
	return func(t *testing.T) (*TurnResult, error) {
		t.Helper()
		select {
		case o := <-ch:
			return o.r, o.err
		case <-time.After(waitTimeout):
			t.Fatal("Run did not return")
			return nil, nil
		}
	}
}

// barrier lets n callers through only once all n have arrived.
type barrier struct {
	n       int
	arrived atomic.Int32
	all     chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, all: make(chan struct{})} }

func (b *barrier) wait(ctx context.Context) error {
	if int(b.arrived.Add(1)) == b.n {
		close(b.all)
	}
	select {
	case <-b.all:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(waitTimeout):
		return errors.New("the other calls never arrived: tools did not run concurrently")
	}
}
