package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// maxSSEEvent bounds one Server-Sent Event: Gemini sends each function
// call whole, so an event holds a complete tool input (a file written).
const maxSSEEvent = 32 << 20

// readSSE calls onData with the data of each event of an SSE stream, in
// order. Lines may end in CRLF (Google's servers use it); fields other
// than data carry nothing the Gemini API uses.
func readSSE(r io.Reader, onData func([]byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxSSEEvent)
	var data []byte
	pending := false
	flush := func() error {
		if !pending {
			return nil
		}
		d := data
		data, pending = nil, false
		return onData(d)
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		v, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		v = bytes.TrimPrefix(v, []byte(" "))
		if pending {
			data = append(data, '\n')
		}
		if len(data)+len(v) > maxSSEEvent {
			return fmt.Errorf("stream event over %d bytes", maxSSEEvent)
		}
		data, pending = append(data, v...), true
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}

// geminiChunk is one GenerateContentResponse of the stream.
type geminiChunk struct {
	Candidates []struct {
		Content      geminiContent `json:"content"`
		FinishReason string        `json:"finishReason"`
		Index        int           `json:"index"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	UsageMetadata *struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
		ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
	ModelVersion string          `json:"modelVersion"`
	Error        json.RawMessage `json:"error"`
}

// geminiBlock collects one block of the answer while it streams.
type geminiBlock struct {
	kind      BlockKind
	text      strings.Builder
	signature string
	id, name  string
	input     json.RawMessage
}

// geminiAcc assembles a streamGenerateContent stream into a Response.
// Text and thought parts arrive in fragments and are joined into one block
// until another kind of part comes; function calls arrive whole.
type geminiAcc struct {
	emit     func(Delta)
	blocks   []*geminiBlock
	open     *geminiBlock // the text or thinking block being extended
	sig      string       // a signature waiting for the next block
	calls    int
	finish   string
	finished bool
	usage    Usage
	model    string
}

func (a *geminiAcc) add(data []byte) error {
	var c geminiChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("gemini stream event: %w", err)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return &geminiStreamError{data: data}
	}
	if c.ModelVersion != "" {
		a.model = c.ModelVersion
	}
	if u := c.UsageMetadata; u != nil {
		// Each chunk's counts are the totals so far; the prompt count
		// includes the cached part, and thoughts are output billed apart.
		a.usage = Usage{
			InputTokens:     max(u.PromptTokenCount-u.CachedContentTokenCount, 0),
			OutputTokens:    u.CandidatesTokenCount + u.ThoughtsTokenCount,
			CacheReadTokens: u.CachedContentTokenCount,
		}
	}
	if pf := c.PromptFeedback; pf != nil && pf.BlockReason != "" && len(c.Candidates) == 0 {
		return &APIError{Provider: NameGemini, Type: "prompt_blocked", Code: pf.BlockReason,
			Message: "the API refused the prompt (" + pf.BlockReason + ")"}
	}
	for _, cand := range c.Candidates {
		if cand.Index != 0 {
			continue // candidateCount is 1; other candidates are not ours
		}
		for _, p := range cand.Content.Parts {
			a.part(p)
		}
		if cand.FinishReason != "" {
			a.finish, a.finished = cand.FinishReason, true
		}
	}
	return nil
}

func (a *geminiAcc) part(p geminiPart) {
	switch {
	case p.FunctionCall != nil:
		a.call(p)
	case p.Thought:
		a.text(BlockThinking, DeltaThinking, p.Text)
		if p.ThoughtSignature != "" {
			// Thinking is not replayed, so its signature goes with the
			// next block, which is.
			a.sig = p.ThoughtSignature
		}
	default:
		a.text(BlockText, DeltaText, p.Text)
		if p.ThoughtSignature != "" {
			a.sign(p.ThoughtSignature)
		}
	}
}

func (a *geminiAcc) text(kind BlockKind, delta DeltaKind, s string) {
	if s == "" {
		return
	}
	if a.open == nil || a.open.kind != kind {
		a.open = a.newBlock(kind)
	}
	a.open.text.WriteString(s)
	a.emit(Delta{Kind: delta, Text: s})
}

func (a *geminiAcc) call(p geminiPart) {
	fc := p.FunctionCall
	id := fc.ID
	if id == "" {
		id = newGeminiCallID()
	}
	b := a.newBlock(BlockToolUse)
	a.open = nil
	b.id, b.name = id, fc.Name
	b.input = toolInput(string(fc.Args))
	if string(b.input) == "null" {
		b.input = json.RawMessage("{}")
	}
	if p.ThoughtSignature != "" {
		b.signature = p.ThoughtSignature
	}
	a.calls++
	a.emit(Delta{Kind: DeltaToolCall, ToolCallID: id, ToolName: fc.Name})
	a.emit(Delta{Kind: DeltaToolCall, ToolCallID: id, ToolName: fc.Name, Text: string(b.input)})
}

// newBlock starts a block, giving it a waiting signature unless it is
// thinking.
func (a *geminiAcc) newBlock(kind BlockKind) *geminiBlock {
	b := &geminiBlock{kind: kind}
	if kind != BlockThinking && a.sig != "" {
		b.signature, a.sig = a.sig, ""
	}
	a.blocks = append(a.blocks, b)
	return b
}

// sign attaches a text part's signature to the block it ends: the open
// text block, else the last replayed block (the API may send it on an
// empty part after the text).
func (a *geminiAcc) sign(sig string) {
	for i := len(a.blocks) - 1; i >= 0; i-- {
		b := a.blocks[i]
		if b.kind == BlockThinking {
			continue
		}
		if b.signature == "" {
			b.signature = sig
		}
		return
	}
	a.sig = sig
}

func (a *geminiAcc) finishResponse() (*Response, error) {
	if !a.finished {
		return nil, errTruncated
	}
	msg := Message{Role: RoleAssistant}
	for _, b := range a.blocks {
		switch b.kind {
		case BlockText, BlockThinking:
			msg.Blocks = append(msg.Blocks, Block{Kind: b.kind, Text: b.text.String(), Signature: b.signature})
		case BlockToolUse:
			msg.Blocks = append(msg.Blocks, Block{
				Kind: BlockToolUse, ToolCallID: b.id, ToolName: b.name, Input: b.input, Signature: b.signature,
			})
		}
	}
	return &Response{
		Message:    msg,
		StopReason: geminiStopReason(a.finish, a.calls > 0),
		Usage:      a.usage,
		Model:      a.model,
	}, nil
}

// geminiStopReason maps finishReason. The API says STOP when the answer
// ends in function calls too.
func geminiStopReason(reason string, hasCalls bool) StopReason {
	switch reason {
	case "STOP":
		if hasCalls {
			return StopToolUse
		}
		return StopEndTurn
	case "MAX_TOKENS":
		return StopMaxTokens
	default:
		// SAFETY, RECITATION, MALFORMED_FUNCTION_CALL, ...: the answer
		// ended for a reason a retry or a larger cap would not change.
		return StopOther
	}
}
