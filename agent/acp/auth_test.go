package acp_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/agent/config"
)

// secret is the key the tests hand parley; no answer may contain it.
const secret = "sk-test-d0-not-leak-4f1c"

// keyHost plays parley acp's host: it opens the fixture's workspace only
// when the configuration (a user file on disk, a fake environment) holds
// a key, as cmd/parley does.
type keyHost struct {
	t        *testing.T
	f        *fixture
	userFile string

	mu  sync.Mutex
	env map[string]string
}

func newKeyHost(t *testing.T, f *fixture, env map[string]string) *keyHost {
	return &keyHost{t: t, f: f, userFile: filepath.Join(t.TempDir(), "config.json"), env: env}
}

func (h *keyHost) getenv(k string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.env[k]
}

func (h *keyHost) check() error {
	cfg, err := config.Load(config.Options{Workspace: h.f.root, UserFile: h.userFile, Getenv: h.getenv})
	if err != nil {
		return err
	}
	return cfg.Ready()
}

func (h *keyHost) open(cwd string) (*acp.Workspace, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("workspace of %s: %w", cwd, err)
	}
	return h.f.workspace(h.t), nil
}

func (h *keyHost) writeUserFile(content string) {
	h.t.Helper()
	if err := os.WriteFile(h.userFile, []byte(content), 0o600); err != nil {
		h.t.Fatal(err)
	}
}

// connect serves a Server whose host is h and initializes it.
func (h *keyHost) connect() (*sdk.ClientSideConnection, sdk.InitializeResponse) {
	h.t.Helper()
	srv := acp.New(acp.Options{Version: "test", Open: h.open, CheckKey: h.check, UserFile: h.userFile, Getenv: h.getenv})
	conn := serve(h.t, srv, newFakeClient())
	init, err := conn.Initialize(ctxT(h.t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		h.t.Fatal(err)
	}
	return conn, init
}

// noKeyEnv is a configuration that needs a key and has none: the openai
// provider against the fixture's server.
func noKeyEnv(f *fixture) map[string]string {
	return map[string]string{"PARLEY_PROVIDER": "openai", "PARLEY_API_URL": f.url + "/v1", "PARLEY_MODEL": "fake-model"}
}

// requestError returns err's JSON-RPC code and message text (data
// included), failing the test when err is not a request error.
func requestError(t *testing.T, what string, err error) (int, string) {
	t.Helper()
	var re *sdk.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("%s: want a request error, got %v", what, err)
	}
	if strings.Contains(re.Error(), secret) {
		t.Fatalf("%s: the error shows the key: %v", what, re)
	}
	return re.Code, re.Error()
}

// TestAuthMethods: initialize lists one method per place parley reads a
// key from, each with a description; the config file's names the file.
func TestAuthMethods(t *testing.T) {
	f := newFixture(t, "", nil)
	h := newKeyHost(t, f, noKeyEnv(f))
	_, init := h.connect()
	got := map[string]*sdk.AuthMethodAgent{}
	for _, m := range init.AuthMethods {
		if m.Agent == nil {
			t.Fatalf("method %+v is not an agent method", m)
		}
		got[m.Agent.Id] = m.Agent
	}
	for _, id := range []string{"env:PARLEY_API_KEY", "env:ANTHROPIC_API_KEY", "env:OPENAI_API_KEY", "env:GEMINI_API_KEY", "env:GOOGLE_API_KEY", "config-file"} {
		m := got[id]
		if m == nil {
			t.Errorf("no auth method %s in %v", id, toJSON(init.AuthMethods))
			continue
		}
		if m.Name == "" || m.Description == nil || *m.Description == "" {
			t.Errorf("%s lacks a name or description: %+v", id, m)
		}
	}
	if m := got["config-file"]; m != nil && m.Description != nil && !strings.Contains(*m.Description, h.userFile) {
		t.Errorf("the config-file method does not name %s: %s", h.userFile, *m.Description)
	}
	if len(got) != 6 {
		t.Errorf("%d auth methods, want 6: %v", len(got), toJSON(init.AuthMethods))
	}
}

// TestAuthMethodsMatchConfig: each advertised way of giving a key really
// gives config.Load one, so the list cannot drift from the loader.
func TestAuthMethodsMatchConfig(t *testing.T) {
	dir := t.TempDir()
	ways := map[string]config.Options{}
	for _, v := range []string{"PARLEY_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"} {
		ways["env:"+v] = config.Options{UserFile: "-", Getenv: func(k string) string {
			if k == v {
				return secret
			}
			return ""
		}}
	}
	for i, field := range []string{"api_key", "anthropic_api_key", "openai_api_key", "gemini_api_key"} {
		p := filepath.Join(dir, fmt.Sprintf("config%d.json", i))
		if err := os.WriteFile(p, []byte(`{"`+field+`":"`+secret+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		ways["config-file "+field] = config.Options{UserFile: p, Getenv: func(string) string { return "" }}
	}
	for name, o := range ways {
		cfg, err := config.Load(o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if key, _ := cfg.Key(); key != secret {
			t.Errorf("%s: the configuration has no key", name)
		}
	}
}

// TestAuthRequired: without a key, session/new and session/load answer
// auth_required (-32000); authenticating fails, saying why, until a key
// is written to the config file; then sessions open. No answer shows the
// key.
func TestAuthRequired(t *testing.T) {
	f := newFixture(t, "text signed in\n", nil)
	h := newKeyHost(t, f, noKeyEnv(f))
	conn, _ := h.connect()
	ctx := ctxT(t)

	_, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: f.root, McpServers: []sdk.McpServer{}})
	if code, msg := requestError(t, "session/new without a key", err); code != -32000 || !strings.Contains(msg, "PARLEY_API_KEY") {
		t.Errorf("session/new without a key: %d %s, want -32000 naming PARLEY_API_KEY", code, msg)
	}
	_, err = conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "s1", Cwd: f.root, McpServers: []sdk.McpServer{}})
	if code, msg := requestError(t, "session/load without a key", err); code != -32000 {
		t.Errorf("session/load without a key: %d %s, want -32000", code, msg)
	}

	_, err = conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: "env:PARLEY_API_KEY"})
	if code, msg := requestError(t, "authenticate env", err); code != -32000 || !strings.Contains(msg, "PARLEY_API_KEY is not set") || !strings.Contains(msg, "restart") {
		t.Errorf("authenticate with the variable unset: %d %s", code, msg)
	}
	_, err = conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: "config-file"})
	if code, msg := requestError(t, "authenticate config-file", err); code != -32000 || !strings.Contains(msg, h.userFile) {
		t.Errorf("authenticate with no key in the file: %d %s", code, msg)
	}

	h.writeUserFile(`{"api_key":"` + secret + `"}`)
	if _, err := conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: "config-file"}); err != nil {
		t.Fatalf("authenticate after writing the key: %v", err)
	}
	sess := f.newSession(t, ctx, conn)
	resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("hi")})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after authenticating: %v %v", resp, err)
	}
}

// TestAuthenticateEnv: an environment method succeeds when its variable
// gives a key, and says why not when it is set but never sent to this
// api_url (OPENAI_API_KEY goes to api.openai.com only).
func TestAuthenticateEnv(t *testing.T) {
	f := newFixture(t, "", nil)
	env := noKeyEnv(f)
	env["OPENAI_API_KEY"] = secret
	h := newKeyHost(t, f, env)
	conn, _ := h.connect()
	ctx := ctxT(t)
	_, err := conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: "env:OPENAI_API_KEY"})
	if code, msg := requestError(t, "authenticate env set", err); code != -32000 || !strings.Contains(msg, "OPENAI_API_KEY is set") || !strings.Contains(msg, "only sent to api.openai.com") {
		t.Errorf("authenticate with a key for another host: %d %s", code, msg)
	}

	h.mu.Lock()
	h.env["PARLEY_API_KEY"] = secret
	h.mu.Unlock()
	if _, err := conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: "env:PARLEY_API_KEY"}); err != nil {
		t.Fatalf("authenticate with PARLEY_API_KEY set: %v", err)
	}
	f.newSession(t, ctx, conn)
}

// TestAuthenticateUnknownMethod: a method parley never offered is the
// client's mistake (invalid params), not a success.
func TestAuthenticateUnknownMethod(t *testing.T) {
	f := newFixture(t, "", nil)
	h := newKeyHost(t, f, noKeyEnv(f))
	conn, _ := h.connect()
	_, err := conn.Authenticate(ctxT(t), sdk.AuthenticateRequest{MethodId: "oauth"})
	if code, msg := requestError(t, "unknown method", err); code != -32602 || !strings.Contains(msg, "env:PARLEY_API_KEY") {
		t.Errorf("unknown method: %d %s, want -32602 listing the methods", code, msg)
	}
}
