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
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/config"
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

func TestEverythingHTTP(t *testing.T) {
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
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("server-everything never listened")
		}
	}
	m := start(t, map[string]config.MCPServer{"evh": {URL: url}})
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

// TestServerWithSDKClient runs the official TypeScript SDK client
// (client.mjs) against parley mcp over stdio and streamable HTTP.
func TestServerWithSDKClient(t *testing.T) {
	parley := filepath.Join(t.TempDir(), "parley")
	build := exec.Command("go", "build", "-o", parley, "github.com/parleyhq/parley/cmd/parley")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/e2e\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package e2e\n\nfunc Alpha() int { return Beta() }\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "b.go"), []byte("package e2e\n\nfunc Beta() int { return 1 }\n"), 0o644)
	cmd := exec.Command("node", "client.mjs", parley, ws)
	cmd.Env = append(os.Environ(), "PARLEY_DATA_DIR="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("client.mjs: %v", err)
	}
}
