package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

func TestPlainAnswer(t *testing.T) {
	p := newScripted(say("Hello there"))
	a, rec := newTestAgent(t, p)
	s := NewSession()
	res, err := a.Run(context.Background(), s, "say hello\nplease")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Hello there" || res.StopReason != StopEndTurn || res.Iterations != 1 || res.Usage != stepUsage {
		t.Errorf("result %+v", res)
	}
	if want := []EventKind{EventText, EventUsage, EventDone}; !slices.Equal(rec.kinds(), want) {
		t.Errorf("events %v, want %v", rec.kinds(), want)
	}
	if len(s.Messages) != 2 || s.Title != "say hello" || s.Turns != 1 || s.Usage != stepUsage || s.Model != "test-model" {
		t.Errorf("session %+v", s)
	}
	req := p.requests()[0]
	if req.Model != "test-model" || len(req.Messages) != 1 || req.Messages[0].Blocks[0].Text != "say hello\nplease" {
		t.Errorf("request %+v", req)
	}
	for _, e := range rec.events {
		if e.Session != s.ID || e.Turn != 1 {
			t.Errorf("event %+v not stamped with session and turn", e)
		}
	}
}

func TestOneToolCall(t *testing.T) {
	p := newScripted(callTools(use("c1", "look", `{"path":"a.go"}`)), say("a.go is fine"))
	a, rec := newTestAgent(t, p, echo("look", true))
	s := NewSession()
	res, err := a.Run(context.Background(), s, "check a.go")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "a.go is fine" || res.Iterations != 2 || res.Usage.InputTokens != 20 {
		t.Errorf("result %+v", res)
	}
	want := []EventKind{EventUsage, EventToolCall, EventToolResult, EventText, EventUsage, EventDone}
	if !slices.Equal(rec.kinds(), want) {
		t.Errorf("events %v, want %v", rec.kinds(), want)
	}
	call := rec.of(EventToolCall)[0]
	if call.ToolCallID != "c1" || call.ToolName != "look" || string(call.Input) != `{"path":"a.go"}` {
		t.Errorf("toolCall event %+v", call)
	}
	reqs := p.requests()
	if len(reqs) != 2 || len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != "look" {
		t.Fatalf("requests %+v", reqs)
	}
	got := results(reqs[1].Messages[2])
	if len(got) != 1 || got[0].Text != `look {"path":"a.go"}` || got[0].IsError {
		t.Errorf("tool result sent to the model: %+v", got)
	}
	checkConsistent(t, s.Messages)
}

func TestReadOnlyToolsRunInParallel(t *testing.T) {
	b := newBarrier(2)
	wait := &fakeTool{name: "wait", readOnly: true, run: func(ctx context.Context, in json.RawMessage) (*tools.Result, error) {
		if err := b.wait(ctx); err != nil {
			return tools.Errorf("%v", err), nil
		}
		return &tools.Result{Content: "through " + string(in)}, nil
	}}
	p := newScripted(callTools(use("a", "wait", `{"n":1}`), use("b", "wait", `{"n":2}`)), say("done"))
	a, _ := newTestAgent(t, p, wait)
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	got := results(s.Messages[2])
	if len(got) != 2 || got[0].IsError || got[1].IsError || got[0].Text != `through {"n":1}` || got[1].Text != `through {"n":2}` {
		t.Errorf("results %+v (want both through, in call order)", got)
	}
}

func TestMutatingToolsRunInOrder(t *testing.T) {
	var (
		mu      sync.Mutex
		log     []string
		running atomic.Int32
	)
	logger := func(name string, readOnly bool) *fakeTool {
		return &fakeTool{name: name, readOnly: readOnly, run: func(_ context.Context, in json.RawMessage) (*tools.Result, error) {
			if running.Add(1) > 1 && !readOnly {
				return tools.Errorf("ran concurrently with another call"), nil
			}
			defer running.Add(-1)
			mu.Lock()
			log = append(log, name+string(in))
			mu.Unlock()
			return &tools.Result{Content: "ok"}, nil
		}}
	}
	p := newScripted(callTools(
		use("1", "write", `1`), use("2", "write", `2`), use("3", "read", `3`), use("4", "write", `4`), use("5", "write", `5`),
	), say("done"))
	a, _ := newTestAgent(t, p, logger("write", false), logger("read", true))
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"write1", "write2", "read3", "write4", "write5"}; !slices.Equal(log, want) {
		t.Errorf("order %v, want %v", log, want)
	}
	for _, r := range results(s.Messages[2]) {
		if r.IsError {
			t.Errorf("result %+v", r)
		}
	}
	checkConsistent(t, s.Messages)
}

func TestModelMistakesBecomeErrorResults(t *testing.T) {
	strict := &fakeTool{name: "strict", readOnly: true, access: func(json.RawMessage) (access.Access, error) {
		return access.Access{}, errors.New(`missing required field "path"`)
	}}
	p := newScripted(callTools(
		use("u", "nosuch", `{}`), use("d", "rm", `{}`), use("s", "strict", `{}`), use("ok", "look", `{}`),
	), say("adapted"))
	a, _ := newTestAgent(t, p, echo("look", true), echo("rm", false), strict)
	a.Policy = allowAll{deny: map[string]string{"rm": "deleting files is denied by rule shell(rm:*)"}}
	s := NewSession()
	res, err := a.Run(context.Background(), s, "go")
	if err != nil || res.StopReason != StopEndTurn || res.Text != "adapted" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	got := results(s.Messages[2])
	want := []struct {
		isErr    bool
		contains string
	}{
		{true, `unknown tool "nosuch"; use one of: look, rm, strict`},
		{true, "permission denied: deleting files is denied by rule shell(rm:*)"},
		{true, `invalid call of strict: missing required field "path"`},
		{false, "look {}"},
	}
	for i, w := range want {
		if got[i].IsError != w.isErr || !strings.Contains(got[i].Text, w.contains) {
			t.Errorf("result %d = %+v, want isError=%v containing %q", i, got[i], w.isErr, w.contains)
		}
	}
}

func TestNilPolicyAllowsOnlyReadOnly(t *testing.T) {
	p := newScripted(callTools(use("r", "look", `{}`), use("w", "write", `{}`)), say("ok"))
	a, _ := newTestAgent(t, p, echo("look", true), echo("write", false))
	a.Policy = nil
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	got := results(s.Messages[2])
	if got[0].IsError || !got[1].IsError || !strings.Contains(got[1].Text, "only read-only tools") {
		t.Errorf("results %+v", got)
	}
}

func TestRepeatedCalls(t *testing.T) {
	same := use("x", "look", `{"path": "a.go"}`)
	var steps []step
	// DefaultRepeatLimit (3) identical calls run; the next three are
	// refused, and the third refusal ends the turn.
	for i := range 6 {
		c := same
		c.ToolCallID = fmt.Sprint("c", i)
		if i == 1 {
			c.Input = json.RawMessage(`{"path":"a.go"}`) // same call, other spacing
		}
		steps = append(steps, callTools(c))
	}
	p := newScripted(steps...)
	a, rec := newTestAgent(t, p, echo("look", true))
	s := NewSession()
	res, err := a.Run(context.Background(), s, "go")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopRepeated || res.Iterations != 6 {
		t.Errorf("result %+v, want stop %s after 6 calls", res, StopRepeated)
	}
	var refused int
	for i, e := range rec.of(EventToolResult) {
		isRefusal := strings.Contains(e.Result.Content, "refused: this is call")
		if isRefusal != (i >= DefaultRepeatLimit) || isRefusal != e.Result.IsError {
			t.Errorf("call %d: %+v", i+1, e.Result)
		}
		if isRefusal {
			refused++
		}
	}
	if refused != 3 {
		t.Errorf("%d refusals, want 3", refused)
	}
	checkConsistent(t, s.Messages)
}

func TestRepeatCountResetsAfterAChange(t *testing.T) {
	// read, edit, read, edit, read: the reads are identical but the file
	// changed in between, so none is refused.
	p := newScripted(
		callTools(use("1", "test", `{}`)), callTools(use("2", "edit", `{"n":1}`)),
		callTools(use("3", "test", `{}`)), callTools(use("4", "edit", `{"n":2}`)),
		callTools(use("5", "test", `{}`)), say("green"))
	a, rec := newTestAgent(t, p, echo("test", true), echo("edit", false))
	res, err := a.Run(context.Background(), NewSession(), "fix it")
	if err != nil || res.StopReason != StopEndTurn {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	for _, e := range rec.of(EventToolResult) {
		if e.Result.IsError {
			t.Errorf("refused after a change: %+v", e.Result)
		}
	}
}

func TestIterationCap(t *testing.T) {
	var steps []step
	for i := range 4 {
		steps = append(steps, callTools(use(fmt.Sprint("c", i), "look", fmt.Sprintf(`{"n":%d}`, i))))
	}
	steps = append(steps, say("resumed"))
	p := newScripted(steps...)
	a, rec := newTestAgent(t, p, echo("look", true))
	a.MaxIterations = 3
	s := NewSession()
	res, err := a.Run(context.Background(), s, "loop")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopMaxIterations || res.Iterations != 3 || len(p.requests()) != 3 {
		t.Errorf("result %+v after %d requests", res, len(p.requests()))
	}
	if done := rec.of(EventDone); len(done) != 1 || done[0].StopReason != StopMaxIterations {
		t.Errorf("done events %+v", done)
	}
	checkConsistent(t, s.Messages)
	// The next turn continues from a consistent history.
	a.MaxIterations = 0
	if _, err := a.Run(context.Background(), s, "go on"); err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, s.Messages)
}

func TestCancelDuringStream(t *testing.T) {
	streaming := make(chan struct{})
	p := newScripted(
		func(ctx context.Context, _ *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
			onDelta(provider.Delta{Kind: provider.DeltaText, Text: "Let me th"})
			close(streaming)
			<-ctx.Done()
			return nil, fmt.Errorf("anthropic: %w", ctx.Err())
		},
		say("fresh answer"),
	)
	a, rec := newTestAgent(t, p)
	s := NewSession()
	ctx, cancel := context.WithCancel(context.Background())
	wait := runAsync(a, ctx, s, "first question")
	<-streaming
	cancel()
	res, err := wait(t)
	if err != nil || res.StopReason != StopCancelled {
		t.Fatalf("Run = %+v, %v; want cancelled without error", res, err)
	}
	if len(s.Messages) != 1 || len(rec.of(EventError)) != 0 {
		t.Fatalf("history after cancel: %+v", s.Messages)
	}
	// The session continues: the new message joins the unanswered one.
	if _, err := a.Run(context.Background(), s, "second question"); err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, s.Messages)
	if len(s.Messages) != 2 || len(s.Messages[0].Blocks) != 2 {
		t.Errorf("history %+v", s.Messages)
	}
}

func TestCancelDuringBlockingTool(t *testing.T) {
	started := make(chan struct{})
	block := &fakeTool{name: "shell", run: func(ctx context.Context, _ json.RawMessage) (*tools.Result, error) {
		close(started)
		<-ctx.Done() // like the shell tool killing its process group
		return nil, ctx.Err()
	}}
	p := newScripted(callTools(use("s", "shell", `{"command":"sleep 100"}`), use("r", "look", `{}`)), say("after"))
	a, rec := newTestAgent(t, p, block, echo("look", true))
	s := NewSession()
	ctx, cancel := context.WithCancel(context.Background())
	wait := runAsync(a, ctx, s, "run it")
	<-started
	cancel()
	res, err := wait(t)
	if err != nil || res.StopReason != StopCancelled {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	checkConsistent(t, s.Messages)
	for _, r := range results(s.Messages[2]) {
		if !r.IsError || r.Text != msgCancelled {
			t.Errorf("result %+v, want %q", r, msgCancelled)
		}
	}
	if done := rec.of(EventDone); len(done) != 1 || done[0].StopReason != StopCancelled {
		t.Errorf("done %+v", done)
	}
	if _, err := a.Run(context.Background(), s, "continue"); err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, s.Messages)
}

func TestProviderErrorKeepsSessionUsable(t *testing.T) {
	p := newScripted(
		callTools(use("c", "look", `{}`)),
		func(_ context.Context, _ *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
			onDelta(provider.Delta{Kind: provider.DeltaText, Text: "Partial"})
			return nil, fmt.Errorf("openai: %w: connection reset", provider.ErrStreamBroken)
		},
		say("recovered"),
	)
	a, rec := newTestAgent(t, p, echo("look", true))
	s := NewSession()
	res, err := a.Run(context.Background(), s, "go")
	if !errors.Is(err, provider.ErrStreamBroken) || res == nil || res.StopReason != StopError {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if ev := rec.of(EventError); len(ev) != 1 || !errors.Is(ev[0].Err, provider.ErrStreamBroken) {
		t.Errorf("error events %+v", ev)
	}
	if k := rec.kinds(); k[len(k)-1] != EventDone {
		t.Errorf("last event %v, want done", k[len(k)-1])
	}
	if len(s.Messages) != 3 {
		t.Fatalf("history %+v, want user, assistant, tool results", s.Messages)
	}
	res, err = a.Run(context.Background(), s, "try again")
	if err != nil || res.Text != "recovered" {
		t.Fatalf("second Run = %+v, %v", res, err)
	}
	checkConsistent(t, s.Messages)
}

func TestToolInfrastructureErrorStopsTheTurn(t *testing.T) {
	broken := &fakeTool{name: "broken", run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return nil, errors.New("disk on fire")
	}}
	panicky := &fakeTool{name: "panicky", readOnly: true, run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		panic("boom")
	}}
	// A panic while judging the call (a parser bug on model input).
	badAccess := &fakeTool{name: "badaccess", readOnly: true, access: func(json.RawMessage) (access.Access, error) {
		panic("parser bug")
	}}
	tests := []struct {
		name  string
		calls []provider.Block
		want  string
	}{
		{"error", []provider.Block{use("1", "broken", `{}`), use("2", "look", `{}`)}, "disk on fire"},
		{"panic", []provider.Block{use("1", "panicky", `{}`), use("2", "look", `{}`)}, "panicked: boom"},
		{"panic in Access", []provider.Block{use("1", "badaccess", `{}`), use("2", "look", `{}`)}, "panicked: parser bug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newScripted(callTools(tt.calls...))
			a, _ := newTestAgent(t, p, broken, panicky, badAccess, echo("look", false))
			s := NewSession()
			res, err := a.Run(context.Background(), s, "go")
			if err == nil || !strings.Contains(err.Error(), tt.want) || res.StopReason != StopError {
				t.Fatalf("Run = %+v, %v", res, err)
			}
			checkConsistent(t, s.Messages)
			got := results(s.Messages[2])
			if !got[0].IsError || got[1].Text != msgNotRun {
				t.Errorf("results %+v", got)
			}
		})
	}
}

func TestEditEvents(t *testing.T) {
	edit := &fakeTool{name: "edit", run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return &tools.Result{Content: "edited", Changes: []tools.FileChange{
			{Op: tools.OpModify, Path: "/w/a.go"}, {Op: tools.OpRename, Path: "/w/b.go", NewPath: "/w/c.go"},
		}}, nil
	}}
	p := newScripted(callTools(use("e", "edit", `{}`)), say("done"))
	a, rec := newTestAgent(t, p, edit)
	if _, err := a.Run(context.Background(), NewSession(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []EventKind{EventUsage, EventToolCall, EventToolResult, EventEdit, EventText, EventUsage, EventDone}
	if !slices.Equal(rec.kinds(), want) {
		t.Errorf("events %v, want %v", rec.kinds(), want)
	}
	ch := rec.of(EventEdit)[0].Changes
	if len(ch) != 2 || ch[0] != (Change{Op: "modify", Path: "/w/a.go"}) || ch[1] != (Change{Op: "rename", Path: "/w/b.go", NewPath: "/w/c.go"}) {
		t.Errorf("changes %+v", ch)
	}
}

// saveLog records the message count of every save.
type saveLog struct{ counts []int }

func (l *saveLog) Save(s *Session) error { l.counts = append(l.counts, len(s.Messages)); return nil }

func TestSavedAfterEveryStep(t *testing.T) {
	p := newScripted(callTools(use("c", "look", `{}`)), say("done"))
	a, _ := newTestAgent(t, p, echo("look", true))
	log := &saveLog{}
	a.Store = log
	if _, err := a.Run(context.Background(), NewSession(), "go"); err != nil {
		t.Fatal(err)
	}
	// user message; assistant call + results together; final answer.
	if want := []int{1, 3, 4}; !slices.Equal(log.counts, want) {
		t.Errorf("saves at message counts %v, want %v", log.counts, want)
	}
}

func TestNoProvider(t *testing.T) {
	a := &Agent{}
	res, err := a.Run(context.Background(), NewSession(), "hi")
	if err == nil || res.StopReason != StopError {
		t.Fatalf("Run = %+v, %v", res, err)
	}
}

// A response cut at the end of the context window is not a max_tokens
// stop: it is dropped, and the turn fails with ErrContextOverflow.
func TestContextWindowStopIsAnOverflow(t *testing.T) {
	p := newScripted(func(_ context.Context, _ *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
		onDelta(provider.Delta{Kind: provider.DeltaText, Text: "The change touches"})
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: "The change touches"}}},
			StopReason: provider.StopContextOverflow, Usage: stepUsage,
		}, nil
	})
	a, _ := newTestAgent(t, p)
	s := NewSession()
	res, err := a.Run(context.Background(), s, "go")
	if !errors.Is(err, provider.ErrContextOverflow) || res.StopReason != StopError {
		t.Fatalf("Run = %+v, %v; want ErrContextOverflow", res, err)
	}
	if len(s.Messages) != 1 || res.Usage != stepUsage {
		t.Errorf("history %+v, usage %+v", s.Messages, res.Usage)
	}
}
