package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// defaultAnthropicMaxTokens is sent when neither the request nor the config
// caps the response; the Messages API requires max_tokens.
const defaultAnthropicMaxTokens = 8192

// anthropicProvider streams from the Messages API through the official SDK.
type anthropicProvider struct {
	w      wire
	client anthropic.Client
}

func newAnthropic(w wire) *anthropicProvider {
	opts := []option.RequestOption{
		// Our Config is the only source of credentials and base URL; the
		// SDK must not read ANTHROPIC_* variables or profile files.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(w.base),
		option.WithHTTPClient(w.client),
		option.WithMaxRetries(0),
		option.WithAPIKey(w.key),
	}
	for _, m := range w.mws {
		opts = append(opts, option.WithMiddleware(m))
	}
	return &anthropicProvider{w: w, client: anthropic.NewClient(opts...)}
}

func (p *anthropicProvider) Name() string { return NameAnthropic }

func (p *anthropicProvider) Stream(ctx context.Context, req *Request, onDelta func(Delta)) (*Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	attempt := func(ctx context.Context, rec *recorder, emit func(Delta)) (*Response, error) {
		stream := p.client.Messages.NewStreaming(ctx, params, option.WithMiddleware(rec.middleware))
		defer stream.Close()
		acc := anthropicAcc{emit: emit, byIndex: map[int64]*anthropicBlock{}}
		for stream.Next() {
			acc.add(stream.Current())
		}
		if err := stream.Err(); err != nil {
			return nil, err
		}
		return acc.finish()
	}
	classifyFn := func(err error, rec *recorder) failure {
		return classify(NameAnthropic, p.w.key, p.w.retry.now(), err, rec, anthropicStreamError)
	}
	return p.w.retry.run(ctx, NameAnthropic, attempt, classifyFn, onDelta)
}

// anthropicStreamError recognises an `event: error` inside a 200 stream,
// which the SDK reports as an *anthropic.Error carrying the 200 status.
func anthropicStreamError(err error) (*APIError, bool) {
	var ae *anthropic.Error
	if !errors.As(err, &ae) || ae.StatusCode >= 400 {
		return nil, false
	}
	return streamAPIError(NameAnthropic, []byte(ae.RawJSON())), true
}

// params converts a Request to the SDK's parameters. Cache breakpoints go
// on the last tool, the system prompt and the last message block, so the
// tools+system prefix and the conversation so far are both reused.
func (p *anthropicProvider) params(req *Request) (anthropic.MessageNewParams, error) {
	model, err := p.w.modelFor(req)
	if err != nil {
		return anthropic.MessageNewParams{}, err
	}
	maxTokens := p.w.maxTokensFor(req)
	if maxTokens == 0 {
		maxTokens = defaultAnthropicMaxTokens
	}
	params := anthropic.MessageNewParams{Model: anthropic.Model(model)}
	if req.ThinkingBudget > 0 {
		params.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(req.ThinkingBudget))
		// The API requires max_tokens > budget_tokens.
		if maxTokens <= req.ThinkingBudget {
			maxTokens = req.ThinkingBudget + defaultAnthropicMaxTokens
		}
	}
	params.MaxTokens = int64(maxTokens)
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{
			Text:         req.System,
			CacheControl: anthropic.NewCacheControlEphemeralParam(),
		}}
	}
	for i, t := range req.Tools {
		tool, err := anthropicTool(t)
		if err != nil {
			return params, err
		}
		if i == len(req.Tools)-1 {
			tool.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tool})
	}
	params.Messages = anthropicMessages(req.Messages)
	markLastBlockCached(params.Messages)
	return params, nil
}

func anthropicTool(t ToolSpec) (anthropic.ToolParam, error) {
	tool := anthropic.ToolParam{Name: t.Name}
	if t.Description != "" {
		tool.Description = anthropic.String(t.Description)
	}
	if len(t.InputSchema) == 0 {
		return tool, nil
	}
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		return tool, fmt.Errorf("anthropic: tool %s: input schema is not a JSON object: %w", t.Name, err)
	}
	tool.InputSchema.Properties = schema["properties"]
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				tool.InputSchema.Required = append(tool.InputSchema.Required, s)
			}
		}
	}
	delete(schema, "type")
	delete(schema, "properties")
	delete(schema, "required")
	if len(schema) > 0 {
		tool.InputSchema.ExtraFields = schema
	}
	return tool, nil
}

// anthropicMessages converts history. Blocks the API would reject are left
// out: empty text, thinking without a signature (from another provider),
// tool results in assistant turns, tool calls in user turns.
func anthropicMessages(msgs []Message) []anthropic.MessageParam {
	out := make([]anthropic.MessageParam, 0, len(msgs))
	for _, m := range msgs {
		var blocks []anthropic.ContentBlockParamUnion
		for _, b := range m.Blocks {
			if blk, ok := anthropicBlockParam(m.Role, b); ok {
				blocks = append(blocks, blk)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if m.Role == RoleAssistant {
			out = append(out, anthropic.NewAssistantMessage(blocks...))
		} else {
			out = append(out, anthropic.NewUserMessage(blocks...))
		}
	}
	return out
}

func anthropicBlockParam(role Role, b Block) (anthropic.ContentBlockParamUnion, bool) {
	assistant := role == RoleAssistant
	switch b.Kind {
	case BlockText:
		if b.Text == "" {
			return anthropic.ContentBlockParamUnion{}, false
		}
		return anthropic.NewTextBlock(b.Text), true
	case BlockThinking:
		switch {
		case !assistant:
			return anthropic.ContentBlockParamUnion{}, false
		case b.Redacted != "":
			return anthropic.NewRedactedThinkingBlock(b.Redacted), true
		case b.Signature != "":
			return anthropic.NewThinkingBlock(b.Signature, b.Text), true
		}
	case BlockToolUse:
		if assistant {
			return anthropic.NewToolUseBlock(b.ToolCallID, anthropicInput(b.Input), b.ToolName), true
		}
	case BlockImage:
		if !assistant && b.Data != "" {
			return anthropic.NewImageBlockBase64(b.MediaType, b.Data), true
		}
	case BlockToolResult:
		if !assistant {
			res := anthropic.ToolResultBlockParam{ToolUseID: b.ToolCallID}
			if b.IsError {
				res.IsError = anthropic.Bool(true)
			}
			// Empty text blocks are rejected; an empty result has no content.
			if b.Text != "" {
				res.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: b.Text}}}
			}
			return anthropic.ContentBlockParamUnion{OfToolResult: &res}, true
		}
	}
	return anthropic.ContentBlockParamUnion{}, false
}

// anthropicInput replays tool input verbatim when it is a JSON object. The
// API requires an object; anything else (a malformed call recorded from an
// OpenAI-compatible model) is sent as {}.
func anthropicInput(in json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if len(in) == 0 || json.Unmarshal(in, &obj) != nil || obj == nil {
		return json.RawMessage("{}")
	}
	return in
}

// markLastBlockCached puts a cache breakpoint on the last block that can
// carry one (thinking blocks cannot).
func markLastBlockCached(msgs []anthropic.MessageParam) {
	if len(msgs) == 0 {
		return
	}
	blocks := msgs[len(msgs)-1].Content
	for i := len(blocks) - 1; i >= 0; i-- {
		if cc := blocks[i].GetCacheControl(); cc != nil {
			*cc = anthropic.NewCacheControlEphemeralParam()
			return
		}
	}
}
