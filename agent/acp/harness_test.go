package acp_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/workspace"
)

// waitTimeout bounds every wait; reaching it is a failure, never a way
// to synchronise.
const waitTimeout = 20 * time.Second

// fakeClient is an ACP client: it records updates and requests, keeps
// editor buffers for fs/*, and answers permission requests with answer.
type fakeClient struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	buffers map[string]string // path -> buffer content
	writes  []sdk.WriteTextFileRequest
	asked   []sdk.RequestPermissionRequest
	answer  func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
	changed chan struct{}  // closed and replaced on every update
	terms   *fakeTerminals // nil: no terminals
}

func newFakeClient() *fakeClient {
	return &fakeClient{buffers: map[string]string{}, changed: make(chan struct{})}
}

func selected(id string) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id), Outcome: "selected"}}}
}

func (c *fakeClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.buffers[p.Path]; ok {
		return sdk.ReadTextFileResponse{Content: b}, nil
	}
	data, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	return sdk.ReadTextFileResponse{Content: string(data)}, nil
}

func (c *fakeClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, p)
	c.buffers[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (c *fakeClient) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asked = append(c.asked, p)
	answer := c.answer
	c.mu.Unlock()
	if answer == nil {
		return selected("reject_once"), nil
	}
	return answer(p), nil
}

func (c *fakeClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = append(c.updates, n)
	close(c.changed)
	c.changed = make(chan struct{})
	return nil
}

// waitFor waits until ok holds for the updates received so far.
func (c *fakeClient) waitFor(t *testing.T, what string, ok func([]sdk.SessionNotification) bool) {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		c.mu.Lock()
		done, ch := ok(c.updates), c.changed
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (c *fakeClient) snapshot() (updates []sdk.SessionNotification, writes []sdk.WriteTextFileRequest, asked []sdk.RequestPermissionRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.SessionNotification(nil), c.updates...), append([]sdk.WriteTextFileRequest(nil), c.writes...), append([]sdk.RequestPermissionRequest(nil), c.asked...)
}

var errNoTerminals = errors.New("this client has no terminals")

func (c *fakeClient) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	if c.terms == nil {
		return sdk.CreateTerminalResponse{}, errNoTerminals
	}
	return c.terms.create(p)
}

func (c *fakeClient) KillTerminal(_ context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	if c.terms == nil {
		return sdk.KillTerminalResponse{}, errNoTerminals
	}
	return c.terms.kill(p)
}

func (c *fakeClient) TerminalOutput(_ context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	if c.terms == nil {
		return sdk.TerminalOutputResponse{}, errNoTerminals
	}
	return c.terms.output(p)
}

func (c *fakeClient) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	if c.terms == nil {
		return sdk.ReleaseTerminalResponse{}, errNoTerminals
	}
	return c.terms.release(p)
}

func (c *fakeClient) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	if c.terms == nil {
		return sdk.WaitForTerminalExitResponse{}, errNoTerminals
	}
	return c.terms.wait(ctx, p)
}

// fixture is a workspace with a fake model and a session store.
type fixture struct {
	root     string
	url      string
	llm      *fakellm.Server
	sessions *agent.SessionStore
	mode     string
	// configure, when set, changes the workspace before it is served.
	configure func(*acp.Workspace)
}

func newFixture(t *testing.T, script string, files map[string]string) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url, llm := fakellm.Start(t, script)
	st, err := agent.OpenSessions(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fixture{root: root, url: url, llm: llm, sessions: st}
}

// workspace is what parley acp's host opens for the fixture.
func (f *fixture) workspace(t *testing.T) *acp.Workspace {
	t.Helper()
	roots, err := workspace.NewRoots(f.root)
	if err != nil {
		t.Fatal(err)
	}
	url, model, prov, mode := f.url+"/v1", "fake-model", provider.NameOpenAICompatible, f.mode
	layer := config.Layer{APIURL: &url, Model: &model, Provider: &prov}
	if mode != "" {
		layer.PermissionMode = &mode
	}
	cfg, err := config.Load(config.Options{Workspace: f.root, UserFile: "-", Getenv: func(string) string { return "" }, Flags: layer})
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.New(provider.Config{Provider: prov, APIURL: url, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	ws := &acp.Workspace{Roots: roots, Config: cfg, Provider: p, Sessions: f.sessions}
	if f.configure != nil {
		f.configure(ws)
	}
	return ws
}

// connect serves a new Server over pipes to client and initializes it
// with caps.
func (f *fixture) connect(t *testing.T, client *fakeClient, caps sdk.ClientCapabilities) *sdk.ClientSideConnection {
	t.Helper()
	ws := f.workspace(t)
	srv := acp.New(acp.Options{Version: "test", Open: func(cwd string) (*acp.Workspace, error) {
		if _, _, _, err := ws.Roots.Resolve(cwd); err != nil {
			return nil, err
		}
		return ws, nil
	}})
	conn := serve(t, srv, client)
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatal(err)
	}
	return conn
}

// serve runs srv over pipes and returns the client's side of the
// connection; the test's end closes the pipes and waits for Serve.
func serve(t *testing.T, srv *acp.Server, client sdk.Client) *sdk.ClientSideConnection {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), toAgentR, toClientW) }()
	t.Cleanup(func() {
		toAgentW.Close()
		toClientR.Close()
		select {
		case <-done:
		case <-time.After(waitTimeout):
			t.Error("Serve did not return after the client went away")
		}
	})
	return sdk.NewClientSideConnection(client, toAgentW, toClientR)
}

// newSession opens a session in the fixture's root, with no MCP servers.
func (f *fixture) newSession(t *testing.T, ctx context.Context, conn *sdk.ClientSideConnection) sdk.NewSessionResponse {
	t.Helper()
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: f.root, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

func text(s string) []sdk.ContentBlock { return []sdk.ContentBlock{sdk.TextBlock(s)} }

// toolUpdates returns the tool_call and tool_call_update notifications of
// call id, in order.
func toolUpdates(updates []sdk.SessionNotification, id string) (start *sdk.SessionUpdateToolCall, later []*sdk.SessionToolCallUpdate) {
	for _, n := range updates {
		if tc := n.Update.ToolCall; tc != nil && string(tc.ToolCallId) == id {
			start = tc
		}
		if tu := n.Update.ToolCallUpdate; tu != nil && string(tu.ToolCallId) == id {
			later = append(later, tu)
		}
	}
	return start, later
}

func statuses(later []*sdk.SessionToolCallUpdate) []string {
	var out []string
	for _, u := range later {
		if u.Status != nil {
			out = append(out, string(*u.Status))
		}
	}
	return out
}

func agentText(updates []sdk.SessionNotification) string {
	var b strings.Builder
	for _, n := range updates {
		if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
			b.WriteString(c.Content.Text.Text)
		}
	}
	return b.String()
}
