package provider

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// geminiProvider streams from the Gemini API's streamGenerateContent
// (Server-Sent Events with alt=sse) over plain HTTP: the API is small
// enough that an SDK would add only its own environment lookups.
type geminiProvider struct {
	w wire
}

func newGemini(w wire) *geminiProvider { return &geminiProvider{w: w} }

func (p *geminiProvider) Name() string { return NameGemini }

// geminiLocalID prefixes the ids parley gives function calls the API left
// without one, so they are never sent back as if the API had chosen them.
const geminiLocalID = "gemini_call_"

func (p *geminiProvider) Stream(ctx context.Context, req *Request, onDelta func(Delta)) (*Response, error) {
	model, err := p.w.modelFor(req)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(p.request(req))
	if err != nil {
		return nil, fmt.Errorf("gemini: encode request: %w", err)
	}
	endpoint := geminiEndpoint(p.w.base, model)
	attempt := func(ctx context.Context, rec *recorder, emit func(Delta)) (*Response, error) {
		return p.attempt(ctx, endpoint, body, rec, emit)
	}
	return p.w.retry.run(ctx, NameGemini, attempt, p.classify, onDelta)
}

// geminiEndpoint is the streaming method of model under base. A bare
// model name lives under models/; "models/x" and "tunedModels/x" are
// already resource names.
func geminiEndpoint(base, model string) string {
	if !strings.Contains(model, "/") {
		model = "models/" + url.PathEscape(model)
	}
	return base + "/" + model + ":streamGenerateContent?alt=sse"
}

func (p *geminiProvider) attempt(ctx context.Context, endpoint string, body []byte, rec *recorder, emit func(Delta)) (*Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	hreq.Header.Set("X-Goog-Api-Key", p.w.key)
	res, err := p.w.send(hreq, rec)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		// The recorder kept the body; reading it lets the debug log show it.
		_, _ = io.Copy(io.Discard, res.Body)
		return nil, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	acc := geminiAcc{emit: emit}
	if err := readSSE(res.Body, acc.add); err != nil {
		return nil, err
	}
	return acc.finishResponse()
}

// send passes req through the configured middlewares (the debug log), then
// rec, then the HTTP client: the order the SDKs give the other providers.
func (w *wire) send(req *http.Request, rec *recorder) (*http.Response, error) {
	next := w.client.Do
	chain := append(slices.Clone(w.mws), rec.middleware)
	for i := len(chain) - 1; i >= 0; i-- {
		mw, inner := chain[i], next
		next = func(r *http.Request) (*http.Response, error) { return mw(r, inner) }
	}
	return next(req)
}

// The request body of generateContent and streamGenerateContent.
type geminiRequest struct {
	Contents          []geminiContent  `json:"contents"`
	SystemInstruction *geminiContent   `json:"systemInstruction,omitempty"`
	Tools             []geminiTool     `json:"tools,omitempty"`
	GenerationConfig  *geminiGenConfig `json:"generationConfig,omitempty"`
}

type geminiContent struct {
	Role  string       `json:"role,omitempty"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text             string                  `json:"text,omitempty"`
	Thought          bool                    `json:"thought,omitempty"`
	ThoughtSignature string                  `json:"thoughtSignature,omitempty"`
	FunctionCall     *geminiFunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *geminiFunctionResponse `json:"functionResponse,omitempty"`
	InlineData       *geminiBlob             `json:"inlineData,omitempty"`
}

// geminiBlob is inline media: base64 data and its media type.
type geminiBlob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

type geminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

type geminiFunctionResponse struct {
	ID       string            `json:"id,omitempty"`
	Name     string            `json:"name"`
	Response map[string]string `json:"response"`
}

type geminiTool struct {
	FunctionDeclarations []geminiFunctionDecl `json:"functionDeclarations"`
}

type geminiFunctionDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type geminiGenConfig struct {
	MaxOutputTokens int                   `json:"maxOutputTokens,omitempty"`
	ThinkingConfig  *geminiThinkingConfig `json:"thinkingConfig,omitempty"`
}

type geminiThinkingConfig struct {
	ThinkingBudget  int  `json:"thinkingBudget"`
	IncludeThoughts bool `json:"includeThoughts"`
}

// request converts a Request to the API's body.
func (p *geminiProvider) request(req *Request) geminiRequest {
	out := geminiRequest{Contents: geminiContents(req.Messages)}
	if out.Contents == nil {
		out.Contents = []geminiContent{}
	}
	if req.System != "" {
		out.SystemInstruction = &geminiContent{Parts: []geminiPart{{Text: req.System}}}
	}
	if len(req.Tools) > 0 {
		decls := make([]geminiFunctionDecl, 0, len(req.Tools))
		for _, t := range req.Tools {
			decls = append(decls, geminiFunctionDecl{
				Name: t.Name, Description: t.Description, Parameters: geminiParameters(t.InputSchema),
			})
		}
		out.Tools = []geminiTool{{FunctionDeclarations: decls}}
	}
	var gc geminiGenConfig
	gc.MaxOutputTokens = p.w.maxTokensFor(req)
	if req.ThinkingBudget > 0 {
		gc.ThinkingConfig = &geminiThinkingConfig{ThinkingBudget: req.ThinkingBudget, IncludeThoughts: true}
	}
	if gc != (geminiGenConfig{}) {
		out.GenerationConfig = &gc
	}
	return out
}

// geminiContents converts history. Tool results become functionResponse
// parts, which carry the function's name rather than only its call's id,
// so each id is looked up among the calls; thinking is not replayed (the
// API keeps its reasoning in the signatures, which are). Consecutive
// messages of one role are merged, as the API wants turns to alternate.
func geminiContents(msgs []Message) []geminiContent {
	names := map[string]string{}
	for _, m := range msgs {
		for _, b := range m.Blocks {
			if b.Kind == BlockToolUse {
				names[b.ToolCallID] = b.ToolName
			}
		}
	}
	var out []geminiContent
	for _, m := range msgs {
		var parts []geminiPart
		role := "user"
		if m.Role == RoleAssistant {
			role, parts = "model", geminiModelParts(m.Blocks)
		} else {
			parts = geminiUserParts(m.Blocks, names)
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Parts = append(out[n-1].Parts, parts...)
			continue
		}
		out = append(out, geminiContent{Role: role, Parts: parts})
	}
	return out
}

func geminiModelParts(blocks []Block) []geminiPart {
	var parts []geminiPart
	for _, b := range blocks {
		switch b.Kind {
		case BlockText:
			if b.Text != "" {
				parts = append(parts, geminiPart{Text: b.Text, ThoughtSignature: b.Signature})
			}
		case BlockToolUse:
			parts = append(parts, geminiPart{
				FunctionCall: &geminiFunctionCall{
					ID: geminiWireID(b.ToolCallID), Name: b.ToolName, Args: anthropicInput(b.Input),
				},
				// Gemini 3 refuses a replayed call without its signature.
				ThoughtSignature: b.Signature,
			})
		}
	}
	return parts
}

// geminiUserParts puts function responses first: the API wants them to
// answer the previous turn's calls directly, in order.
func geminiUserParts(blocks []Block, names map[string]string) []geminiPart {
	var results, rest []geminiPart
	for _, b := range blocks {
		switch b.Kind {
		case BlockText:
			if b.Text != "" {
				rest = append(rest, geminiPart{Text: b.Text})
			}
		case BlockImage:
			if b.Data != "" {
				rest = append(rest, geminiPart{InlineData: &geminiBlob{MimeType: b.MediaType, Data: b.Data}})
			}
		case BlockToolResult:
			name, ok := names[b.ToolCallID]
			if !ok {
				// A result whose call is gone (compacted away) cannot be a
				// functionResponse; the model still gets to read it.
				rest = append(rest, geminiPart{Text: fmt.Sprintf("[result of tool call %s]\n%s", b.ToolCallID, b.Text)})
				continue
			}
			// The API's convention: "output" for a result, "error" for a failure.
			resp := map[string]string{"output": b.Text}
			if b.IsError {
				resp = map[string]string{"error": b.Text}
			}
			results = append(results, geminiPart{FunctionResponse: &geminiFunctionResponse{
				ID: geminiWireID(b.ToolCallID), Name: name, Response: resp,
			}})
		}
	}
	return append(results, rest...)
}

// geminiWireID is the id to send for a call: the API's own (or another
// provider's, which the API takes as an opaque string), never one parley
// made up.
func geminiWireID(id string) string {
	if strings.HasPrefix(id, geminiLocalID) {
		return ""
	}
	return id
}

// newGeminiCallID names a call the API sent without an id.
func newGeminiCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return geminiLocalID + hex.EncodeToString(b[:])
}
