package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent/config"
)

// fakeEnv names the fake server mode the test binary runs in (TestMain).
const fakeEnv = "PARLEY_FAKE_MCP"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(fakeEnv); mode {
	case "":
		os.Exit(m.Run())
	case "sdk":
		fakeSDKServer()
	case "exitnow":
		fmt.Fprintln(os.Stderr, "boom: no such database")
		os.Exit(3)
	case "failonce":
		// Fails while the file named by PARLEY_FAKE_MCP_FIXED is missing.
		if _, err := os.Stat(os.Getenv("PARLEY_FAKE_MCP_FIXED")); err != nil {
			fmt.Fprintln(os.Stderr, "not configured yet")
			os.Exit(3)
		}
		fakeSDKServer()
	default:
		fakeRawServer(mode)
	}
	os.Exit(0)
}

// fakeServer is a server definition running this test binary in mode.
func fakeServer(t *testing.T, mode string) config.MCPServer {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.MCPServer{Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{fakeEnv: mode}}
}

type echoArgs struct {
	Text string `json:"text"`
}

// fakeSDKServer is a well-behaved server (the official SDK) whose tools
// misbehave on request.
func fakeSDKServer() {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
			return text("echo: " + a.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "getenv", Description: "shows environment variables"},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
			var b strings.Builder
			for _, name := range strings.Fields(a.Text) {
				fmt.Fprintf(&b, "%s=%s;", name, os.Getenv(name))
			}
			return text(b.String()), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "never answers"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	mcp.AddTool(s, &mcp.Tool{Name: "die", Description: "exits mid-call"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "dying on purpose")
			os.Exit(2)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "reports an error"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the widget is broken")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "a huge result"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return text(strings.Repeat("x", 2*MaxResult)), nil, nil
		})
	// progress reports three steps, then waits for release, so that the
	// client sees the steps while the call is still running.
	released := make(chan struct{})
	mcp.AddTool(s, &mcp.Tool{Name: "progress", Description: "reports progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			for i := 1; i <= 3; i++ {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: "step"})
			}
			<-released
			return text("done"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "release", Description: "ends progress"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			close(released)
			return text("released"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "grow", Description: "adds a tool"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			mcp.AddTool(s, &mcp.Tool{Name: "late", Description: "added later"},
				func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
					return text("late"), nil, nil
				})
			return text("grown"), nil, nil
		})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// fakeRawServer speaks JSON-RPC by hand to misbehave at the protocol
// level: "silent" never answers; otherwise it answers the handshake and
// tools/list, and tools/call per mode: "garbage" writes a malformed frame,
// "unknown" first sends a request and a notification of methods the
// client does not know, then answers.
func fakeRawServer(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	reply := func(id json.RawMessage, result string) {
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": json.RawMessage(result)})
	}
	for in.Scan() {
		if mode == "silent" {
			continue
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		switch req.Method {
		case "initialize":
			reply(req.ID, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`)
		case "tools/list":
			reply(req.ID, `{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`)
		case "tools/call":
			switch mode {
			case "garbage":
				os.Stdout.WriteString("garbage{\n")
			case "unknown":
				os.Stdout.WriteString(`{"jsonrpc":"2.0","id":"s1","method":"bogus/method","params":{}}` + "\n")
				os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"bogus/note"}` + "\n")
				reply(req.ID, `{"content":[{"type":"text","text":"still here"}]}`)
			}
		default:
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no"}})
		}
	}
}
