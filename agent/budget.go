package agent

import "github.com/parleyhq/parley/agent/provider"

// The response budget. A request's max_tokens is sized from what is left
// of the context window after its prompt, so a full conversation gets a
// shorter answer instead of an overflow error:
//
//   - MaxTokens > 0 caps the answer at that, or at what is left if less;
//   - MaxTokens 0 leaves the provider's default (8192 for Anthropic, the
//     model's for OpenAI) while that fits, else asks for what is left;
//   - MaxTokens -1 asks for all that is left.
//
// Every budget is limited by the model's own output cap
// (provider.MaxOutputTokens) and is at least minResponse (never more than
// asked for), even when less is left: the call then fails as an overflow
// and compaction follows.
const (
	// minResponse is the floor, or an eighth of a smaller window.
	minResponse = 1024
	// providerDefaultTokens is what the provider asks for when max_tokens
	// is 0 (the Anthropic provider's default).
	providerDefaultTokens = 8192
	// minThinking is Anthropic's smallest thinking budget.
	minThinking = 1024
)

// responseBudget returns max_tokens (0: the provider's default) and the
// thinking budget for a call whose prompt is about prompt tokens.
func (a *Agent) responseBudget(prompt int) (maxTokens, thinking int) {
	window := a.contextWindow()
	// The prompt is an estimate: leave a twentieth of the window for its
	// error.
	left := window - prompt - window/20
	thinking = a.ThinkingBudget
	want := a.MaxTokens
	switch {
	case want < 0:
		want = left
	case want == 0:
		want = providerDefaultTokens + thinking
		if thinking == 0 && want <= left {
			return 0, 0
		}
	}
	n := min(want, left)
	if c := provider.MaxOutputTokens(a.Model); c > 0 {
		n = min(n, c)
	}
	floor := min(minResponse, window/8)
	if a.MaxTokens > 0 {
		floor = min(floor, a.MaxTokens)
	}
	n = max(n, floor)
	if thinking > 0 && thinking >= n {
		// The API wants max_tokens above the thinking budget: think less.
		thinking = max(n/2, minThinking)
		n = max(n, thinking+minResponse)
	}
	return n, thinking
}
