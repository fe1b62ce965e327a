package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/nvimtest"
)

// The edit the scripted model asks for in TestNeovimChatE2E: one line of
// cart/fee.go, after non-ASCII text, so positions must be UTF-16.
const (
	nvimChatOld = `return Fee() - 1`
	nvimChatNew = `return Fee() - 2`
)

// TestNeovimChatE2E: headless Neovim sends parley/chat; a scripted model
// (fakellm) calls edit_file, the server applies the edit to Neovim's
// buffer with workspace/applyEdit, the model answers "done". The script
// (testdata/nvim_chat.lua) checks the response, the parley/event stream,
// the buffer, and that one undo restores the original, unmodified buffer.
// Here: the file on disk is untouched and the model saw the tool result.
func TestNeovimChatE2E(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	target := filepath.Join(root, "cart", "fee.go")
	before, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	oldLine := lineContaining(string(before), nvimChatOld)
	if oldLine == "" {
		t.Fatalf("fixture cart/fee.go has no %q:\n%s", nvimChatOld, before)
	}
	newLine := strings.Replace(oldLine, nvimChatOld, nvimChatNew, 1)

	const key = "nvim-test-key"
	input, _ := json.Marshal(map[string]string{"path": "cart/fee.go", "old_string": nvimChatOld, "new_string": nvimChatNew})
	url, llm := fakellm.Start(t, fmt.Sprintf("key %s\ntool edit_file %s\n---\ntext done\n", key, input))
	requests := func() string { return modelRequests(llm.Requests()) }

	data := runNeovim(t, nvimRun{
		script: "testdata/nvim_chat.lua",
		root:   root,
		env: []string{
			"PARLEY_FAKE_API_URL=" + url + "/v1/chat/completions",
			"PARLEY_FAKE_API_KEY=" + key,
			"PARLEY_CHAT_OLD_LINE=" + oldLine,
			"PARLEY_CHAT_NEW_LINE=" + newLine,
		},
		detail: requests,
	})
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\n%s\nserver log:\n%s", fmt.Sprintf(format, args...), requests(), nvimtest.ServerLog(data))
	}

	// The server waits for the didChange of an edited open buffer; a
	// client that never sends it costs every edit a timeout.
	if log := nvimtest.ServerLog(data); strings.Contains(log, "did not report the change") {
		fail("Neovim did not report the applied edit with didChange")
	}

	after, err := os.ReadFile(target)
	if err != nil {
		fail("%v", err)
	}
	if string(after) != string(before) {
		fail("cart/fee.go changed on disk; the edit belongs in the buffer only:\n%s", after)
	}

	reqs := llm.Requests()
	if len(reqs) != 2 {
		fail("the model got %d requests, want 2", len(reqs))
	}
	var second struct {
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
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		fail("model request 2: %v", err)
	}
	callID := ""
	for _, m := range second.Messages {
		for _, c := range m.ToolCalls {
			if m.Role == "assistant" && c.Function.Name == "edit_file" {
				callID = c.ID
			}
		}
	}
	if callID == "" {
		fail("model request 2 does not repeat the edit_file call")
	}
	var result string
	for _, m := range second.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			result = string(m.Content)
		}
	}
	if result == "" {
		fail("model request 2 has no tool result for %s", callID)
	}
	if !strings.Contains(result, "Edited cart/fee.go") || !strings.Contains(result, nvimChatNew) {
		fail("edit_file result is not a success showing the new line: %s", result)
	}
}

// modelRequests summarises the bodies a fake model API received, for
// failure messages: the messages other than the system prompt, each cut
// to 500 bytes (tool definitions are left out).
func modelRequests(reqs [][]byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the model got %d requests\n", len(reqs))
	for i, r := range reqs {
		var body struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(r, &body); err != nil {
			fmt.Fprintf(&b, "request %d: %v: %.500s\n", i+1, err, r)
			continue
		}
		for _, m := range body.Messages {
			if m["role"] == "system" {
				continue
			}
			msg, _ := json.Marshal(m)
			fmt.Fprintf(&b, "request %d: %.500s\n", i+1, msg)
		}
	}
	return b.String()
}

// lineContaining returns the first line of text containing s, or "".
func lineContaining(text, s string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}
