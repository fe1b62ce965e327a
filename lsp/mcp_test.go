package lsp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestChatMCPTools: the editor's agent gets the tools of the configured
// MCP servers (here a streamable HTTP server in the test), through the
// permission policy: a rule naming the server's tools allows them.
func TestChatMCPTools(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	type args struct {
		City string `json:"city"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "forecast", Description: "the forecast of a city"},
		func(_ context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny in " + a.City}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close) // after the editor's cleanup, which stops the client

	m := newScriptModel()
	e := chatEditor(t, m, fmt.Sprintf(`{"permission_mode": "default", "permissions": {"allow": ["mcp_weather_*"]},
		"mcpServers": {"weather": {"url": %q}}}`, hs.URL), true)
	m.script("weather?", calls("mcp_weather_forecast", `{"city": "Oslo"}`), reply("Sunny."))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "weather?"}))
	if res.Text != "Sunny." {
		t.Fatalf("result %+v", res)
	}
	if r := toolResults(e.events(res.Session))["mcp_weather_forecast"]; len(r) != 1 || !strings.Contains(r[0], "sunny in Oslo") {
		t.Errorf("mcp_weather_forecast results %q", r)
	}
	if len(e.agent.asked) != 0 {
		t.Errorf("asked %q although a rule allows the server's tools", e.agent.asked)
	}
}

// TestChatMCPFailureEvent: an MCP server that cannot start is shown to
// the editor as a parley/event of kind mcp, without a session (servers
// belong to the workspace), and the turn goes on.
func TestChatMCPFailureEvent(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"mcpServers": {"down": {"url": "http://127.0.0.1:1/mcp"}}}`, true)
	m.script("hi", reply("hello"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "hi"}))
	if res.Text != "hello" {
		t.Fatalf("result %+v", res)
	}
	var got []ChatEvent
	for _, ev := range e.events("") {
		if ev.Kind == "mcp" {
			got = append(got, ev)
		}
	}
	if len(got) != 1 || got[0].Session != "" || got[0].MCP == nil || got[0].MCP.Server != "down" ||
		got[0].MCP.State != "failed" || got[0].MCP.RetrySeconds != 15 || got[0].MCP.Error == "" ||
		!strings.Contains(got[0].Text, "MCP server down failed to start") {
		t.Errorf("mcp events %+v", got)
	}
}

// TestMCPStartDoesNotBlockAgent: while an MCP server has not answered
// initialize, the agent's other requests (parley/sessions) are served;
// the turn that started it goes on once the server answers (here: fails).
func TestMCPStartDoesNotBlockAgent(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case started <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		http.Error(w, "not today", http.StatusServiceUnavailable)
	}))
	t.Cleanup(hs.Close)
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)

	m := newScriptModel()
	e := chatEditor(t, m, fmt.Sprintf(`{"mcpServers": {"slow": {"url": %q}}}`, hs.URL), true)
	m.script("hi", reply("hello"))
	chat := e.chatCall(context.Background(), ChatParams{Message: "hi"})
	select {
	case <-started:
	case <-time.After(waitTimeout):
		t.Fatal("the MCP server was not started")
	}
	listed := make(chan error, 1)
	go func() {
		var list struct {
			Sessions []SessionSummary `json:"sessions"`
		}
		listed <- e.call(methodSessions, nil, &list)
	}()
	select {
	case err := <-listed:
		if err != nil {
			t.Errorf("parley/sessions: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Error("parley/sessions waited for the MCP server's start")
	}
	free()
	if res := awaitChat(t, chat); res.Text != "hello" {
		t.Errorf("result %+v", res)
	}
}
