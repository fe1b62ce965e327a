package provider

import (
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
)

// anthropicBlock collects one content block while it streams.
type anthropicBlock struct {
	kind       BlockKind
	text       strings.Builder // text, thinking, or tool input JSON
	signature  string
	redacted   string
	id, name   string
	startInput string // tool input given whole in content_block_start
}

// anthropicAcc assembles a Messages API event stream into a Response and
// forwards deltas as they arrive.
type anthropicAcc struct {
	emit    func(Delta)
	byIndex map[int64]*anthropicBlock
	order   []*anthropicBlock
	usage   Usage
	model   string
	stop    StopReason
	stopped bool // message_stop seen
}

func (a *anthropicAcc) add(ev anthropic.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		a.model = ev.Message.Model
		u := ev.Message.Usage
		a.usage = Usage{
			InputTokens:      int(u.InputTokens),
			OutputTokens:     int(u.OutputTokens),
			CacheReadTokens:  int(u.CacheReadInputTokens),
			CacheWriteTokens: int(u.CacheCreationInputTokens),
		}
	case "content_block_start":
		a.start(ev.Index, ev.ContentBlock)
	case "content_block_delta":
		a.delta(ev.Index, ev.Delta)
	case "message_delta":
		a.stop = anthropicStopReason(ev.Delta.StopReason)
		a.messageUsage(ev.Usage)
	case "message_stop":
		a.stopped = true
	}
}

func (a *anthropicAcc) start(index int64, cb anthropic.ContentBlockStartEventContentBlockUnion) {
	b := &anthropicBlock{}
	switch cb.Type {
	case "text":
		b.kind = BlockText
		a.appendText(b, cb.Text, DeltaText)
	case "thinking":
		b.kind = BlockThinking
		b.signature = cb.Signature
		a.appendText(b, cb.Thinking, DeltaThinking)
	case "redacted_thinking":
		b.kind, b.redacted = BlockThinking, cb.Data
	case "tool_use":
		b.kind, b.id, b.name = BlockToolUse, cb.ID, cb.Name
		b.startInput = cb.JSON.Input.Raw()
		a.emit(Delta{Kind: DeltaToolCall, ToolCallID: b.id, ToolName: b.name})
	default:
		// Server-side tools and other block types are not requested.
		return
	}
	a.byIndex[index] = b
	a.order = append(a.order, b)
}

func (a *anthropicAcc) appendText(b *anthropicBlock, s string, kind DeltaKind) {
	if s == "" {
		return
	}
	b.text.WriteString(s)
	a.emit(Delta{Kind: kind, Text: s})
}

func (a *anthropicAcc) delta(index int64, d anthropic.MessageStreamEventUnionDelta) {
	b := a.byIndex[index]
	if b == nil {
		return
	}
	switch d.Type {
	case "text_delta":
		a.appendText(b, d.Text, DeltaText)
	case "thinking_delta":
		a.appendText(b, d.Thinking, DeltaThinking)
	case "signature_delta":
		b.signature += d.Signature
	case "input_json_delta":
		if d.PartialJSON == "" {
			return
		}
		b.text.WriteString(d.PartialJSON)
		a.emit(Delta{Kind: DeltaToolCall, Text: d.PartialJSON, ToolCallID: b.id, ToolName: b.name})
	}
}

// messageUsage applies message_delta's usage, whose counts are cumulative;
// fields it omits keep their message_start values.
func (a *anthropicAcc) messageUsage(u anthropic.MessageDeltaUsage) {
	if u.JSON.OutputTokens.Valid() {
		a.usage.OutputTokens = int(u.OutputTokens)
	}
	if u.JSON.InputTokens.Valid() && u.InputTokens > 0 {
		a.usage.InputTokens = int(u.InputTokens)
	}
	if u.JSON.CacheReadInputTokens.Valid() && u.CacheReadInputTokens > 0 {
		a.usage.CacheReadTokens = int(u.CacheReadInputTokens)
	}
	if u.JSON.CacheCreationInputTokens.Valid() && u.CacheCreationInputTokens > 0 {
		a.usage.CacheWriteTokens = int(u.CacheCreationInputTokens)
	}
}

func (a *anthropicAcc) finish() (*Response, error) {
	if !a.stopped {
		return nil, errTruncated
	}
	msg := Message{Role: RoleAssistant}
	for _, b := range a.order {
		switch b.kind {
		case BlockText:
			if b.text.Len() > 0 {
				msg.Blocks = append(msg.Blocks, Block{Kind: BlockText, Text: b.text.String()})
			}
		case BlockThinking:
			msg.Blocks = append(msg.Blocks, Block{
				Kind: BlockThinking, Text: b.text.String(),
				Signature: b.signature, Redacted: b.redacted,
			})
		case BlockToolUse:
			in := b.text.String()
			if strings.TrimSpace(in) == "" {
				in = b.startInput
			}
			msg.Blocks = append(msg.Blocks, Block{
				Kind: BlockToolUse, ToolCallID: b.id, ToolName: b.name,
				Input: toolInput(in),
			})
		}
	}
	if a.stop == "" {
		a.stop = StopOther
	}
	return &Response{Message: msg, StopReason: a.stop, Usage: a.usage, Model: a.model}, nil
}

func anthropicStopReason(r anthropic.StopReason) StopReason {
	switch r {
	case anthropic.StopReasonEndTurn, anthropic.StopReasonStopSequence:
		return StopEndTurn
	case anthropic.StopReasonToolUse:
		return StopToolUse
	case anthropic.StopReasonMaxTokens:
		return StopMaxTokens
	case anthropic.StopReasonModelContextWindowExceeded:
		return StopContextOverflow
	default:
		return StopOther
	}
}
