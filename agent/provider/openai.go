package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// openaiProvider streams from Chat Completions through the official SDK,
// for OpenAI itself and for compatible servers (Ollama, LM Studio,
// llama.cpp, DeepSeek, Qwen, OpenRouter).
type openaiProvider struct {
	w   wire
	svc openai.ChatCompletionService
}

func newOpenAI(w wire) *openaiProvider {
	opts := []option.RequestOption{
		option.WithBaseURL(w.base),
		option.WithHTTPClient(w.client),
		option.WithMaxRetries(0),
	}
	if w.key != "" {
		opts = append(opts, option.WithAPIKey(w.key))
	}
	for _, m := range w.mws {
		opts = append(opts, option.WithMiddleware(m))
	}
	// The service is built directly rather than through openai.NewClient,
	// which reads OPENAI_* variables: a keyless local server must not be
	// sent the user's OpenAI key from the environment.
	return &openaiProvider{w: w, svc: openai.NewChatCompletionService(opts...)}
}

func (p *openaiProvider) Name() string { return p.w.name }

func (p *openaiProvider) Stream(ctx context.Context, req *Request, onDelta func(Delta)) (*Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	attempt := func(ctx context.Context, rec *recorder, emit func(Delta)) (*Response, error) {
		stream := p.svc.NewStreaming(ctx, params, option.WithMiddleware(rec.middleware))
		defer stream.Close()
		acc := openaiAcc{emit: emit, byIndex: map[int64]*openaiCall{}}
		for stream.Next() {
			acc.add(stream.Current())
		}
		if err := stream.Err(); err != nil {
			return nil, err
		}
		return acc.finishResponse()
	}
	classifyFn := func(err error, rec *recorder) failure {
		return classify(p.w.name, p.w.key, p.w.retry.now(), err, rec, p.streamError)
	}
	return p.w.retry.run(ctx, p.w.name, attempt, classifyFn, onDelta)
}

// streamError recognises a chunk carrying an "error" object, which the SDK
// reports as *ssestream.StreamError.
func (p *openaiProvider) streamError(err error) (*APIError, bool) {
	var se *ssestream.StreamError
	if !errors.As(err, &se) {
		return nil, false
	}
	return streamAPIError(p.w.name, se.Event.Data), true
}

func (p *openaiProvider) params(req *Request) (openai.ChatCompletionNewParams, error) {
	model, err := p.w.modelFor(req)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	params := openai.ChatCompletionNewParams{
		Model:    model,
		Messages: openaiMessages(req.System, req.Messages),
		// Without this the stream carries no token counts at all.
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if n := p.w.maxTokensFor(req); n > 0 {
		// OpenAI's reasoning models reject max_tokens; compatible servers
		// mostly know only max_tokens.
		if p.w.name == NameOpenAI {
			params.MaxCompletionTokens = openai.Int(int64(n))
		} else {
			params.MaxTokens = openai.Int(int64(n))
		}
	}
	if req.ThinkingBudget > 0 && p.w.name == NameOpenAI && reasoningModel(model) {
		params.ReasoningEffort = reasoningEffort(req.ThinkingBudget)
	}
	for _, t := range req.Tools {
		fn := openai.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &fn.Parameters); err != nil {
				return params, fmt.Errorf("%s: tool %s: input schema is not a JSON object: %w", p.w.name, t.Name, err)
			}
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	return params, nil
}

// reasoningModel reports OpenAI models that take reasoning_effort.
func reasoningModel(model string) bool {
	m := strings.ToLower(model)
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// reasoningEffort maps a thinking budget to OpenAI's coarse effort levels.
func reasoningEffort(budget int) openai.ReasoningEffort {
	switch {
	case budget <= 4096:
		return openai.ReasoningEffortLow
	case budget <= 16384:
		return openai.ReasoningEffortMedium
	default:
		return openai.ReasoningEffortHigh
	}
}

// openaiMessages converts history. Tool results become "tool" messages
// placed right after the assistant turn that called them (before any user
// text of the same turn); thinking blocks are dropped.
func openaiMessages(system string, msgs []Message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, openai.SystemMessage(system))
	}
	for _, m := range msgs {
		if m.Role == RoleAssistant {
			if a, ok := openaiAssistant(m); ok {
				out = append(out, a)
			}
			continue
		}
		var text []string
		var images []Block
		for _, b := range m.Blocks {
			switch b.Kind {
			case BlockToolResult:
				content := b.Text
				if b.IsError {
					// The wire format has no error flag; say it in words.
					content = "Error: " + content
				}
				out = append(out, openai.ToolMessage(content, b.ToolCallID))
			case BlockText:
				if b.Text != "" {
					text = append(text, b.Text)
				}
			case BlockImage:
				if b.Data != "" {
					images = append(images, b)
				}
			}
		}
		if u, ok := openaiUser(text, images); ok {
			out = append(out, u)
		}
	}
	return out
}

// openaiUser is a user message: plain text content as before images
// existed, or, with images, a content array of the text and then one
// image_url part (a data: URL) per image.
func openaiUser(text []string, images []Block) (openai.ChatCompletionMessageParamUnion, bool) {
	joined := strings.Join(text, "\n\n")
	if len(images) == 0 {
		return openai.UserMessage(joined), joined != ""
	}
	var parts []openai.ChatCompletionContentPartUnionParam
	if joined != "" {
		parts = append(parts, openai.TextContentPart(joined))
	}
	for _, b := range images {
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: dataURL(b)}))
	}
	return openai.UserMessage(parts), true
}

func openaiAssistant(m Message) (openai.ChatCompletionMessageParamUnion, bool) {
	var a openai.ChatCompletionAssistantMessageParam
	var text []string
	for _, b := range m.Blocks {
		switch b.Kind {
		case BlockText:
			if b.Text != "" {
				text = append(text, b.Text)
			}
		case BlockToolUse:
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: b.ToolCallID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name:      b.ToolName,
						Arguments: toolArguments(b.Input),
					},
				},
			})
		}
	}
	if len(text) == 0 && len(a.ToolCalls) == 0 {
		return openai.ChatCompletionMessageParamUnion{}, false
	}
	if len(text) > 0 {
		a.Content.OfString = openai.String(strings.Join(text, "\n\n"))
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, true
}
