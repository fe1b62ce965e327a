package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools"
)

// events collects what a Manager reports.
type events struct {
	mu  sync.Mutex
	all []Event
	ch  chan Event
}

func newEvents() *events { return &events{ch: make(chan Event, 100)} }

func (e *events) report(ev Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	e.ch <- ev
}

// next waits for the next event of kind.
func (e *events) next(t *testing.T, kind EventKind) Event {
	t.Helper()
	for ev := range e.ch {
		if ev.Kind == kind {
			return ev
		}
	}
	t.Fatal("unreachable")
	return Event{}
}

func start(t *testing.T, servers map[string]config.MCPServer, timeout time.Duration) (*Manager, *events) {
	t.Helper()
	ev := newEvents()
	m := Start(context.Background(), Options{Servers: servers, Report: ev.report, StartTimeout: timeout, Dir: t.TempDir()})
	t.Cleanup(func() { m.Close() })
	return m, ev
}

func toolByName(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %s in %v", name, names(m.Tools()))
	return nil
}

func names(ts []tools.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name())
	}
	return out
}

func run(t *testing.T, ctx context.Context, tl tools.Tool, env *tools.Env, input string) (*tools.Result, error) {
	t.Helper()
	c, err := tl.Prepare(env, json.RawMessage(input))
	if err != nil {
		t.Fatalf("prepare %s: %v", tl.Name(), err)
	}
	return c.Run(ctx)
}

func TestTools(t *testing.T) {
	m, _ := start(t, map[string]config.MCPServer{"fake": fakeServer(t, "sdk")}, 0)
	want := []string{"mcp_fake_big", "mcp_fake_die", "mcp_fake_echo", "mcp_fake_fail", "mcp_fake_getenv", "mcp_fake_grow", "mcp_fake_hang", "mcp_fake_progress", "mcp_fake_release"}
	if got := names(m.Tools()); !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	echo := toolByName(t, m, "mcp_fake_echo")
	if echo.ReadOnly() {
		t.Error("a server's readOnlyHint made its tool ReadOnly")
	}
	if !strings.Contains(string(echo.Schema()), `"text"`) || !strings.Contains(echo.Description(), "echoes text") {
		t.Errorf("echo: schema %s, description %q", echo.Schema(), echo.Description())
	}
	if _, err := m.Registry(tools.FileTools()); err != nil {
		t.Errorf("registry: %v", err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		tool, input, want string
		isErr             bool
	}{
		{"mcp_fake_echo", `{"text":"hi"}`, "echo: hi", false},
		{"mcp_fake_echo", `{"text":5}`, "text", true}, // the server's own validation
		{"mcp_fake_fail", `{}`, "the widget is broken", true},
		{"mcp_fake_big", ``, "[cut: ", false},
	} {
		res, err := run(t, ctx, toolByName(t, m, tc.tool), &tools.Env{}, tc.input)
		if err != nil || res.IsError != tc.isErr || !strings.Contains(res.Content, tc.want) {
			t.Errorf("%s %s: %v, %+.200v; want %q", tc.tool, tc.input, err, res, tc.want)
		}
	}
	if _, err := echo.Prepare(&tools.Env{}, json.RawMessage(`[1]`)); err == nil {
		t.Error("an array was taken for arguments")
	}

	lines := make(chan string, 10)
	env := &tools.Env{Output: func(tool, chunk string) { lines <- tool + ": " + chunk }}
	done := make(chan *tools.Result, 1)
	go func() {
		res, err := run(t, ctx, toolByName(t, m, "mcp_fake_progress"), env, `{}`)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	var got []string
	for range 3 {
		got = append(got, <-lines)
	}
	slices.Sort(got) // notifications may be handled concurrently
	for i, line := range got {
		if want := fmt.Sprintf("mcp_fake_progress: progress %d/3: step\n", i+1); line != want {
			t.Errorf("progress line %q, want %q", line, want)
		}
	}
	if _, err := run(t, ctx, toolByName(t, m, "mcp_fake_release"), &tools.Env{}, `{}`); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res == nil || res.Content != "done" {
		t.Errorf("progress result %v", res)
	}
}

// TestHungCall: a call that never returns ends with the turn's context,
// and the server goes on answering.
func TestHungCall(t *testing.T) {
	m, _ := start(t, map[string]config.MCPServer{"fake": fakeServer(t, "sdk")}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := run(t, ctx, toolByName(t, m, "mcp_fake_hang"), &tools.Env{}, `{}`)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("hung call after cancel: %v", err)
	}
	res, err := run(t, context.Background(), toolByName(t, m, "mcp_fake_echo"), &tools.Env{}, `{"text":"after"}`)
	if err != nil || res.Content != "echo: after" {
		t.Errorf("after the hung call: %v %v", err, res)
	}
}

// TestServerExitsMidCall: the call gets an error result with the
// server's last words, the crash is reported, and the next call restarts
// the server.
func TestServerExitsMidCall(t *testing.T) {
	m, ev := start(t, map[string]config.MCPServer{"fake": fakeServer(t, "sdk")}, 0)
	res, err := run(t, context.Background(), toolByName(t, m, "mcp_fake_die"), &tools.Env{}, `{}`)
	if err != nil || !res.IsError {
		t.Fatalf("die: %v %v", err, res)
	}
	crash := ev.next(t, EventCrashed)
	if !strings.Contains(crash.Err.Error(), "dying on purpose") {
		t.Errorf("crash report without stderr: %v", crash.Err)
	}
	if st := m.Status()[0]; st.State != "stopped" {
		t.Errorf("status after the crash: %+v", st)
	}
	res, err = run(t, context.Background(), toolByName(t, m, "mcp_fake_echo"), &tools.Env{}, `{"text":"again"}`)
	if err != nil || res.Content != "echo: again" {
		t.Errorf("after restart: %v %v", err, res)
	}
	if st := m.Status()[0]; st.State != "running" {
		t.Errorf("status after the restart: %+v", st)
	}
}

// TestStartFailures: servers that exit, never answer or do not exist are
// reported; the others start.
func TestStartFailures(t *testing.T) {
	m, ev := start(t, map[string]config.MCPServer{
		"exits":   fakeServer(t, "exitnow"),
		"silent":  fakeServer(t, "silent"),
		"missing": {Command: filepath.Join(t.TempDir(), "no-such-server")},
		"unset":   {Command: "${PARLEY_TEST_UNSET_VAR}"},
		"good":    fakeServer(t, "sdk"),
	}, 2*time.Second)
	want := map[string]string{
		"exits": "boom: no such database", "silent": "no answer within 2s",
		"missing": "no-such-server", "unset": "PARLEY_TEST_UNSET_VAR",
	}
	for _, st := range m.Status() {
		if st.Name == "good" {
			if st.State != "running" || st.Tools == 0 {
				t.Errorf("good: %+v", st)
			}
			continue
		}
		if st.State != "failed" || st.Err == nil || !strings.Contains(st.Err.Error(), want[st.Name]) {
			t.Errorf("%s: %+v, want failed with %q", st.Name, st, want[st.Name])
		}
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.all) != 4 {
		t.Errorf("events = %v", ev.all)
	}
}

// TestProtocolHostility: a malformed frame from the server ends that
// connection (an error result, reported), a request and a notification of
// unknown methods are answered or ignored and the call completes.
func TestProtocolHostility(t *testing.T) {
	m, ev := start(t, map[string]config.MCPServer{"garbage": fakeServer(t, "garbage"), "unknown": fakeServer(t, "unknown")}, 5*time.Second)
	for range 2 { // and again after the restart
		res, err := run(t, context.Background(), toolByName(t, m, "mcp_garbage_echo"), &tools.Env{}, `{}`)
		if err != nil || !res.IsError {
			t.Errorf("garbage: %v %v", err, res)
		}
		ev.next(t, EventCrashed)
	}
	res, err := run(t, context.Background(), toolByName(t, m, "mcp_unknown_echo"), &tools.Env{}, `{}`)
	if err != nil || res.IsError || res.Content != "still here" {
		t.Errorf("unknown methods: %v %v", err, res)
	}
}

// TestToolListChanged: a server that adds a tool is re-listed.
func TestToolListChanged(t *testing.T) {
	m, ev := start(t, map[string]config.MCPServer{"fake": fakeServer(t, "sdk")}, 0)
	gen := m.Generation()
	if _, err := run(t, context.Background(), toolByName(t, m, "mcp_fake_grow"), &tools.Env{}, `{}`); err != nil {
		t.Fatal(err)
	}
	ev.next(t, EventToolsChanged)
	if m.Generation() == gen {
		t.Error("generation unchanged")
	}
	toolByName(t, m, "mcp_fake_late")
}

func TestToolName(t *testing.T) {
	long := strings.Repeat("a", 80)
	for _, tc := range []struct{ server, tool, want string }{
		{"github", "create_issue", "mcp_github_create_issue"},
		{"fs", "read.file v2", "mcp_fs_read_file_v2"},
		{"x", long, "mcp_x_" + long[:64-9-6] + "_"},
	} {
		got := ToolName(tc.server, tc.tool)
		if !strings.HasPrefix(got, tc.want) || len(got) > 64 {
			t.Errorf("ToolName(%q, %q) = %q, want %q...", tc.server, tc.tool, got, tc.want)
		}
	}
	if ToolName("x", long) == ToolName("x", long+"b") {
		t.Error("long names collide")
	}
}

func TestApprovals(t *testing.T) {
	a := Approvals{Path: filepath.Join(t.TempDir(), "sub", "mcp-approved.json")}
	user := config.MCPServer{Command: "u"}
	ws := config.MCPServer{Command: "w", Workspace: true}
	servers := map[string]config.MCPServer{"u": user, "w": ws}
	approved, err := a.Load()
	if err != nil {
		t.Fatal(err)
	}
	if run, pending := Select(servers, approved); len(run) != 1 || !slices.Equal(pending, []string{"w"}) {
		t.Fatalf("before approval: run %v pending %v", run, pending)
	}
	if err := a.Allow("w", ws); err != nil {
		t.Fatal(err)
	}
	approved, _ = a.Load()
	if run, pending := Select(servers, approved); len(run) != 2 || pending != nil {
		t.Errorf("after approval: run %v pending %v", run, pending)
	}
	changed := ws
	changed.Args = []string{"--evil"}
	servers["w"] = changed
	if _, pending := Select(servers, approved); !slices.Equal(pending, []string{"w"}) {
		t.Errorf("a changed definition kept its approval: %v", pending)
	}
	if err := a.Revoke("w"); err != nil {
		t.Fatal(err)
	}
	if approved, _ = a.Load(); len(approved) != 0 {
		t.Errorf("after revoke: %v", approved)
	}
}

// TestServerEnv: a stdio server gets parley's environment without parley's
// secrets, plus its own env (which may pass one on explicitly).
func TestServerEnv(t *testing.T) {
	t.Setenv("PARLEY_API_KEY", "sk-secret")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("PARLEY_TEST_PLAIN", "plain")
	def := fakeServer(t, "sdk")
	def.Env["GIVEN"] = "${ANTHROPIC_API_KEY}"
	m, _ := start(t, map[string]config.MCPServer{"fake": def}, 0)
	res, err := run(t, context.Background(), toolByName(t, m, "mcp_fake_getenv"), &tools.Env{},
		`{"text":"PARLEY_API_KEY ANTHROPIC_API_KEY PARLEY_TEST_PLAIN GIVEN"}`)
	if want := "PARLEY_API_KEY=;ANTHROPIC_API_KEY=;PARLEY_TEST_PLAIN=plain;GIVEN=sk-ant-secret;"; err != nil || res.Content != want {
		t.Errorf("server environment %v %v, want %s", err, res, want)
	}
}

// clock is a Manager's time, moved by the test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestRetryFailedStart: a server that failed to start is started again by
// Retry once its backoff is over, not before (its calls fail at once
// meanwhile); each failure doubles the backoff, a success brings its
// tools (a new Generation) and reports the restart.
func TestRetryFailedStart(t *testing.T) {
	fixed := filepath.Join(t.TempDir(), "fixed")
	def := fakeServer(t, "failonce")
	def.Env["PARLEY_FAKE_MCP_FIXED"] = fixed
	ev := newEvents()
	clk := &clock{t: time.Unix(1e9, 0)}
	// Start with the real clock, then take over: the first failure's
	// backoff is counted from the start.
	m := Start(context.Background(), Options{Servers: map[string]config.MCPServer{"flaky": def}, Report: ev.report,
		StartTimeout: 10 * time.Second, RetryBackoff: time.Minute, Dir: t.TempDir()})
	t.Cleanup(func() { m.Close() })
	m.now = clk.now
	m.servers[0].mu.Lock()
	m.servers[0].retryAt = clk.now().Add(time.Minute)
	m.servers[0].mu.Unlock()

	if f := ev.next(t, EventFailed); f.Retry != time.Minute || !strings.Contains(f.Err.Error(), "not configured yet") {
		t.Errorf("first failure: %+v", f)
	}
	if st := m.Status()[0]; st.State != "failed" || len(m.Tools()) != 0 {
		t.Fatalf("after the failed start: %+v, tools %v", st, names(m.Tools()))
	}
	kinds := func() []EventKind {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		var out []EventKind
		for _, e := range ev.all {
			out = append(out, e.Kind)
		}
		return out
	}

	// Within the backoff nothing is started.
	clk.add(59 * time.Second)
	m.Retry(context.Background())
	if got := kinds(); !slices.Equal(got, []EventKind{EventFailed}) {
		t.Fatalf("retry within the backoff: events %v", got)
	}
	// After it, a start that fails again doubles the backoff.
	clk.add(time.Second)
	m.Retry(context.Background())
	if f := ev.all[len(ev.all)-1]; f.Kind != EventFailed || f.Retry != 2*time.Minute {
		t.Fatalf("second failure: %v", kinds())
	}
	clk.add(time.Minute)
	if err := os.WriteFile(fixed, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m.Retry(context.Background())
	if got := kinds(); len(got) != 3 {
		t.Fatalf("retry within the doubled backoff: events %v", got)
	}
	clk.add(time.Minute)
	gen := m.Generation()
	m.Retry(context.Background())
	want := []EventKind{EventFailed, EventRestarting, EventFailed, EventRestarting, EventRestarted}
	if got := kinds(); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if st := m.Status()[0]; st.State != "running" || st.Err != nil || m.Generation() == gen {
		t.Errorf("after the restart: %+v, generation %d -> %d", st, gen, m.Generation())
	}
	res, err := run(t, context.Background(), toolByName(t, m, "mcp_flaky_echo"), &tools.Env{}, `{"text":"up"}`)
	if err != nil || res.Content != "echo: up" {
		t.Errorf("call after the restart: %v %v", err, res)
	}
}

// TestCallWithinBackoff: a crashed server whose restart failed answers its
// next calls at once with the reason and the wait, without starting.
func TestCallWithinBackoff(t *testing.T) {
	fixed := filepath.Join(t.TempDir(), "fixed")
	if err := os.WriteFile(fixed, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	def := fakeServer(t, "failonce")
	def.Env["PARLEY_FAKE_MCP_FIXED"] = fixed
	m, ev := start(t, map[string]config.MCPServer{"flaky": def}, 10*time.Second)
	m.opts.RetryBackoff = time.Minute
	die := toolByName(t, m, "mcp_flaky_die")
	if _, err := run(t, context.Background(), die, &tools.Env{}, `{}`); err != nil {
		t.Fatal(err)
	}
	ev.next(t, EventCrashed)
	os.Remove(fixed)
	echo := toolByName(t, m, "mcp_flaky_echo")
	res, err := run(t, context.Background(), echo, &tools.Env{}, `{}`)
	if err != nil || !res.IsError || !strings.Contains(res.Content, "not configured yet") {
		t.Fatalf("call after the crash: %v %v", err, res)
	}
	ev.next(t, EventFailed)
	res, err = run(t, context.Background(), echo, &tools.Env{}, `{}`)
	if err != nil || !res.IsError || !strings.Contains(res.Content, "next start in 1m0s") {
		t.Errorf("call within the backoff: %v %v", err, res)
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if n := len(ev.all); n != 3 { // crashed, restarting, failed; nothing more
		t.Errorf("events %v", ev.all)
	}
}
