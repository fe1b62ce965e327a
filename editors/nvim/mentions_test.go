// @-mentions in the chat (lua/parley/mentions.lua, input.lua).

package nvim_test

import (
	"strings"
	"testing"
)

// TestMentions: the "parley> " prompt and :ParleyChat complete an
// @-mention; in the chat input buffer "@fee" completes to
// @cart/fee.go from parley/mentionCandidates, the message goes out with
// the mention, and the mentions event is drawn under it
// (tests/mentions.lua). Here: the model got the file's text.
func TestMentions(t *testing.T) {
	r := run(t, nvimRun{script: "mentions.lua", llm: "text Done.\n"})
	reqs := r.llm.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model got %d requests, want 1\n%s", len(reqs), modelRequests(reqs))
	}
	conv := conversation(reqs[0])
	for _, s := range []string{"Explain @cart/fee.go please", "// Discount lowers the fee."} {
		if !strings.Contains(conv, s) {
			t.Errorf("the model request lacks %q:\n%s", s, conv)
		}
	}
}
