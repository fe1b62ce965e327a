package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/tools"
)

// summaryMarker is how the fake model recognises a summary request: the
// first sentence of the summary prompt.
var summaryMarker, _, _ = strings.Cut(compactPrompt, ".")

// fileTools are a read-only read_file whose result is about 600 tokens
// and a mutating edit_file, plus the real todo_write.
func fileTools() []tools.Tool {
	read := &fakeTool{name: "read_file", readOnly: true, run: func(_ context.Context, in json.RawMessage) (*tools.Result, error) {
		var p struct{ Path string }
		_ = json.Unmarshal(in, &p)
		return &tools.Result{Content: "// " + p.Path + "\n" + words(600)}, nil
	}}
	edit := &fakeTool{name: "edit_file", run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return &tools.Result{Content: "edited"}, nil
	}}
	var todo tools.Tool
	for _, t := range tools.FileTools() {
		if t.Name() == "todo_write" {
			todo = t
		}
	}
	return []tools.Tool{read, edit, todo}
}

// httpAgent is an agent on a fake model served over HTTP with window
// tokens of context, which the agent is told (as context_window), with
// the tools ts (default: fileTools).
func httpAgent(t *testing.T, name, script string, window int, ts ...tools.Tool) (*Agent, *fakellm.Server) {
	t.Helper()
	url, srv := fakellm.Start(t, script)
	if name == provider.NameOpenAICompatible {
		url += "/v1"
	}
	p, err := provider.New(provider.Config{Provider: name, APIURL: url, APIKey: "test-key-123", Model: "fake-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) == 0 {
		ts = fileTools()
	}
	a, _ := newTestAgent(t, p, ts...)
	a.Model, a.ContextWindow = "fake-model", window
	a.SystemPrompt = "You are a test agent."
	a.Env.Todos = &tools.TodoList{}
	return a, srv
}

// longSession is the script and the user messages of a 200-turn session.
// Turn 1 states the task and sets a todo, turn 3 edits pkg/foo.go and
// states a decision, turn 150 edits pkg/bar.go; every 25th turn reads twelve
// files before answering, so compaction also happens in the middle of a
// turn; every other turn reads one file.
func longSession() (script string, msgs []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "window %d\nsummarize %s\n", longWindow, summaryMarker)
	block := func(lines ...string) {
		b.WriteString(strings.Join(lines, "\n") + "\n---\n")
	}
	for i := 1; i <= 200; i++ {
		msg := fmt.Sprintf("USER-MSG-%03d: look at f%d.go", i, i)
		switch i {
		case 1:
			msg = "USER-MSG-001: #keep TASK: rename Foo to Bar across the repository"
			block(`tool todo_write {"todos":[{"content":"update the callers of Foo","status":"in_progress"}]}`)
		case 3:
			block(`tool edit_file {"path":"pkg/foo.go"}`)
		case 150:
			block(`tool edit_file {"path":"pkg/bar.go"}`)
		default:
			reads := 1
			if i%25 == 0 {
				reads = 12
			}
			for r := range reads {
				block(fmt.Sprintf(`tool read_file {"path":"f%d_%d.go"}`, i, r))
			}
		}
		answer := fmt.Sprintf("text Done with turn %d.", i)
		if i == 3 {
			answer = "text #keep DECISION: keep Foo as a deprecated alias of Bar"
		}
		block(answer)
		msgs = append(msgs, msg)
	}
	return b.String(), msgs
}

const longWindow = 6000

// A scripted 200-turn session against the fake model over HTTP: no
// request ever passes the window (the server refuses none), every call
// sees the user's latest message, and at the end the summary still holds
// the task, the decision, the todo and the files changed.
func TestLongSessionStaysInTheWindow(t *testing.T) {
	script, msgs := longSession()
	a, srv := httpAgent(t, provider.NameOpenAICompatible, script, longWindow)
	s := NewSession()
	for i, msg := range msgs {
		first := len(srv.Requests())
		res, err := a.Run(context.Background(), s, msg)
		if err != nil || res.StopReason != StopEndTurn {
			t.Fatalf("turn %d: %+v, %v", i+1, res, err)
		}
		want := msg[:len("USER-MSG-000")]
		for n, body := range srv.Requests()[first:] {
			if !strings.Contains(string(body), summaryMarker) && !strings.Contains(string(body), want) {
				t.Fatalf("turn %d, request %d: the model was not shown the user's message %s", i+1, first+n+1, want)
			}
		}
	}
	if r := srv.Refused(); len(r) > 0 {
		t.Errorf("requests %v did not fit the %d-token window", r, longWindow)
	}
	checkConsistent(t, s.Messages)
	var masked, summarised int
	for _, c := range s.Compactions {
		if c.Reason != CompactAuto || c.TokensAfter >= c.TokensBefore {
			t.Errorf("compaction %+v", c)
		}
		masked += c.Masked
		if c.Summarised > 0 {
			summarised++
		}
	}
	if summarised < 5 || masked == 0 {
		t.Errorf("%d compactions, %d summaries, %d results masked: the session should have needed several", len(s.Compactions), summarised, masked)
	}
	got := s.Messages[0].Blocks[0].Text
	for _, fact := range []string{
		"#keep TASK: rename Foo to Bar across the repository",
		"#keep DECISION: keep Foo as a deprecated alias of Bar",
		"- [in_progress] update the callers of Foo",
		"- pkg/foo.go", "- pkg/bar.go",
	} {
		if !strings.Contains(got, fact) {
			t.Errorf("the final summary lost %q:\n%s", fact, got)
		}
	}
	// Turns that read twelve files are compacted in their middle: the user's
	// message is then old, and the summary quotes it.
	verbatim := 0
	for _, body := range srv.Requests() {
		if strings.Contains(string(body), strings.ReplaceAll(verbatimHeader, "'", `\u0027`)) || strings.Contains(string(body), verbatimHeader) {
			verbatim++
		}
	}
	if verbatim == 0 {
		t.Error("no summary ever quoted the user's message: the test does not exercise that path")
	}
	prompts := srv.PromptTokens()
	t.Logf("%d requests, %d compactions (%d with a summary), largest prompt %d of %d tokens",
		len(prompts), len(s.Compactions), summarised, maxOf(prompts), longWindow)
	// What the summaries cost, for the question whether summarising early
	// (at ~40% of the window, in the background) would pay: it can only
	// shorten these requests, at the price of one more like them.
	total, sumTokens, sums := 0, 0, 0
	for i, body := range srv.Requests() {
		total += prompts[i]
		if strings.Contains(string(body), summaryMarker) {
			sumTokens += prompts[i]
			sums++
		}
	}
	t.Logf("summary requests: %d of %d, %d of %d prompt tokens (%.1f%%), %d tokens each on average",
		sums, len(prompts), sumTokens, total, 100*float64(sumTokens)/float64(total), sumTokens/max(sums, 1))
}

func maxOf(ns []int) int {
	m := 0
	for _, n := range ns {
		m = max(m, n)
	}
	return m
}

// A window the agent overestimates (context_window set too high): the
// server's own overflow error, in each wire format, makes the agent
// compact and retry, and the session goes on.
func TestOverflowRecoveryOverHTTP(t *testing.T) {
	for _, name := range []string{provider.NameAnthropic, provider.NameOpenAICompatible} {
		t.Run(name, func(t *testing.T) {
			script := fmt.Sprintf("window 2600\nsummarize %s\n", summaryMarker)
			for i := range 6 {
				script += fmt.Sprintf("tool read_file {\"path\":\"f%d.go\"}\n---\ntext read %d\n---\n", i, i)
			}
			a, srv := httpAgent(t, name, script, 30_000)
			a.MaxTokens = 100
			s := NewSession()
			for i := range 6 {
				if _, err := a.Run(context.Background(), s, fmt.Sprintf("#keep read file %d", i)); err != nil {
					t.Fatalf("turn %d: %v", i+1, err)
				}
			}
			// The call that overflowed, and the summary request sized for
			// the believed window, which is sent again at half the size.
			if len(srv.Refused()) != 2 || len(s.Compactions) != 1 || s.Compactions[0].Reason != CompactOverflow {
				t.Fatalf("refused %v, compactions %+v", srv.Refused(), s.Compactions)
			}
			if sum := s.Messages[0].Blocks[0].Text; !strings.Contains(sum, "#keep read file 0") {
				t.Errorf("summary %q", sum)
			}
			checkConsistent(t, s.Messages)
		})
	}
}
