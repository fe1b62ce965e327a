package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// stream is a response's SSE events, each complete with its trailing
// blank line.
type stream struct {
	events [][]byte
	// firstText is the index of the first text delta event, or -1.
	firstText int
}

func (st *stream) add(event string, v any) {
	var b bytes.Buffer
	data, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(&b, "event: %s\n", event)
	}
	fmt.Fprintf(&b, "data: %s\n\n", data)
	st.events = append(st.events, b.Bytes())
}

func (st *stream) markText() {
	if st.firstText < 0 {
		st.firstText = len(st.events) - 1
	}
}

// waitPrefix is the part of the stream a wait response sends: up to and
// including the first text delta, or just the opening event.
func (st *stream) waitPrefix() [][]byte {
	if st.firstText >= 0 {
		return st.events[:st.firstText+1]
	}
	return st.events[:1]
}

// openaiSSE writes a chat.completion.chunk stream: text in two deltas,
// each tool call as a header chunk plus an arguments chunk, then the
// finish reason, the usage chunk and [DONE].
func openaiSSE(n int, blocks []block, promptTokens int) *stream {
	st := &stream{firstText: -1}
	chunk := func(delta map[string]any, finish any) {
		st.add("", map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": 1727000000,
			"model": "fake-model", "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	calls, finish := 0, "stop"
	for _, bl := range blocks {
		if bl.kind == "text" {
			half := len(bl.text) / 2
			chunk(map[string]any{"content": bl.text[:half]}, nil)
			st.markText()
			chunk(map[string]any{"content": bl.text[half:]}, nil)
			continue
		}
		id := fmt.Sprintf("call_%d_%d", n, calls)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": calls, "id": id, "type": "function",
			"function": map[string]any{"name": bl.name, "arguments": ""}}}}, nil)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": calls, "function": map[string]any{"arguments": bl.input}}}}, nil)
		calls++
		finish = "tool_calls"
	}
	chunk(map[string]any{}, finish)
	st.add("", map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": 1727000000,
		"model": "fake-model", "choices": []any{}, "usage": map[string]any{"prompt_tokens": promptTokens, "completion_tokens": 20, "total_tokens": promptTokens + 20}})
	st.events = append(st.events, []byte("data: [DONE]\n\n"))
	return st
}

// anthropicSSE writes a Messages stream with one content block per
// scripted block.
func anthropicSSE(n int, blocks []block, promptTokens int) *stream {
	st := &stream{firstText: -1}
	st.add("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "content": []any{}, "model": "fake-model",
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": promptTokens, "output_tokens": 1}}})
	stop := "end_turn"
	for i, bl := range blocks {
		if bl.kind == "text" {
			st.add("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			st.add("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": bl.text}})
			st.markText()
		} else {
			st.add("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{
				"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", n, i), "name": bl.name, "input": map[string]any{}}})
			st.add("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": bl.input}})
			stop = "tool_use"
		}
		st.add("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	st.add("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 20}})
	st.add("message_stop", map[string]any{"type": "message_stop"})
	return st
}
