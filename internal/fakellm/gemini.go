package fakellm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Wire formats of chat requests, chosen by path.
const (
	formatOpenAI    = "openai"
	formatAnthropic = "anthropic"
	formatGemini    = "gemini"
)

// chatFormat names the wire format of a chat request's path. Gemini's
// methods are resource paths: .../models/M:streamGenerateContent (or
// tunedModels/M), and :generateContent for a whole answer.
func chatFormat(path string) string {
	switch {
	case strings.HasSuffix(path, "/v1/messages"):
		return formatAnthropic
	case strings.HasSuffix(path, ":streamGenerateContent"), strings.HasSuffix(path, ":generateContent"):
		return formatGemini
	default:
		return formatOpenAI
	}
}

// geminiSignature is the thought signature the fake puts on the first
// function call of answer n, and wants back, as Gemini 3 does.
func geminiSignature(n int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "fakellm-thought-%d", n))
}

// geminiParts are an answer's parts: a text part per text block, a
// functionCall part per tool block (no id, as the Gemini API sends them).
func geminiParts(n int, blocks []block) []any {
	var parts []any
	calls := 0
	for _, bl := range blocks {
		if bl.kind == "text" {
			parts = append(parts, map[string]any{"text": bl.text})
			continue
		}
		p := map[string]any{"functionCall": map[string]any{"name": bl.name, "args": json.RawMessage(bl.input)}}
		if calls == 0 {
			p["thoughtSignature"] = geminiSignature(n)
		}
		calls++
		parts = append(parts, p)
	}
	return parts
}

func geminiChunk(n int, parts []any, finish string, usage map[string]any) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if finish != "" {
		cand["finishReason"] = finish
	}
	return map[string]any{"candidates": []any{cand}, "usageMetadata": usage,
		"modelVersion": "fake-model", "responseId": fmt.Sprintf("fake-response-%d", n)}
}

func geminiUsage(prompt, output int) map[string]any {
	u := map[string]any{"promptTokenCount": prompt, "totalTokenCount": prompt + output}
	if output > 0 {
		u["candidatesTokenCount"] = output
	}
	return u
}

// geminiSSE writes a streamGenerateContent?alt=sse stream: each text in
// two chunks (split at the middle byte), each function call whole in its
// own chunk, then a chunk with an empty text part, finishReason STOP and
// the final usage. Events end in CRLF, as Google's servers end them.
func geminiSSE(n int, blocks []block, promptTokens int) *stream {
	st := &stream{firstText: -1}
	add := func(v any) {
		data, _ := json.Marshal(v)
		st.events = append(st.events, fmt.Appendf(nil, "data: %s\r\n\r\n", data))
	}
	running := geminiUsage(promptTokens, 0)
	parts := geminiParts(n, blocks)
	for i, bl := range blocks {
		if bl.kind != "text" {
			add(geminiChunk(n, []any{parts[i]}, "", running))
			continue
		}
		half := len(bl.text) / 2
		add(geminiChunk(n, []any{map[string]any{"text": bl.text[:half]}}, "", running))
		st.markText()
		add(geminiChunk(n, []any{map[string]any{"text": bl.text[half:]}}, "", running))
	}
	add(geminiChunk(n, []any{map[string]any{"text": ""}}, "STOP", geminiUsage(promptTokens, 20)))
	return st
}

// geminiJSON is generateContent's whole answer.
func geminiJSON(n int, blocks []block, promptTokens int) []byte {
	b, _ := json.Marshal(geminiChunk(n, geminiParts(n, blocks), "STOP", geminiUsage(promptTokens, 20)))
	return b
}

// writeGeminiError answers with a Google API error.
func writeGeminiError(w http.ResponseWriter, status int, googleStatus, msg string, details ...any) {
	e := map[string]any{"code": status, "message": msg, "status": googleStatus}
	if len(details) > 0 {
		e["details"] = details
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	writeError(w, status, string(b))
}

// writeGeminiKeyError refuses a wrong key as the API does: 400, not 401.
func writeGeminiKeyError(w http.ResponseWriter) {
	writeGeminiError(w, 400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.",
		map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"})
}

// readGeminiPrompt decodes a generateContent body as readPrompt does the
// others: the system instruction, the contents (4 tokens each), the tools
// and generationConfig.maxOutputTokens.
func readGeminiPrompt(body []byte) prompt {
	var req struct {
		SystemInstruction any              `json:"systemInstruction"`
		Contents          []map[string]any `json:"contents"`
		Tools             any              `json:"tools"`
		GenerationConfig  struct {
			MaxOutputTokens int `json:"maxOutputTokens"`
		} `json:"generationConfig"`
	}
	var p prompt
	if json.Unmarshal(body, &req) != nil {
		return p
	}
	p.maxTokens = req.GenerationConfig.MaxOutputTokens
	var system, tools []string
	strs(req.SystemInstruction, &system)
	strs(req.Tools, &tools)
	for _, c := range req.Contents {
		strs(c["parts"], &p.texts)
		p.tokens += 4
	}
	p.system = strings.Join(system, "\n")
	p.tokens += countTokens(system, tools, p.texts)
	return p
}

// geminiRequestError checks a generateContent body the way the API does
// before it answers, and returns the API's message for the first mistake
// ("" when there is none), so a test fails where the real API would.
func geminiRequestError(body []byte) string {
	var req struct {
		Contents []geminiTurn `json:"contents"`
		Tools    []struct {
			FunctionDeclarations []map[string]any `json:"functionDeclarations"`
		} `json:"tools"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil {
		return "Invalid JSON payload received. " + err.Error()
	}
	if len(req.Contents) == 0 {
		return "* GenerateContentRequest.contents: contents is not specified"
	}
	for i, c := range req.Contents {
		if c.Role != "user" && c.Role != "model" {
			return "Please use a valid role: user, model."
		}
		for j, p := range c.Parts {
			if !geminiHasData(p) {
				return fmt.Sprintf("* GenerateContentRequest.contents[%d].parts[%d].data: required oneof field 'data' must have one initialized field", i, j)
			}
		}
	}
	for i, t := range req.Tools {
		for j, d := range t.FunctionDeclarations {
			if msg := geminiSchemaError(d["parameters"], fmt.Sprintf("tools[%d].function_declarations[%d].parameters", i, j)); msg != "" {
				return msg
			}
		}
	}
	return geminiTurnError(req.Contents)
}

func geminiHasData(p map[string]any) bool {
	for _, k := range []string{"text", "functionCall", "functionResponse", "inlineData", "fileData"} {
		if _, ok := p[k]; ok {
			return true
		}
	}
	return false
}

// countTokens counts strings as readPrompt does: o200k_base, or a
// quarter of the bytes without the vocabulary.
func countTokens(groups ...[]string) int {
	c, err := codec()
	n := 0
	for _, group := range groups {
		for _, s := range group {
			k := (len(s) + 3) / 4
			if err == nil {
				k, _ = c.Count(s)
			}
			n += k
		}
	}
	return n
}
