package agent

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/provider"
)

// maskedPrefix starts every stub, so a masked result is never masked
// again.
const maskedPrefix = "[result removed to save context: "

// maskResults replaces, in place, each tool result in msgs of at least
// maskMinTokens by a stub that names the tool and says what it returned;
// the call and the error flag stay. It returns how many it replaced.
func maskResults(msgs []provider.Message, count func(string) int) int {
	names := map[string]string{} // call id -> tool name
	masked := 0
	for i := range msgs {
		for j := range msgs[i].Blocks {
			b := &msgs[i].Blocks[j]
			switch b.Kind {
			case provider.BlockToolUse:
				names[b.ToolCallID] = b.ToolName
			case provider.BlockToolResult:
				if strings.HasPrefix(b.Text, maskedPrefix) {
					continue
				}
				n := count(b.Text)
				if n < maskMinTokens {
					continue
				}
				b.Text = maskStub(names[b.ToolCallID], b.Text, n, b.IsError)
				masked++
			}
		}
	}
	return masked
}

// maskStub is the one line that replaces a result: "[result removed to
// save context: read_file returned 182 lines (4213 tokens) starting
// "package main"; call it again if you need it]".
func maskStub(tool, text string, tokens int, isError bool) string {
	if tool == "" {
		tool = "the tool"
	}
	what := "returned"
	if isError {
		what = "failed with"
	}
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if len(first) > 60 {
		first = strings.ToValidUTF8(first[:60], "") + "…"
	}
	return fmt.Sprintf("%s%s %s %d lines (%d tokens) starting %q; call it again if you need it]",
		maskedPrefix, tool, what, lines, tokens, first)
}
