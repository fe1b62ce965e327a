package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

// words is about n tokens of text (o200k counts " word" as one token).
func words(n int) string { return strings.Repeat(" word", n) }

// reply answers with text and reports no usage, so token estimates stay
// uncalibrated and the sizes in these tests are the tokenizer's.
func reply(text string) step {
	return func(context.Context, *provider.Request, func(provider.Delta)) (*provider.Response, error) {
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: text}}},
			StopReason: provider.StopEndTurn,
		}, nil
	}
}

// noUsage reports no usage for s's response, so estimates stay
// uncalibrated.
func noUsage(s step) step {
	return func(ctx context.Context, req *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
		resp, err := s(ctx, req, onDelta)
		if resp != nil {
			resp.Usage = provider.Usage{}
		}
		return resp, err
	}
}

// summary answers a summary request, streaming it as a provider does, and
// fails the test's call if the request is anything else.
func summary(text string) step {
	return func(_ context.Context, req *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
		if req.System != compactPrompt || len(req.Tools) != 0 {
			return nil, errors.New("expected a summary request")
		}
		onDelta(provider.Delta{Kind: provider.DeltaText, Text: text})
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: text}}},
			StopReason: provider.StopEndTurn, Usage: provider.Usage{InputTokens: 7, OutputTokens: 3},
		}, nil
	}
}

// overflow fails like an API rejecting a prompt that is too long.
func overflow() step {
	return func(context.Context, *provider.Request, func(provider.Delta)) (*provider.Response, error) {
		return nil, &provider.APIError{Provider: "anthropic", StatusCode: 400, Type: "invalid_request_error",
			Message: "prompt is too long: 9000 tokens > 4000 maximum", ContextOverflow: true}
	}
}

// rounds builds a history: the task, then n tool rounds (read_file of
// fI.go answered by resultTokens of text, then a short assistant note).
func rounds(task string, n, resultTokens int) []provider.Message {
	msgs := []provider.Message{text(provider.RoleUser, task)}
	for i := range n {
		id := fmt.Sprintf("r%d", i)
		msgs = append(msgs,
			provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{use(id, "read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i))}},
			provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{{Kind: provider.BlockToolResult, ToolCallID: id, Text: "package f\n" + words(resultTokens)}}},
		)
	}
	return msgs
}

func TestMaskResults(t *testing.T) {
	count := newTokenCounter("gpt-4o").count
	big := "package main\n" + words(200) + "\n"
	msgs := []provider.Message{
		{Role: provider.RoleAssistant, Blocks: []provider.Block{use("a", "read_file", `{}`), use("b", "grep", `{}`), use("c", "shell", `{}`), use("d", "read_file", `{}`)}},
		{Role: provider.RoleUser, Blocks: []provider.Block{
			{Kind: provider.BlockToolResult, ToolCallID: "a", Text: big},
			{Kind: provider.BlockToolResult, ToolCallID: "b", Text: "3 matches"},
			{Kind: provider.BlockToolResult, ToolCallID: "c", Text: "exit 1\n" + words(100), IsError: true},
			{Kind: provider.BlockToolResult, ToolCallID: "d", Text: maskedPrefix + "read_file returned 1 lines (70 tokens) starting \"x\"; call it again if you need it]"},
		}},
	}
	before := msgs[1].Blocks[3].Text
	if n := maskResults(msgs, count); n != 2 {
		t.Fatalf("masked %d, want 2", n)
	}
	res := msgs[1].Blocks
	tests := []struct {
		name, got, want string
	}{
		{"large result", res[0].Text, maskedPrefix + `read_file returned 2 lines (` + fmt.Sprint(count(big)) + ` tokens) starting "package main"; call it again if you need it]`},
		{"small result", res[1].Text, "3 matches"},
		{"error", res[2].Text, maskedPrefix + `shell failed with 2 lines (` + fmt.Sprint(count("exit 1\n"+words(100))) + ` tokens) starting "exit 1"; call it again if you need it]`},
		{"already masked", res[3].Text, before},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, tt.got, tt.want)
		}
	}
	if !res[2].IsError || res[0].IsError || msgs[0].Blocks[0].ToolName != "read_file" {
		t.Errorf("calls or error flags changed: %+v", msgs)
	}
}

// compactAgent is a test agent with a 4000-token window: compaction above
// 3200 tokens, summaries when masking leaves more than 1600, the last 800
// kept whole.
func compactAgent(t *testing.T, p provider.Provider) (*Agent, *recorder) {
	a, rec := newTestAgent(t, p, echo("read_file", true), echo("edit_file", false))
	a.ContextWindow = 4000
	a.Env.Todos = &tools.TodoList{}
	return a, rec
}

func TestAutoCompactThreshold(t *testing.T) {
	tests := []struct {
		name       string
		history    []provider.Message
		steps      []step
		masked     int
		summarised bool
	}{
		{
			name:    "below the threshold",
			history: rounds("the task", 4, 500),
			steps:   []step{reply("ok")},
		},
		{
			name:    "masking is enough",
			history: rounds("the task", 5, 700),
			steps:   []step{reply("ok")},
			masked:  4,
		},
		{
			name: "summary needed",
			history: append(rounds("the task", 1, 10),
				text(provider.RoleAssistant, words(1800)), text(provider.RoleUser, "more"), text(provider.RoleAssistant, words(1500))),
			steps:      []step{summary("## Task\nthe task"), reply("ok")},
			summarised: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newScripted(tt.steps...)
			a, events := compactAgent(t, p)
			s := NewSession()
			s.Messages = tt.history
			if _, err := a.Run(context.Background(), s, "go on"); err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, s.Messages)
			reqs := p.requests()
			if len(reqs) != len(tt.steps) {
				t.Fatalf("%d requests, want %d", len(reqs), len(tt.steps))
			}
			if tt.masked == 0 && !tt.summarised {
				if len(s.Compactions) != 0 {
					t.Fatalf("compacted below the threshold: %+v", s.Compactions)
				}
				return
			}
			if len(s.Compactions) != 1 {
				t.Fatalf("compactions %+v, want one", s.Compactions)
			}
			c := s.Compactions[0]
			// One event, before the call it made room for.
			kinds := events.kinds()
			if ev := events.of(EventCompaction); len(ev) != 1 || *ev[0].Compaction != c || ev[0].Text != c.String() || kinds[len(kinds)-3] != EventCompaction {
				t.Errorf("compaction events %+v in %v", ev, kinds)
			}
			if c.Reason != CompactAuto || c.Masked != tt.masked || (c.Summarised > 0) != tt.summarised ||
				c.TokensBefore <= a.compactAt() || c.TokensAfter >= a.compactAt() {
				t.Errorf("compaction %+v (threshold %d)", c, a.compactAt())
			}
			// What the model saw is the compacted history, under the threshold.
			last := reqs[len(reqs)-1]
			if got := newTokenCounter(a.Model).raw(a.SystemPrompt, last.Tools, last.Messages); got > a.compactAt() {
				t.Errorf("the call after compaction sent %d tokens, threshold %d", got, a.compactAt())
			}
		})
	}
}

// Masking replaces old results only: the calls stay, and the most recent
// exchange keeps its result whole.
func TestAutoCompactMasksOldResultsOnly(t *testing.T) {
	p := newScripted(reply("ok"))
	a, _ := compactAgent(t, p)
	s := NewSession()
	s.Messages = rounds("the task", 5, 700)
	if _, err := a.Run(context.Background(), s, "go on"); err != nil {
		t.Fatal(err)
	}
	sent := p.requests()[0].Messages
	for i := 0; i < 5; i++ {
		call, result := sent[1+2*i].Blocks[0], sent[2+2*i].Blocks[0]
		if call.ToolName != "read_file" || call.ToolCallID != fmt.Sprintf("r%d", i) {
			t.Errorf("round %d: call %+v", i, call)
		}
		if masked := strings.HasPrefix(result.Text, maskedPrefix); masked != (i < 4) {
			t.Errorf("round %d: result masked %v: %.80s", i, masked, result.Text)
		}
	}
}

// The summary keeps the task, the todo list, the files changed and the
// user's last message verbatim; the latest exchange stays whole.
func TestSummaryKeepsFacts(t *testing.T) {
	p := newScripted(summary("## Task\nRename Foo to Bar.\n## Decisions\nKeep the old name as an alias."))
	a, events := compactAgent(t, p)
	if err := a.Env.Todos.Set([]tools.TodoItem{{ID: "1", Content: "update callers", Status: tools.TodoInProgress}}); err != nil {
		t.Fatal(err)
	}
	s := NewSession()
	s.Messages = []provider.Message{
		text(provider.RoleUser, "Rename Foo to Bar everywhere."),
		{Role: provider.RoleAssistant, Blocks: []provider.Block{use("e1", "edit_file", `{"path":"foo.go"}`), use("e2", "read_file", `{"path":"notes.md"}`)}},
		{Role: provider.RoleUser, Blocks: []provider.Block{
			{Kind: provider.BlockToolResult, ToolCallID: "e1", Text: "edited"},
			{Kind: provider.BlockToolResult, ToolCallID: "e2", Text: "notes"},
		}},
		text(provider.RoleAssistant, words(2000)),
		text(provider.RoleUser, "Also keep an alias, and please double-check\n  the tests."),
		text(provider.RoleAssistant, words(1500)),
	}
	if _, err := a.Compact(context.Background(), s, "the alias"); err != nil {
		t.Fatal(err)
	}
	sumReq := p.requests()[0].Messages[0].Blocks[0].Text
	for _, want := range []string{"<transcript>", "Rename Foo to Bar everywhere.", "[tool call] edit_file {\"path\":\"foo.go\"}", "focus on: the alias"} {
		if !strings.Contains(sumReq, want) {
			t.Errorf("summary request lacks %q:\n%.600s", want, sumReq)
		}
	}
	checkConsistent(t, s.Messages)
	if len(s.Messages) != 2 || s.Messages[1].Blocks[0].Text != words(1500) {
		t.Fatalf("history after compaction: %d messages; want the summary and the last answer", len(s.Messages))
	}
	got := s.Messages[0].Blocks[0].Text
	for _, want := range []string{
		summaryHeader, "Rename Foo to Bar.", "Keep the old name as an alias.",
		todosHeader + "\n- [in_progress] update callers",
		changedHeader + "\n- foo.go\n", // not notes.md: read_file is read-only
		verbatimHeader + "\n\nAlso keep an alias, and please double-check\n  the tests.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary message lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "notes.md") {
		t.Errorf("a file only read is listed as changed:\n%s", got)
	}
	// A later compaction carries the files and the verbatim message over.
	s.Messages = append(s.Messages, text(provider.RoleUser, "next"), text(provider.RoleAssistant, words(1000)))
	p.steps = append(p.steps, summary("## Task\nStill renaming."))
	if _, err := a.Compact(context.Background(), s, ""); err != nil {
		t.Fatal(err)
	}
	got = s.Messages[0].Blocks[0].Text
	for _, want := range []string{"Still renaming.", changedHeader + "\n- foo.go\n", verbatimHeader + "\n\nnext"} {
		if !strings.Contains(got, want) {
			t.Errorf("second summary lacks %q:\n%s", want, got)
		}
	}
	if len(s.Compactions) != 2 || s.Compactions[0].Reason != CompactManual || s.Compactions[0].Focus != "the alias" || s.Compactions[1].Summarised != 3 {
		t.Errorf("compactions %+v", s.Compactions)
	}
	ev := events.of(EventCompaction)
	if len(ev) != 2 || ev[0].Session != s.ID || ev[0].Compaction.Focus != "the alias" || len(events.of(EventDone)) != 0 {
		t.Errorf("events %+v", events.events)
	}
	if want := "compacted the conversation (manual): "; !strings.HasPrefix(ev[0].Text, want) || !strings.HasSuffix(ev[0].Text, "tokens; 5 messages summarised") {
		t.Errorf("event text %q", ev[0].Text)
	}
	if want := (provider.Usage{InputTokens: 14, OutputTokens: 6}); s.Usage != want {
		t.Errorf("usage %+v, want the summary requests' %+v", s.Usage, want)
	}
}

func TestCompactNothingToDo(t *testing.T) {
	p := newScripted()
	a, _ := compactAgent(t, p)
	s := NewSession()
	s.Messages = []provider.Message{text(provider.RoleUser, "hi"), text(provider.RoleAssistant, "hello")}
	rec, err := a.Compact(context.Background(), s, "")
	if rec != nil || err != nil || len(p.requests()) != 0 || len(s.Messages) != 2 {
		t.Errorf("Compact = %+v, %v; %d requests", rec, err, len(p.requests()))
	}
}

// The user asked: even a short history is summarised, all but the last
// exchange.
func TestManualCompactKeepsOnlyTheLastExchange(t *testing.T) {
	p := newScripted(summary("## Task\nhi"))
	a, _ := compactAgent(t, p)
	s := NewSession()
	s.Messages = []provider.Message{text(provider.RoleUser, "hi"), text(provider.RoleAssistant, "hello"),
		text(provider.RoleUser, "more"), text(provider.RoleAssistant, "sure")}
	rec, err := a.Compact(context.Background(), s, "")
	if err != nil || rec == nil || rec.Summarised != 3 || len(s.Messages) != 2 || s.Messages[1].Blocks[0].Text != "sure" {
		t.Fatalf("Compact = %+v, %v; history %+v", rec, err, s.Messages)
	}
}

// A compacted session is stored compacted and resumes from there.
func TestCompactedSessionResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	p := newScripted(summary("## Task\nthe task"), reply("resumed"))
	a, _ := compactAgent(t, p)
	a.Store = st
	s := NewSession()
	s.Messages = append(rounds("the task", 1, 10), text(provider.RoleAssistant, words(2000)), text(provider.RoleUser, "more"), text(provider.RoleAssistant, words(500)))
	if _, err := a.Compact(context.Background(), s, ""); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openTestStore(t, dir)
	defer st.Close()
	a.Store = st
	loaded, err := st.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Messages) != 2 || !strings.HasPrefix(loaded.Messages[0].Blocks[0].Text, summaryHeader) ||
		len(loaded.Compactions) != 1 || loaded.Compactions[0] != s.Compactions[0] {
		t.Fatalf("loaded %d messages, compactions %+v", len(loaded.Messages), loaded.Compactions)
	}
	if _, err := a.Run(context.Background(), loaded, "continue"); err != nil {
		t.Fatal(err)
	}
	if sent := p.requests()[1].Messages; len(sent) != 3 || !strings.HasPrefix(sent[0].Blocks[0].Text, summaryHeader) {
		t.Errorf("resumed call sent %+v", sent)
	}
}

func TestOverflowCompactsAndRetriesOnce(t *testing.T) {
	p := newScripted(overflow(), summary("## Task\nthe task"), reply("fits now"))
	a, events := compactAgent(t, p)
	s := NewSession()
	s.Messages = rounds("the task", 3, 100) // small by the estimate: the model disagrees
	res, err := a.Run(context.Background(), s, "go on")
	if err != nil || res.Text != "fits now" || res.StopReason != StopEndTurn {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if len(s.Compactions) != 1 || s.Compactions[0].Reason != CompactOverflow || s.Compactions[0].Summarised == 0 {
		t.Errorf("compactions %+v", s.Compactions)
	}
	if ev := events.of(EventCompaction); len(ev) != 1 || ev[0].Compaction.Reason != CompactOverflow || ev[0].Turn != 1 {
		t.Errorf("compaction events %+v", ev)
	}
	reqs := p.requests()
	if len(reqs) != 3 || len(reqs[2].Messages) >= len(reqs[0].Messages) {
		t.Errorf("%d requests; the retry sent %d messages, the first %d", len(reqs), len(reqs[2].Messages), len(reqs[0].Messages))
	}
	checkConsistent(t, s.Messages)
}

func TestOverflowTwiceIsAClearError(t *testing.T) {
	p := newScripted(overflow(), summary("## Task\nthe task"), overflow())
	a, rec := compactAgent(t, p)
	s := NewSession()
	s.Messages = rounds("the task", 3, 100)
	res, err := a.Run(context.Background(), s, "go on")
	if !errors.Is(err, provider.ErrContextOverflow) || res.StopReason != StopError {
		t.Fatalf("Run = %+v, %v; want ErrContextOverflow", res, err)
	}
	if !strings.Contains(err.Error(), "does not fit the model's 4000-token context window even after compaction") {
		t.Errorf("error %q does not explain itself", err)
	}
	if len(p.requests()) != 3 {
		t.Errorf("%d requests, want the call, the summary and one retry", len(p.requests()))
	}
	if ev := rec.of(EventError); len(ev) != 1 {
		t.Errorf("error events %+v", ev)
	}
	checkConsistent(t, s.Messages)
}

// An overflow with nothing old to compact fails at once, saying why.
func TestOverflowWithNothingToCompact(t *testing.T) {
	p := newScripted(overflow())
	a, _ := compactAgent(t, p)
	s := NewSession()
	res, err := a.Run(context.Background(), s, words(100))
	if !errors.Is(err, provider.ErrContextOverflow) || res.StopReason != StopError || !strings.Contains(err.Error(), "nothing left to compact") {
		t.Fatalf("Run = %+v, %v", res, err)
	}
}

// A summary request the model refuses as too long is sent once more at
// half the size; a second refusal fails the turn, saying compaction failed.
func TestSummaryRequestOverflow(t *testing.T) {
	overflowSummary := func(ctx context.Context, req *provider.Request, d func(provider.Delta)) (*provider.Response, error) {
		if req.System != compactPrompt {
			return nil, errors.New("expected a summary request")
		}
		return overflow()(ctx, req, d)
	}
	t.Run("retried smaller", func(t *testing.T) {
		p := newScripted(overflow(), overflowSummary, summary("## Task\nthe task"), reply("ok"))
		a, _ := compactAgent(t, p)
		s := NewSession()
		s.Messages = rounds("the task", 3, 100)
		if res, err := a.Run(context.Background(), s, "go on"); err != nil || res.Text != "ok" {
			t.Fatalf("Run = %+v, %v", res, err)
		}
		reqs := p.requests()
		if first, second := reqs[1], reqs[2]; second.MaxTokens != first.MaxTokens/2 {
			t.Errorf("summary requests: max_tokens %d then %d", first.MaxTokens, second.MaxTokens)
		}
	})
	t.Run("refused twice", func(t *testing.T) {
		p := newScripted(overflow(), overflowSummary, overflowSummary)
		a, _ := compactAgent(t, p)
		s := NewSession()
		s.Messages = rounds("the task", 3, 100)
		_, err := a.Run(context.Background(), s, "go on")
		if !errors.Is(err, provider.ErrContextOverflow) || !strings.Contains(err.Error(), "compacting the conversation failed") {
			t.Fatalf("err = %v", err)
		}
		checkConsistent(t, s.Messages)
	})
}
