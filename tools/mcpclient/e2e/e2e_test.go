//go:build mcpe2e

// Package e2e runs parley's MCP client and server against real peers from
// npm (pinned in package.json): `make mcp-e2e` after `npm ci` here.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/memory/docs/pdftest"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/mcpclient"
)

func bin(t *testing.T, name string) string {
	p, err := filepath.Abs(filepath.Join("node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s: run npm ci in tools/mcpclient/e2e first (%v)", name, err)
	}
	return p
}

func call(t *testing.T, m *mcpclient.Manager, name, input string, env *tools.Env) *tools.Result {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			c, err := tl.Prepare(env, json.RawMessage(input))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res, err := c.Run(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return res
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func start(t *testing.T, servers map[string]config.MCPServer) *mcpclient.Manager {
	m := mcpclient.Start(context.Background(), mcpclient.Options{Servers: servers, Dir: t.TempDir(), StartTimeout: time.Minute})
	t.Cleanup(func() { m.Close() })
	for _, st := range m.Status() {
		if st.State != "running" {
			t.Fatalf("%s: %+v", st.Name, st)
		}
	}
	return m
}

// everything checks the reference server's tools: arguments, a long
// operation with progress, and an error.
func everything(t *testing.T, m *mcpclient.Manager, server string) {
	p := "mcp_" + server + "_"
	if r := call(t, m, p+"echo", `{"message":"hi parley"}`, &tools.Env{}); r.IsError || !strings.Contains(r.Content, "hi parley") {
		t.Errorf("echo: %+v", r)
	}
	if r := call(t, m, p+"get-sum", `{"a":2,"b":40}`, &tools.Env{}); r.IsError || !strings.Contains(r.Content, "42") {
		t.Errorf("get-sum: %+v", r)
	}
	if r := call(t, m, p+"get-sum", `{"a":"two"}`, &tools.Env{}); !r.IsError {
		t.Errorf("get-sum with bad arguments: %+v", r)
	}
	var progress []string
	env := &tools.Env{Output: func(_, chunk string) { progress = append(progress, chunk) }}
	if r := call(t, m, p+"trigger-long-running-operation", `{"duration":1,"steps":3}`, env); r.IsError {
		t.Errorf("long-running: %+v", r)
	}
	if len(progress) == 0 {
		t.Error("no progress from the long-running operation")
	}
}

func TestEverythingStdio(t *testing.T) {
	m := start(t, map[string]config.MCPServer{"ev": {Command: bin(t, "mcp-server-everything"), Args: []string{"stdio"}}})
	everything(t, m, "ev")
	if st := m.Status()[0]; len(st.Resources) == 0 || len(st.Prompts) == 0 {
		t.Errorf("resources and prompts not listed: %+v", st)
	}
}

// everythingHTTP starts server-everything's streamable HTTP transport on a
// free loopback port and returns its endpoint.
func everythingHTTP(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin(t, "mcp-server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("server-everything never listened")
		}
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

func TestEverythingHTTP(t *testing.T) {
	m := start(t, map[string]config.MCPServer{"evh": {URL: everythingHTTP(t)}})
	everything(t, m, "evh")
}

func TestFilesystem(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := start(t, map[string]config.MCPServer{"fs": {Command: bin(t, "mcp-server-filesystem"), Args: []string{dir}}})
	if r := call(t, m, "mcp_fs_read_text_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "note.txt")), &tools.Env{}); r.IsError || !strings.Contains(r.Content, "remember the milk") {
		t.Errorf("read_text_file: %+v", r)
	}
	if r := call(t, m, "mcp_fs_read_text_file", `{"path":"/etc/passwd"}`, &tools.Env{}); !r.IsError {
		t.Errorf("read outside the allowed directory: %+v", r)
	}
}

var (
	buildOnce sync.Once
	parleyBin string
	buildErr  error
)

// parley builds cmd/parley once per test binary run.
func parley(t *testing.T) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "parley-mcpe2e-")
		if err != nil {
			buildErr = err
			return
		}
		parleyBin = filepath.Join(dir, "parley")
		out, err := exec.Command("go", "build", "-o", parleyBin, "github.com/parleyhq/parley/cmd/parley").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return parleyBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if parleyBin != "" {
		os.RemoveAll(filepath.Dir(parleyBin))
	}
	os.Exit(code)
}

// TestChatDrivesPeers: `parley chat`, configured as README shows
// (mcpServers in the user file, an allow rule per server), with the fake
// model calling tools of server-everything over stdio and streamable HTTP
// and of server-filesystem; the results reach the model's next request.
func TestChatDrivesPeers(t *testing.T) {
	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{files, ws, filepath.Join(dir, "config", "parley")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	note := filepath.Join(files, "note.txt")
	os.WriteFile(note, []byte("remember the milk\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n"), 0o644)
	cfg, _ := json.Marshal(map[string]any{
		"mcpServers": map[string]any{
			"ev":  map[string]any{"command": bin(t, "mcp-server-everything"), "args": []string{"stdio"}},
			"evh": map[string]any{"url": everythingHTTP(t)},
			"fs":  map[string]any{"command": bin(t, "mcp-server-filesystem"), "args": []string{files}},
		},
		"permissions": map[string]any{"allow": []string{"mcp_ev_*", "mcp_evh_*", "mcp_fs_*"}},
	})
	os.WriteFile(filepath.Join(dir, "config", "parley", "config.json"), cfg, 0o644)

	url, llm := fakellm.Start(t, fmt.Sprintf(`tool mcp_ev_echo {"message":"hello from the fake model"}
tool mcp_evh_get-sum {"a":2,"b":40}
tool mcp_fs_read_text_file {"path":%q}
---
text All three answered.
`, note))
	cmd := exec.Command(parley(t), "chat", "--root", ws, "ask the MCP servers")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"PARLEY_DATA_DIR="+filepath.Join(dir, "data"), "PARLEY_API_URL="+url+"/v1",
		"PARLEY_MODEL=fake-model", "PARLEY_API_KEY=sk-test")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "All three answered.") {
		t.Fatalf("parley chat: %v\n%s", err, out)
	}
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2\n%s", len(reqs), out)
	}
	for tool, want := range map[string]string{
		"mcp_ev_echo": "hello from the fake model", "mcp_evh_get-sum": "42", "mcp_fs_read_text_file": "remember the milk",
	} {
		if got := toolResult(t, reqs[1], tool); !strings.Contains(got, want) {
			t.Errorf("%s: the model saw %q, want %q in it", tool, got, want)
		}
	}
}

// toolResult is the content of the tool message answering the request's
// call of tool (an OpenAI chat completions request).
func toolResult(t *testing.T, body []byte, tool string) string {
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if c.Function.Name == tool {
				id = c.ID
			}
		}
	}
	for _, m := range req.Messages {
		if id != "" && m.Role == "tool" && m.ToolCallID == id {
			return string(m.Content)
		}
	}
	return ""
}

// TestServerWithSDKClient runs the official TypeScript SDK client
// (client.mjs) against parley mcp over stdio and streamable HTTP, with
// the fake model server as embeddings endpoint.
func TestServerWithSDKClient(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/e2e\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package e2e\n\nfunc Alpha() int { return Beta() }\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "b.go"), []byte("package e2e\n\nfunc Beta() int { return 1 }\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "manual.pdf"), pdftest.Make([][]string{{"Gamma is not written yet."}}), 0o644)
	url, _ := fakellm.Start(t, "")
	cmd := exec.Command("node", "client.mjs", parley(t), ws)
	cmd.Env = append(os.Environ(), "PARLEY_DATA_DIR="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(),
		"PARLEY_EMBEDDING_API_URL="+url+"/v1", "PARLEY_EMBEDDING_MODEL=fake-embed-64")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("client.mjs: %v", err)
	}
}
