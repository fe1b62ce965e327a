package provider

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/openai/openai-go/v3"
)

// openaiCall collects one tool call while it streams.
type openaiCall struct {
	id, name  string
	args      strings.Builder
	announced bool
	pending   []string // argument fragments that arrived before the name
}

// openaiAcc assembles Chat Completions chunks into a Response. It copes
// with what compatible servers do differently: ids only on the first
// fragment or on none, whole arguments in one chunk, several calls reusing
// index 0, reasoning text in reasoning_content/reasoning, no usage chunk.
type openaiAcc struct {
	emit     func(Delta)
	model    string
	thinking strings.Builder
	text     strings.Builder
	calls    []*openaiCall
	byIndex  map[int64]*openaiCall
	finish   string
	finished bool
	usage    Usage
}

func (a *openaiAcc) add(c openai.ChatCompletionChunk) {
	if c.Model != "" {
		a.model = c.Model
	}
	if c.JSON.Usage.Valid() {
		a.setUsage(c.Usage)
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // n is always 1; other choices are not ours
		}
		a.delta(ch.Delta)
		if ch.FinishReason != "" {
			a.finish, a.finished = ch.FinishReason, true
		}
	}
}

// setUsage converts to Anthropic's convention: InputTokens excludes cached
// and cache-write tokens, which prompt_tokens includes.
func (a *openaiAcc) setUsage(u openai.CompletionUsage) {
	cached := int(u.PromptTokensDetails.CachedTokens)
	written := int(u.PromptTokensDetails.CacheWriteTokens)
	a.usage = Usage{
		InputTokens:      max(int(u.PromptTokens)-cached-written, 0),
		OutputTokens:     int(u.CompletionTokens),
		CacheReadTokens:  cached,
		CacheWriteTokens: written,
	}
}

func (a *openaiAcc) delta(d openai.ChatCompletionChunkChoiceDelta) {
	if r := reasoningText(d); r != "" {
		a.thinking.WriteString(r)
		a.emit(Delta{Kind: DeltaThinking, Text: r})
	}
	if d.Content != "" {
		a.text.WriteString(d.Content)
		a.emit(Delta{Kind: DeltaText, Text: d.Content})
	}
	for _, tc := range d.ToolCalls {
		a.toolCall(tc)
	}
}

// reasoningText reads the reasoning fields DeepSeek (reasoning_content) and
// Ollama/OpenRouter (reasoning) add to the delta.
func reasoningText(d openai.ChatCompletionChunkChoiceDelta) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		// The SDK marks undeclared fields "invalid" but keeps their raw JSON.
		var s string
		if json.Unmarshal([]byte(d.JSON.ExtraFields[k].Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func (a *openaiAcc) toolCall(tc openai.ChatCompletionChunkChoiceDeltaToolCall) {
	c := a.byIndex[tc.Index]
	if c != nil && a.startsNewCall(c, tc) {
		c = nil
	}
	if c == nil {
		c = &openaiCall{}
		a.byIndex[tc.Index] = c
		a.calls = append(a.calls, c)
	}
	if c.id == "" {
		c.id = tc.ID
	}
	if c.name == "" {
		c.name = tc.Function.Name
	}
	if frag := tc.Function.Arguments; frag != "" {
		c.args.WriteString(frag)
		c.pending = append(c.pending, frag)
	}
	if c.name == "" {
		return // announce once the name is known
	}
	if !c.announced {
		if c.id == "" {
			c.id = newCallID()
		}
		c.announced = true
		a.emit(Delta{Kind: DeltaToolCall, ToolCallID: c.id, ToolName: c.name})
	}
	for _, frag := range c.pending {
		a.emit(Delta{Kind: DeltaToolCall, Text: frag, ToolCallID: c.id, ToolName: c.name})
	}
	c.pending = c.pending[:0]
}

// startsNewCall detects a fragment that reuses an index for another call:
// a different id, or (without ids) a name arriving after the previous
// call's arguments already form complete JSON.
func (a *openaiAcc) startsNewCall(c *openaiCall, tc openai.ChatCompletionChunkChoiceDeltaToolCall) bool {
	if tc.ID != "" && c.id != "" {
		return tc.ID != c.id
	}
	return tc.ID == "" && tc.Function.Name != "" && tc.Function.Arguments != "" &&
		c.name != "" && json.Valid([]byte(c.args.String()))
}

// newCallID names a call the server left unnamed, so its result can be
// linked back to it.
func newCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}

func (a *openaiAcc) finishResponse() (*Response, error) {
	if !a.finished {
		return nil, errTruncated
	}
	msg := Message{Role: RoleAssistant}
	if a.thinking.Len() > 0 {
		msg.Blocks = append(msg.Blocks, Block{Kind: BlockThinking, Text: a.thinking.String()})
	}
	if a.text.Len() > 0 {
		msg.Blocks = append(msg.Blocks, Block{Kind: BlockText, Text: a.text.String()})
	}
	for _, c := range a.calls {
		if c.id == "" {
			c.id = newCallID()
		}
		msg.Blocks = append(msg.Blocks, Block{
			Kind: BlockToolUse, ToolCallID: c.id, ToolName: c.name,
			Input: toolInput(c.args.String()),
		})
	}
	return &Response{
		Message:    msg,
		StopReason: openaiStopReason(a.finish, len(a.calls) > 0),
		Usage:      a.usage,
		Model:      a.model,
	}, nil
}

// openaiStopReason maps finish_reason; some servers say "stop" even when
// the turn ends in tool calls.
func openaiStopReason(reason string, hasCalls bool) StopReason {
	switch reason {
	case "tool_calls", "function_call":
		return StopToolUse
	case "stop":
		if hasCalls {
			return StopToolUse
		}
		return StopEndTurn
	case "length":
		return StopMaxTokens
	default:
		return StopOther
	}
}
