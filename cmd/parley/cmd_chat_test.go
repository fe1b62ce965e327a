package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/provider"
)

func TestSummarize(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"content":"a\nb","path":"x.go"}`, "path=x.go content=a⏎b"},
		{`{"limit":5,"pattern":"func"}`, "pattern=func limit=5"},
		{`{"command":"` + strings.Repeat("x", 100) + `"}`, "command=" + strings.Repeat("x", 59) + "…"},
		{`not json`, "not json"},
	}
	for _, tt := range tests {
		if got := summarize(json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("summarize(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFileHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws", "chat_history")
	h := loadHistory(path)
	for _, l := range []string{"first", "second", "second", "", "multi\nline", "third"} {
		h.Add(l)
	}
	if h.Len() != 3 || h.At(0) != "third" || h.At(2) != "first" {
		t.Fatalf("history %v", h.entries)
	}
	// A new process sees the same history.
	h2 := loadHistory(path)
	if h2.Len() != 3 || h2.At(0) != "third" {
		t.Errorf("reloaded history %v", h2.entries)
	}
	// An oversized file is trimmed to the newest entries.
	var b strings.Builder
	for i := range maxHistory + 10 {
		b.WriteString(strings.Repeat("l", i%7+1) + "\n")
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	if h3 := loadHistory(path); h3.Len() != maxHistory {
		t.Errorf("trimmed history has %d entries", h3.Len())
	}
}

func TestCtrlCClearsTheLine(t *testing.T) {
	r := &ctrlCReader{r: strings.NewReader("ab\x03cd")}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "ab\x05\x15cd" {
		t.Errorf("read %q, %v", got, err)
	}
}

func TestPrinterKeepsStreamsApart(t *testing.T) {
	var out, errb bytes.Buffer
	p := newChatPrinter(&out, &errb)
	p.root = "/w"
	for _, e := range []agent.Event{
		{Kind: agent.EventText, Text: "Let me look"},
		{Kind: agent.EventToolCall, ToolName: "read_file", Input: json.RawMessage(`{"path":"a.go"}`)},
		{Kind: agent.EventToolResult, Result: &agent.ToolOutcome{Content: "no such file\nmore", IsError: true}},
		{Kind: agent.EventEdit, Changes: []agent.Change{{Op: "rename", Path: "/w/a.go", NewPath: "/elsewhere/b.go"}}},
		{Kind: agent.EventText, Text: "Done"},
		{Kind: agent.EventDone},
	} {
		p.sink(e)
	}
	if want := "Let me look\nDone\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if want := "▸ read_file path=a.go\n  ✗ no such file\n  ✎ rename a.go → /elsewhere/b.go\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// TestPrinterMCPEvents: an MCP server's trouble and recovery are a line
// each on stderr, even in the middle of streamed text.
func TestPrinterMCPEvents(t *testing.T) {
	var out, errb bytes.Buffer
	p := newChatPrinter(&out, &errb)
	for _, e := range []agent.Event{
		{Kind: agent.EventText, Text: "Let me"},
		{Kind: agent.EventMCP, Text: "MCP server gh stopped: EOF", MCP: &agent.MCPReport{Server: "gh", State: "crashed"}},
		{Kind: agent.EventMCP, Text: "MCP server gh restarting", MCP: &agent.MCPReport{Server: "gh", State: "restarting"}},
		{Kind: agent.EventMCP, Text: "MCP server gh restarted", MCP: &agent.MCPReport{Server: "gh", State: "restarted"}},
	} {
		p.sink(e)
	}
	if out.String() != "Let me\n" {
		t.Errorf("stdout %q", out.String())
	}
	if want := "  ✗ MCP server gh stopped: EOF\n  ↻ MCP server gh restarting\n  ↻ MCP server gh restarted\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

func TestUsageLine(t *testing.T) {
	tests := []struct {
		name                string
		turn, session, last provider.Usage
		window              int
		want                string
	}{
		{"no window", provider.Usage{InputTokens: 10, OutputTokens: 2}, provider.Usage{InputTokens: 30, OutputTokens: 6}, provider.Usage{InputTokens: 10, OutputTokens: 2}, 0,
			"(tokens: turn 10 in, 2 out · session 30 in, 6 out)"},
		{"cached input counts", provider.Usage{InputTokens: 5, CacheReadTokens: 1000, CacheWriteTokens: 200, OutputTokens: 40}, provider.Usage{InputTokens: 5, CacheReadTokens: 1000, CacheWriteTokens: 200, OutputTokens: 40},
			provider.Usage{InputTokens: 5, CacheReadTokens: 1000, CacheWriteTokens: 200, OutputTokens: 40}, 200_000,
			"(tokens: turn 1205 in, 40 out · session 1205 in, 40 out · context 1245 of 200000, 0%)"},
		{"context from the last call only", provider.Usage{InputTokens: 3000, OutputTokens: 100}, provider.Usage{InputTokens: 3000, OutputTokens: 100}, provider.Usage{InputTokens: 2000, OutputTokens: 50}, 8192,
			"(tokens: turn 3000 in, 100 out · session 3000 in, 100 out · context 2050 of 8192, 25%)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := usageLine(tt.turn, tt.session, tt.last, tt.window); got != tt.want {
				t.Errorf("usageLine = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestChatMessage(t *testing.T) {
	dir := t.TempDir()
	file := func(content string) *os.File {
		f, err := os.CreateTemp(dir, "stdin")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(content)
		f.Seek(0, 0)
		t.Cleanup(func() { f.Close() })
		return f
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	tests := []struct {
		name    string
		args    []string
		stdin   *os.File
		want    string
		wantErr string
	}{
		{"arguments", []string{"fix", "it"}, devNull, "fix it", ""},
		{"blank argument", []string{"  "}, devNull, "", "the message is empty"},
		{"from a file on stdin", nil, file("  explain main.go\n"), "explain main.go", ""},
		{"empty stdin", nil, file("\n"), "", "no message"},
		// /dev/null is a character device but not a terminal: no REPL.
		{"/dev/null is not a terminal", nil, devNull, "", "no message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chatMessage(tt.args, tt.stdin)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("chatMessage = %q, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("chatMessage = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
