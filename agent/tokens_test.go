package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
)

func text(role provider.Role, s string) provider.Message {
	return provider.Message{Role: role, Blocks: []provider.Block{{Kind: provider.BlockText, Text: s}}}
}

func TestTokenCount(t *testing.T) {
	c := newTokenCounter("gpt-4o")
	if n := c.count("hello world"); n != 2 {
		t.Errorf("count(hello world) = %d, want 2 (o200k_base)", n)
	}
	if n := c.count(""); n != 0 {
		t.Errorf("count(\"\") = %d", n)
	}
	// Invalid UTF-8 is counted, not an error.
	if n := c.count("\xff\xfe abc"); n <= 0 {
		t.Errorf("count(invalid UTF-8) = %d", n)
	}
	specs := []provider.ToolSpec{{Name: "read_file", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	msgs := []provider.Message{
		text(provider.RoleUser, "hello world"),
		{Role: provider.RoleAssistant, Blocks: []provider.Block{use("c1", "read_file", `{"path":"a.go"}`)}},
		{Role: provider.RoleUser, Blocks: []provider.Block{{Kind: provider.BlockToolResult, ToolCallID: "c1", Text: "package a"}}},
	}
	want := messageOverhead + c.count("You are parley.") +
		toolOverhead + c.count("read_file") + c.count("Read a file.") + c.count(`{"type":"object"}`) +
		messageOverhead + 2 +
		messageOverhead + blockOverhead + c.count("read_file") + c.count(`{"path":"a.go"}`) +
		messageOverhead + blockOverhead + c.count("package a")
	if got := c.raw("You are parley.", specs, msgs); got != want {
		t.Errorf("raw = %d, want %d", got, want)
	}
}

// Cached counts follow a history that changes: messages appended, text
// joined to the last user message, a result rewritten, messages dropped.
func TestTokenCountFollowsChanges(t *testing.T) {
	c := newTokenCounter("gpt-4o")
	fresh := func(msgs []provider.Message) int { return newTokenCounter("gpt-4o").raw("", nil, msgs) }
	msgs := []provider.Message{text(provider.RoleUser, "first question")}
	check := func(step string) {
		t.Helper()
		if got, want := c.raw("", nil, msgs), fresh(msgs); got != want {
			t.Errorf("%s: cached count %d, fresh count %d", step, got, want)
		}
	}
	check("first")
	msgs = append(msgs, text(provider.RoleAssistant, "an answer"))
	check("appended")
	msgs = append(msgs, text(provider.RoleUser, "second"))
	check("appended again")
	msgs[2].Blocks = append(msgs[2].Blocks, provider.Block{Kind: provider.BlockText, Text: "and a third thing"})
	check("joined")
	msgs[1].Blocks[0].Text = strings.Repeat("long answer ", 50)
	check("rewritten")
	msgs = msgs[:1]
	check("truncated")
}

func TestTokenCalibration(t *testing.T) {
	msgs := []provider.Message{text(provider.RoleUser, strings.Repeat("some words here ", 100))}
	for _, tt := range []struct {
		name     string
		reported provider.Usage
		ratio    float64 // expected scale of the estimate over the raw count
	}{
		{"no usage", provider.Usage{}, 1},
		{"reported larger", provider.Usage{InputTokens: 1200}, 1.2},
		{"cache counts", provider.Usage{InputTokens: 200, CacheReadTokens: 700, CacheWriteTokens: 100}, 1},
		{"implausibly small", provider.Usage{InputTokens: 10}, minRatio},
		{"implausibly large", provider.Usage{InputTokens: 1_000_000}, maxRatio},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newTokenCounter("claude-sonnet-4-5")
			raw := c.raw("", nil, msgs)
			// Report as if the prompt had exactly 1000 tokens' worth of raw count.
			c.observe(1000, tt.reported)
			if got, want := c.estimate("", nil, msgs), int(float64(raw)*tt.ratio+0.5); got != want {
				t.Errorf("estimate = %d, want %d (raw %d)", got, want, raw)
			}
		})
	}
}
