package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/syncbuf"
	"github.com/parleyhq/parley/tools/mcpclient"
)

// mcpWait bounds waiting for `parley mcp` to see a change; a failure
// bound, not a measurement.
const mcpWait = 20 * time.Second

// mcpCommand is `parley mcp args...` on the workspace ws with its data and
// configuration under dir.
func mcpCommand(t *testing.T, dir, ws string, args ...string) *exec.Cmd {
	t.Helper()
	parley := parleyPath(t)
	cmd := exec.Command(parley, append([]string{"mcp", "--root", ws}, args...)...)
	cmd.Env = append(chatTestEnv(dir, "http://127.0.0.1:1"), "PARLEY_MCP_TOKEN=")
	return cmd
}

// callText calls a tool and returns its text and error flag.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// TestMCPStdio starts `parley mcp` as an MCP client does, queries the
// index it built at start, and sees a file added while it runs.
func TestMCPStdio(t *testing.T) {
	dir := t.TempDir()
	ws := fixture.Workspace(t, "shop")
	cmd := mcpCommand(t, dir, ws)
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	if got, isErr := callText(t, cs, "find_definition", map[string]any{"name": "Discount"}); isErr || !strings.Contains(got, "cart/fee.go:4") {
		t.Errorf("find_definition: %v %s", isErr, got)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "x.go", "content": "x"}}); err == nil {
		t.Error("write_file is served without --allow-edits")
	}

	if err := os.WriteFile(filepath.Join(ws, "cart", "late.go"), []byte("package cart\n\nfunc Latecomer() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(mcpWait)
	for {
		got, _ := callText(t, cs, "find_definition", map[string]any{"name": "Latecomer"})
		if strings.Contains(got, "cart/late.go:3") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the index never saw cart/late.go: %s\n%s", got, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMCPHTTPEdits serves streamable HTTP on an ephemeral loopback port
// with --allow-edits: an edit is written and in the index at once.
func TestMCPHTTPEdits(t *testing.T) {
	dir := t.TempDir()
	ws := fixture.Workspace(t, "shop")
	cmd := mcpCommand(t, dir, ws, "--http", "127.0.0.1:0", "--allow-edits", "--no-watch")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("parley mcp after SIGINT: %v", err)
		}
	}()
	url := ""
	sc := bufio.NewScanner(stderr)
	serving := regexp.MustCompile(`serving (http://\S+)`)
	for sc.Scan() {
		if m := serving.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
			break
		}
	}
	if url == "" {
		t.Fatalf("no address on stderr: %v", sc.Err())
	}
	go func() {
		for sc.Scan() { // keep the pipe drained
		}
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got, isErr := callText(t, cs, "write_file", map[string]any{"path": "cart/new.go", "content": "package cart\n\nfunc Fresh() {}\n"}); isErr {
		t.Fatalf("write_file: %s", got)
	}
	if got, isErr := callText(t, cs, "find_definition", map[string]any{"name": "Fresh"}); isErr || !strings.Contains(got, "cart/new.go:3") {
		t.Errorf("the edit is not in the index: %v %s", isErr, got)
	}
}

func TestStatusWords(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		st      mcpclient.Status
		pending bool
		want    string
	}{
		{mcpclient.Status{State: "running", Tools: 2, Prompts: []string{"p"}}, false, "running, 2 tools, 1 prompts"},
		{mcpclient.Status{State: "failed", Err: boom}, false, "failed: boom"},
		{mcpclient.Status{State: "stopped", Err: boom}, false, "stopped: boom"},
		{mcpclient.Status{State: "restarting", Err: boom}, false, "restarting"},
		{mcpclient.Status{}, true, "not allowed (parley mcp allow x)"},
	} {
		if got := statusWords("x", tc.st, tc.pending); got != tc.want {
			t.Errorf("statusWords(%+v) = %q, want %q", tc.st, got, tc.want)
		}
	}
}

// TestMCPMemoryAndMap: parley mcp serves repo_map and the memory tools
// (remember with --allow-memory-writes), sharing the memory stores with
// every process: `parley memory list` in another process reads what the
// MCP client remembered while the server still runs.
func TestMCPMemoryAndMap(t *testing.T) {
	dir := t.TempDir()
	ws := fixture.Workspace(t, "shop")
	cmd := mcpCommand(t, dir, ws, "--allow-memory-writes", "--no-watch")
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	if got, isErr := callText(t, cs, "repo_map", map[string]any{"focus": []string{"cart/cart.go"}}); isErr || !strings.Contains(got, "cart/cart.go") {
		t.Errorf("repo_map: %v %s", isErr, got)
	}
	if got, isErr := callText(t, cs, "remember", map[string]any{"content": "Prices are integer cents.", "type": "decision"}); isErr || !strings.Contains(got, "Remembered as 1") {
		t.Fatalf("remember: %v %s\n%s", isErr, got, stderr.String())
	}
	list := exec.Command(mcpCommand(t, dir, ws).Path, "memory", "list", "--root", ws)
	list.Env = mcpCommand(t, dir, ws).Env
	out, err := list.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Prices are integer cents.") {
		t.Errorf("parley memory list while parley mcp runs: %v\n%s", err, out)
	}
	if got, isErr := callText(t, cs, "recall_memories", map[string]any{"query": "prices cents"}); isErr || !strings.Contains(got, "integer cents") {
		t.Errorf("recall_memories: %v %s", isErr, got)
	}
}
