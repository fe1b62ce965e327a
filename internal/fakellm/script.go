// Package fakellm is a fake model API for tests. It speaks the providers'
// documented streaming wire formats — OpenAI chat completions (Server-Sent
// Events on any path ending in /chat/completions), Anthropic Messages
// (SSE on any path ending in /v1/messages) and the Gemini API (SSE on any
// path ending in :streamGenerateContent, such as
// /v1beta/models/M:streamGenerateContent?alt=sse, and a whole JSON answer
// on :generateContent) — and answers each request with
// the next response of a small script, so tests of the chat loop, the CLI
// and the language server run without a network. It also answers
// embeddings and, from rules of the script, fill-in-the-middle code
// completions (see below).
//
// # Script format
//
// A script holds one block per request, in order, separated by lines
// "---". Within a block:
//
//	text STRING        a text block ("\n" in STRING is a newline)
//	tool NAME JSON     a tool call with these arguments
//	status CODE JSON   answer with this HTTP error and body instead
//	wait               hold the response open (see below)
//
// A first line "key KEY" makes requests that carry none of "x-api-key: KEY",
// "x-goog-api-key: KEY" and "Authorization: Bearer KEY" fail with 401 (a
// Gemini request with 400 API_KEY_INVALID, as the API answers); such a
// request still uses up its block. Empty lines and lines starting with # are ignored. A request
// with no block left gets a 400 error.
//
// # Context window and summaries
//
// Two more lines may come before the first block:
//
//	window N           the model's context window, in tokens
//	summarize MARKER   answer summary requests (see below)
//
// With a window, each request's prompt is counted (o200k_base tokens of
// every string value in its system prompt, messages and tools, plus 4 a
// message), the count is reported as the response's input tokens, and a
// request whose prompt plus max_tokens (or max_completion_tokens) passes
// the window is refused the way the real APIs refuse it: HTTP 400 with
// Anthropic's "prompt is too long: X tokens > N maximum" (or "input
// length and `max_tokens` exceed context limit: X + Y > N"), OpenAI's
// context_length_exceeded error, or Gemini's 400 INVALID_ARGUMENT "The
// input token count (X) exceeds the maximum number of tokens allowed (N)."
// (Gemini counts systemInstruction, contents and tools, and refuses on the
// prompt alone, as the API does). A refused request uses up no block: the
// next one gets it.
//
// With summarize, a request whose system prompt contains MARKER is a
// summary request: it uses up no block and is answered with a text that
// plays a model keeping what matters, "Summary:" followed by every
// distinct line of its messages that contains "#keep", in order.
//
// A block with wait starts streaming its response, sends the stream's
// opening event and the first text delta (if the block has text), flushes,
// and then blocks until the request's context is cancelled (the client
// went away) or the Server is closed; the rest of the stream is never
// sent. Use it to test cancellation. wait cannot be combined with status.
//
// # Wire details
//
// OpenAI streams start with a role chunk, send each text block as two
// content deltas (split at the middle byte), each tool call as a header
// chunk (id call_N_I, name, empty arguments) plus one arguments chunk, then
// a chunk carrying finish_reason ("stop" or "tool_calls"), a usage chunk
// with no choices (100 prompt tokens, or the counted prompt with a
// window), and "data: [DONE]". Anthropic streams send
// message_start, then per block content_block_start, one content_block_delta
// (text_delta or input_json_delta; tool ids are toolu_N_I) and
// content_block_stop, then message_delta (stop_reason "end_turn" or
// "tool_use") and message_stop. Gemini streams send "data:" events ending
// in CRLF, each a GenerateContentResponse: a text block as two chunks
// (split at the middle byte), each tool call whole as a functionCall part
// without an id (the first call of an answer carries the thoughtSignature
// base64("fakellm-thought-N")), then a chunk with an empty text part,
// finishReason STOP and usageMetadata (promptTokenCount as above,
// candidatesTokenCount 20). N is the request's number, from 1.
//
// Gemini requests are checked as the API checks them, and a mistake is
// answered with its 400 INVALID_ARGUMENT message (using up no block): a
// content role other than user or model, a part without data, a schema
// field the API's Schema lacks (additionalProperties, $schema, const, ...)
// or an object schema without properties in a function declaration, a
// function call turn not answered by one functionResponse per call, and a
// function call of the current turn (after the user's last text) whose
// thought signature was not sent back unchanged.
//
// # Embeddings
//
// A POST to any path ending in /embeddings is answered in OpenAI's
// embeddings format with deterministic vectors (Embedding: a hashed bag of
// word stems and their character trigrams, unit length; the dimension is
// a number ending the model name, as in "fake-embed-64", else 384). It
// uses up no block, is not in Requests (EmbeddingRequests counts it) and
// honours the script's key.
//
// # Fill in the middle
//
// Fill-in-the-middle requests are answered non-streaming in each
// provider's documented format, by path: Ollama's (any path ending in
// /api/generate; "stream": false is required, as Ollama streams by
// default), llama.cpp's (/infill), Mistral Codestral's (/v1/fim/completions,
// a chat.completion-shaped answer) and OpenAI-style legacy completions
// with suffix, DeepSeek's FIM included (any other path ending in
// /completions but not /chat/completions; a text_completion answer). They
// use up no block, are not in Requests, honour the script's key (401 in
// the format's error shape) and are recorded whole in FIMRequests (with
// the logged body going to fim-N.json). Script lines, allowed anywhere:
//
//	fim => TEXT                  the default answer
//	fim PREFIX_END => TEXT       answer TEXT when the prefix ends with PREFIX_END
//	fimstatus PREFIX_END => CODE BODY
//	                             answer with this HTTP error (PREFIX_END may be empty)
//	fimdelay MS                  hold every FIM answer MS milliseconds
//
// In PREFIX_END and TEXT, \n, \t and \\ stand for a newline, a tab and a
// backslash; " => " separates the two (the first one counts). The prefix
// is the request's prompt (llama.cpp: input_prefix followed by prompt); a
// rule matches when the prefix ends with PREFIX_END, or when both do
// without their trailing whitespace (a PREFIX_END of whitespace only must
// match exactly). Of the matching rules the longest
// PREFIX_END wins, and the one added last among equals (so a rule added
// with AddFIMRule overrides the script's). With no match the answer is
// empty. Like the real servers, the fake cuts TEXT before the first of the
// request's stop sequences it contains. A delayed request whose client
// goes away is never answered and counts in FIMCancelled
// (WaitFIMCancelled waits for the count); SetFIMDelay changes the delay.
//
// For example, with
//
//	key K
//	fim => // nothing to add
//	fim func add(a, b int) int { => return a + b\n}
//	fimdelay 20
//
// a request whose prompt ends in "func add(a, b int) int {\n\t" is answered
// "return a + b\n}" after 20 ms, or "return a + b" if it sent the stop
// sequence "\n".
//
// # Concurrency
//
// A Server is safe for concurrent use. Requests are numbered, and those
// that use up a block given it, in order of arrival; a request held by
// wait does not hold up the others. When a log directory is set, each request body is written
// to req-N.json in it before the request is answered.
package fakellm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Script is a parsed script: an optional API key and the responses to
// give, in order. It is immutable once parsed.
type Script struct {
	key       string
	window    int
	summarize string
	resps     []response
	fim       []FIMRule     // fim and fimstatus lines, in order
	fimDelay  time.Duration // fimdelay
}

// Len reports how many responses the script holds.
func (s *Script) Len() int { return len(s.resps) }

type block struct {
	kind, text, name, input string // kind: text or tool
}

type response struct {
	status int    // non-zero: answer with this HTTP error
	body   string // error body when status != 0
	wait   bool
	blocks []block
}

// Parse parses a script in the format described in the package doc.
// Errors name the offending line.
func Parse(script []byte) (*Script, error) {
	s := &Script{}
	cur := response{}
	waitLine := 0
	flush := func() error {
		if cur.wait && cur.status != 0 {
			return fmt.Errorf("fakellm line %d: wait cannot be combined with status", waitLine)
		}
		if cur.status != 0 || cur.wait || len(cur.blocks) > 0 {
			s.resps = append(s.resps, cur)
		}
		cur, waitLine = response{}, 0
		return nil
	}
	for i, line := range strings.Split(string(script), "\n") {
		line = strings.TrimSpace(line)
		verb, rest, _ := strings.Cut(line, " ")
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line == "---":
			if err := flush(); err != nil {
				return nil, err
			}
		case verb == "key" && i == 0:
			s.key = rest
		case (verb == "window" || verb == "summarize") && len(s.resps) == 0 && len(cur.blocks) == 0 && cur.status == 0 && !cur.wait:
			if err := s.header(verb, rest); err != nil {
				return nil, fmt.Errorf("fakellm line %d: %w", i+1, err)
			}
		case verb == "fim" || verb == "fimstatus" || verb == "fimdelay":
			if err := s.fimLine(verb, rest); err != nil {
				return nil, fmt.Errorf("fakellm line %d: %w", i+1, err)
			}
		case verb == "text":
			cur.blocks = append(cur.blocks, block{kind: "text", text: strings.ReplaceAll(rest, `\n`, "\n")})
		case verb == "tool":
			name, input, _ := strings.Cut(rest, " ")
			if !json.Valid([]byte(input)) {
				return nil, fmt.Errorf("fakellm line %d: tool input is not JSON", i+1)
			}
			cur.blocks = append(cur.blocks, block{kind: "tool", name: name, input: input})
		case verb == "status":
			code, body, _ := strings.Cut(rest, " ")
			n, err := strconv.Atoi(code)
			if err != nil {
				return nil, fmt.Errorf("fakellm line %d: bad status %q", i+1, code)
			}
			cur.status, cur.body = n, body
		case line == "wait":
			cur.wait, waitLine = true, i+1
		default:
			return nil, fmt.Errorf("fakellm line %d: unknown directive %q", i+1, line)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return s, nil
}

// header applies a window or summarize line.
func (s *Script) header(verb, arg string) error {
	if verb == "summarize" {
		if arg == "" {
			return fmt.Errorf("summarize needs a marker")
		}
		s.summarize = arg
		return nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n <= 0 {
		return fmt.Errorf("bad window %q", arg)
	}
	s.window = n
	return nil
}
