package acp_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeMCPEnv makes the test binary an MCP server on stdio (TestMain), for
// a client to pass with its session.
const fakeMCPEnv = "PARLEY_ACP_FAKE_MCP"

func TestMain(m *testing.M) {
	if os.Getenv(fakeMCPEnv) != "" {
		s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "shout", Description: "upper-cases text"},
			func(_ context.Context, _ *mcp.CallToolRequest, a struct {
				Text string `json:"text"`
			}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
			})
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	// The SDK logs every closed connection; the tests close many.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	os.Exit(m.Run())
}

// TestClientMCPServers: a stdio MCP server the client passes with
// session/new runs for the session; the model sees its tools as
// mcp_{server}_{tool} and calls them (after asking, as for any MCP tool).
func TestClientMCPServers(t *testing.T) {
	f := newFixture(t, `tool mcp_loud_shout {"text":"hello"}
---
text shouted
`, nil)
	c := newFakeClient()
	c.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse { return selected("allow_once") }
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: f.root, McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{
		Name: "loud", Command: exe, Args: []string{"-test.run=^$"}, Env: []sdk.EnvVariable{{Name: fakeMCPEnv, Value: "1"}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("shout")}); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if !strings.Contains(string(reqs[0]), "mcp_loud_shout") {
		t.Errorf("the model was not offered the client's MCP tool: %s", reqs[0])
	}
	if !strings.Contains(string(reqs[1]), "HELLO") {
		t.Errorf("the MCP tool's result did not reach the model: %s", reqs[1])
	}
	if _, _, asked := c.snapshot(); len(asked) != 1 {
		t.Errorf("asked %d times about the MCP tool, want 1", len(asked))
	}
}
