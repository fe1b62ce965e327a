package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// hookAgent is a test agent whose hooks run in a temporary root.
func hookAgent(t *testing.T, p *scripted, hs []config.Hook, ts ...tools.Tool) (*Agent, *recorder, string) {
	t.Helper()
	root := t.TempDir()
	a, rec := newTestAgent(t, p, ts...)
	for i := range hs {
		if hs[i].Timeout == 0 {
			hs[i].Timeout = 10
		}
		hs[i].Source = "test"
	}
	r, err := hooks.New(hs, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Hooks = r
	return a, rec, root
}

// logHook appends its input to log.jsonl in the root.
func logHook(event, matcher string) config.Hook {
	return config.Hook{Event: event, Matcher: matcher, Command: `{ cat; echo; } >> log.jsonl`}
}

// readLog returns the JSON objects the log hooks wrote.
func readLog(t *testing.T, root string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("hook input %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// yes approves every question.
type yes struct{}

func (yes) Approve(context.Context, string, access.Access) (permission.Answer, error) {
	return permission.AllowOnce, nil
}

func TestEveryHookEventFiresWithItsPayload(t *testing.T) {
	var hs []config.Hook
	for _, ev := range config.HookEvents {
		hs = append(hs, logHook(ev, ""))
	}
	p := newScripted(callTools(use("c1", "write", `{"n":1}`)), say("done"), say("sub done"), say("the summary"))
	a, _, root := hookAgent(t, p, hs, echo("write", false))
	pol, err := permission.New(permission.ModeDefault, permission.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	a.Policy, a.Approver = pol, yes{}
	a.Env.SubAgent = a.SubAgent(SubAgentOptions{})
	s := NewSession()
	ctx := context.Background()
	if _, err := a.Run(ctx, s, "hello hooks"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SubAgent(SubAgentOptions{})(context.WithValue(ctx, parentSessionKey{}, s.ID), "look around", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Compact(ctx, s, "keep the numbers"); err != nil {
		t.Fatal(err)
	}
	a.EndSession(ctx, s, "prompt_input_exit")

	want := []struct {
		event  string
		fields map[string]any
	}{
		{config.HookSessionStart, map[string]any{"source": "startup"}},
		{config.HookUserPromptSubmit, map[string]any{"prompt": "hello hooks"}},
		{config.HookPreToolUse, map[string]any{"tool_name": "write", "tool_input": map[string]any{"n": 1.0}, "tool_use_id": "c1"}},
		{config.HookPermissionRequest, map[string]any{"tool_name": "write", "tool_input": map[string]any{"n": 1.0}}},
		{config.HookPostToolUse, map[string]any{"tool_name": "write", "tool_response": map[string]any{"content": `write {"n":1}`, "is_error": false}}},
		{config.HookStop, map[string]any{"stop_hook_active": false}},
		{config.HookSubagentStop, map[string]any{"stop_hook_active": false}},
		{config.HookPreCompact, map[string]any{"trigger": "manual", "custom_instructions": "keep the numbers"}},
		{config.HookSessionEnd, map[string]any{"reason": "prompt_input_exit"}},
	}
	got := readLog(t, root)
	if len(got) != len(want) {
		t.Fatalf("%d hook inputs, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g["hook_event_name"] != w.event || g["session_id"] != s.ID || g["cwd"] != root || g["permission_mode"] != "default" {
			t.Errorf("input %d = %v, want event %s, session %s, cwd %s, permission_mode default", i, g, w.event, s.ID, root)
		}
		for k, v := range w.fields {
			gb, _ := json.Marshal(g[k])
			wb, _ := json.Marshal(v)
			if string(gb) != string(wb) {
				t.Errorf("%s: %s = %s, want %s", w.event, k, gb, wb)
			}
		}
	}
}

func TestBlockingPreToolUseStopsTheCallAndTellsTheModel(t *testing.T) {
	for _, tc := range []struct{ name, command string }{
		{"exit 2", `echo "writes are frozen" >&2; exit 2`},
		{"json deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"writes are frozen"}}'`},
		{"json block", `echo '{"decision":"block","reason":"writes are frozen"}'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran := false
			w := &fakeTool{name: "write", run: func(context.Context, json.RawMessage) (*tools.Result, error) {
				ran = true
				return &tools.Result{Content: "written"}, nil
			}}
			p := newScripted(callTools(use("c1", "write", `{}`)), say("ok"))
			a, rec, _ := hookAgent(t, p, []config.Hook{{Event: config.HookPreToolUse, Matcher: "write|edit", Command: tc.command}}, w)
			s := NewSession()
			if _, err := a.Run(context.Background(), s, "go"); err != nil {
				t.Fatal(err)
			}
			if ran {
				t.Error("the blocked call ran")
			}
			res := results(p.requests()[1].Messages[2])
			if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Text, "writes are frozen") {
				t.Errorf("the model saw %+v, want an error with the hook's reason", res)
			}
			if hs := rec.of(EventHook); len(hs) != 1 || hs[0].Hook.Outcome != hooks.OutcomeBlocked {
				t.Errorf("hook events %+v", hs)
			}
		})
	}
}

func TestPreToolUseMatcherSkipsOtherTools(t *testing.T) {
	p := newScripted(callTools(use("c1", "read", `{}`)), say("ok"))
	a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookPreToolUse, Matcher: "write", Command: `exit 2`}}, echo("read", true))
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	if res := results(s.Messages[2]); res[0].IsError {
		t.Errorf("a hook for another tool blocked read: %+v", res)
	}
}

func TestPreToolUseUpdatedInputChangesTheCall(t *testing.T) {
	var got string
	w := &fakeTool{name: "write", run: func(_ context.Context, in json.RawMessage) (*tools.Result, error) {
		got = string(in)
		return &tools.Result{Content: "ok"}, nil
	}}
	p := newScripted(callTools(use("c1", "write", `{"path":"/etc/passwd"}`)), say("ok"))
	a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookPreToolUse, Command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"safe.txt"}}}'`}}, w)
	if _, err := a.Run(context.Background(), NewSession(), "go"); err != nil {
		t.Fatal(err)
	}
	if got != `{"path":"safe.txt"}` {
		t.Errorf("the tool ran with %s, want the hook's input", got)
	}
}

// denyAll denies every question.
type denyAll struct{ asked int }

func (d *denyAll) Approve(context.Context, string, access.Access) (permission.Answer, error) {
	d.asked++
	return permission.Deny, nil
}

func TestPermissionDecisionsOfHooks(t *testing.T) {
	for _, tc := range []struct {
		name, event, command string
		wantRun              bool
		wantAsked            int
	}{
		{"PreToolUse allow answers for the user", config.HookPreToolUse,
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`, true, 0},
		{"PreToolUse ask asks even when allowed", config.HookPreToolUse,
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'`, false, 1},
		{"PermissionRequest allow", config.HookPermissionRequest,
			`echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`, true, 0},
		{"PermissionRequest deny", config.HookPermissionRequest,
			`echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not on fridays"}}}'`, false, 0},
		{"PermissionRequest without a verdict asks the user", config.HookPermissionRequest, `true`, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran := false
			w := &fakeTool{name: "write", run: func(context.Context, json.RawMessage) (*tools.Result, error) {
				ran = true
				return &tools.Result{Content: "ok"}, nil
			}}
			p := newScripted(callTools(use("c1", "write", `{}`)), say("ok"))
			a, _, _ := hookAgent(t, p, []config.Hook{{Event: tc.event, Command: tc.command}}, w)
			mode := permission.ModeDefault
			if tc.name == "PreToolUse ask asks even when allowed" {
				mode = permission.ModeAcceptEdits
			}
			pol, err := permission.New(mode, permission.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			user := &denyAll{}
			a.Policy, a.Approver = pol, user
			s := NewSession()
			if _, err := a.Run(context.Background(), s, "go"); err != nil {
				t.Fatal(err)
			}
			if ran != tc.wantRun || user.asked != tc.wantAsked {
				t.Errorf("ran %v, user asked %d times; want %v, %d (result %+v)", ran, user.asked, tc.wantRun, tc.wantAsked, results(s.Messages[2]))
			}
			if tc.event == config.HookPermissionRequest && !tc.wantRun && tc.wantAsked == 0 {
				if res := results(s.Messages[2]); !strings.Contains(res[0].Text, "not on fridays") {
					t.Errorf("the model saw %q, want the hook's message", res[0].Text)
				}
			}
		})
	}
}

// Without anyone to ask, a PermissionRequest hook without a verdict
// leaves the call denied with the non-interactive explanation.
func TestPermissionRequestHookNonInteractive(t *testing.T) {
	p := newScripted(callTools(use("c1", "write", `{}`)), say("ok"))
	a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookPermissionRequest, Command: "true"}}, echo("write", false))
	pol, err := permission.New(permission.ModeDefault, permission.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	a.Policy = pol
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	if res := results(s.Messages[2]); !res[0].IsError || !strings.Contains(res[0].Text, "non-interactive") {
		t.Errorf("result %+v", res)
	}
}

func TestPostToolUseFeedbackReachesTheModel(t *testing.T) {
	p := newScripted(callTools(use("c1", "write", `{}`)), say("ok"))
	a, _, _ := hookAgent(t, p, []config.Hook{
		{Event: config.HookPostToolUse, Command: `echo '{"decision":"block","reason":"gofmt failed on a.go"}'`},
		{Event: config.HookPostToolUse, Command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 tests now fail"}}'`},
	}, echo("write", false))
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	res := results(p.requests()[1].Messages[2])[0].Text
	for _, want := range []string{`write {}`, "gofmt failed on a.go", "3 tests now fail"} {
		if !strings.Contains(res, want) {
			t.Errorf("the model saw %q, missing %q", res, want)
		}
	}
}

func TestUserPromptSubmitHooks(t *testing.T) {
	t.Run("context", func(t *testing.T) {
		p := newScripted(say("ok"))
		a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookUserPromptSubmit, Command: `echo "branch: main"`}})
		if _, err := a.Run(context.Background(), NewSession(), "go"); err != nil {
			t.Fatal(err)
		}
		if got := textOf(p.requests()[0].Messages[0]); !strings.Contains(got, "go") || !strings.Contains(got, "branch: main") {
			t.Errorf("the model saw %q", got)
		}
	})
	t.Run("block", func(t *testing.T) {
		p := newScripted()
		a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookUserPromptSubmit, Command: `echo "no secrets in prompts" >&2; exit 2`}})
		s := NewSession()
		res, err := a.Run(context.Background(), s, "my password is hunter2")
		if err != nil {
			t.Fatal(err)
		}
		if res.StopReason != StopHook || !strings.Contains(res.Text, "no secrets in prompts") || len(s.Messages) != 0 || len(p.requests()) != 0 {
			t.Errorf("result %+v, history %v, %d model calls", res, s.Messages, len(p.requests()))
		}
	})
}

func TestStopHookKeepsTheTurnGoing(t *testing.T) {
	p := newScripted(say("done"), say("tests ran"))
	a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookStop,
		Command: `grep -q '"stop_hook_active":true' && exit 0; echo "run the tests first" >&2; exit 2`}})
	res, err := a.Run(context.Background(), NewSession(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "tests ran" || len(p.requests()) != 2 {
		t.Fatalf("result %+v after %d calls", res, len(p.requests()))
	}
	if got := textOf(p.requests()[1].Messages[2]); !strings.Contains(got, "run the tests first") {
		t.Errorf("the model saw %q", got)
	}
}

func TestContinueFalseStopsTheTurn(t *testing.T) {
	p := newScripted(callTools(use("c1", "write", `{}`)), say("unreachable"))
	a, _, _ := hookAgent(t, p, []config.Hook{{Event: config.HookPostToolUse, Command: `echo '{"continue":false,"stopReason":"budget spent"}'`}}, echo("write", false))
	s := NewSession()
	res, err := a.Run(context.Background(), s, "go")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopHook || !strings.Contains(res.Text, "budget spent") || len(p.requests()) != 1 {
		t.Errorf("result %+v after %d calls", res, len(p.requests()))
	}
	checkConsistent(t, s.Messages)
}

func TestFailingHooksAreReportedNotFatal(t *testing.T) {
	p := newScripted(callTools(use("c1", "write", `{}`)), say("ok"))
	a, rec, root := hookAgent(t, p, []config.Hook{
		{Event: config.HookPreToolUse, Command: `echo crashed >&2; exit 1`},
		{Event: config.HookPreToolUse, Command: `echo '{not json'`},
		{Event: config.HookPreToolUse, Command: `sleep 30 & echo $! > bg.pid; sleep 30`, Timeout: 0.3},
	}, echo("write", false))
	s := NewSession()
	res, err := a.Run(context.Background(), s, "go")
	if err != nil || res.StopReason != StopEndTurn {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if r := results(s.Messages[2]); r[0].IsError {
		t.Errorf("failing hooks blocked the call: %+v", r)
	}
	var outcomes []string
	for _, e := range rec.of(EventHook) {
		outcomes = append(outcomes, e.Hook.Outcome)
	}
	if strings.Join(outcomes, ",") != "failed,failed,timeout" {
		t.Errorf("outcomes %v", outcomes)
	}
	data, err := os.ReadFile(filepath.Join(root, "bg.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// SIGKILL is delivered asynchronously: wait (bounded) for it to land.
	deadline := time.Now().Add(waitTimeout)
	for processAlive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if processAlive(pid) {
		t.Errorf("the timed-out hook's background process %d survived", pid)
	}
}

// processAlive reports whether pid is a running (not zombie) process.
func processAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestWorkspaceHooksRunOnlyOnceApproved(t *testing.T) {
	root := t.TempDir()
	h := config.Hook{Event: config.HookUserPromptSubmit, Command: `touch ran`, Timeout: 10, Source: "ws", Workspace: true}
	ap, err := hooks.OpenApprovals(filepath.Join(t.TempDir(), "approved.json"))
	if err != nil {
		t.Fatal(err)
	}
	run := func() []Event {
		r, err := hooks.New([]config.Hook{h}, root, ap)
		if err != nil {
			t.Fatal(err)
		}
		a, rec := newTestAgent(t, newScripted(say("ok")))
		a.Hooks = r
		if _, err := a.Run(context.Background(), NewSession(), "go"); err != nil {
			t.Fatal(err)
		}
		return rec.of(EventHook)
	}
	if evs := run(); len(evs) != 1 || evs[0].Hook.Outcome != hooks.OutcomeRefused {
		t.Fatalf("unapproved hook events %+v", evs)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Fatal("an unapproved workspace hook ran")
	}
	r, _ := hooks.New([]config.Hook{h}, root, ap)
	if _, err := ap.ApproveWorkspace(r); err != nil {
		t.Fatal(err)
	}
	if evs := run(); len(evs) != 1 || evs[0].Hook.Outcome != hooks.OutcomeOK {
		t.Fatalf("approved hook events %+v", evs)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err != nil {
		t.Fatal("the approved workspace hook did not run")
	}
	// The approval is for this definition only.
	changed := h
	changed.Command = `touch ran2`
	if r, _ := hooks.New([]config.Hook{changed}, root, ap); len(r.Unapproved()) != 1 {
		t.Error("a changed workspace hook counts as approved")
	}
}
