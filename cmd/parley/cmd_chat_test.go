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
