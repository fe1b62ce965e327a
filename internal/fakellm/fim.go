package fakellm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FIM formats, as FIMRequest.Format names them.
const (
	FIMOllama      = "ollama"      // POST .../api/generate
	FIMLlamaCpp    = "llamacpp"    // POST .../infill
	FIMMistral     = "mistral"     // POST .../v1/fim/completions
	FIMCompletions = "completions" // POST .../completions (not .../chat/completions)
)

// fimFormat is the FIM format served on path, or "" for none.
func fimFormat(path string) string {
	switch {
	case strings.HasSuffix(path, "/api/generate"):
		return FIMOllama
	case strings.HasSuffix(path, "/infill"):
		return FIMLlamaCpp
	case strings.HasSuffix(path, "/v1/fim/completions"):
		return FIMMistral
	case strings.HasSuffix(path, "/completions") && !strings.HasSuffix(path, "/chat/completions"):
		return FIMCompletions
	}
	return ""
}

// FIMRule answers the fill-in-the-middle requests whose prefix ends with
// PrefixEnd (see the package doc for the matching and the choice among
// rules).
type FIMRule struct {
	// PrefixEnd is what the prefix must end with; "" matches every
	// request, which makes the rule a default.
	PrefixEnd string
	// Text is the completion. Ignored when Status is set.
	Text string
	// Status, when non-zero, answers with this HTTP error and Body.
	Status int
	Body   string
}

// FIMExtra is one piece of llama.cpp's input_extra.
type FIMExtra struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

// FIMRequest is a fill-in-the-middle request as the fake decoded it.
type FIMRequest struct {
	N      int    // number among FIM requests, from 1
	Path   string // the URL path
	Format string // FIMOllama, FIMLlamaCpp, FIMMistral or FIMCompletions
	Model  string
	// Prefix is the text before the middle: Ollama's, Mistral's and the
	// completions' prompt, llama.cpp's input_prefix.
	Prefix string
	Suffix string
	// Prompt is llama.cpp's prompt (the start of the middle, after
	// FIM_MID); empty for the other formats.
	Prompt string
	// Extra is llama.cpp's input_extra.
	Extra []FIMExtra
	// MaxTokens is num_predict (Ollama), n_predict (llama.cpp) or
	// max_tokens; 0 when absent.
	MaxTokens int
	Stop      []string
	// Temperature is nil when the request did not set one.
	Temperature *float64
	// Raw is Ollama's raw flag.
	Raw bool
	// Header holds the request's headers, keys included: it lives in
	// memory only and is never logged.
	Header http.Header
	Body   []byte
}

// fimBody is the union of the four formats' request fields.
type fimBody struct {
	Model       string          `json:"model"`
	Prompt      string          `json:"prompt"`
	Suffix      string          `json:"suffix"`
	Stream      *bool           `json:"stream"`
	Raw         bool            `json:"raw"`
	Stop        json.RawMessage `json:"stop"`
	MaxTokens   int             `json:"max_tokens"`
	Temperature *float64        `json:"temperature"`
	Options     struct {
		NumPredict  int             `json:"num_predict"`
		Stop        json.RawMessage `json:"stop"`
		Temperature *float64        `json:"temperature"`
	} `json:"options"`
	InputPrefix string     `json:"input_prefix"`
	InputSuffix string     `json:"input_suffix"`
	InputExtra  []FIMExtra `json:"input_extra"`
	NPredict    int        `json:"n_predict"`
}

// decodeFIM decodes a request body of format. The error says what is
// wrong, for a 400 answer.
func decodeFIM(format string, body []byte) (FIMRequest, error) {
	var b fimBody
	if err := json.Unmarshal(body, &b); err != nil {
		return FIMRequest{}, fmt.Errorf("body is not a JSON object: %v", err)
	}
	q := FIMRequest{Format: format, Model: b.Model, Prefix: b.Prompt, Suffix: b.Suffix,
		MaxTokens: b.MaxTokens, Temperature: b.Temperature}
	stop := b.Stop
	switch format {
	case FIMOllama:
		if b.Stream == nil || *b.Stream {
			return q, fmt.Errorf(`fakellm answers Ollama non-streaming only: send "stream": false (Ollama streams by default)`)
		}
		q.Raw, q.MaxTokens, q.Temperature, stop = b.Raw, b.Options.NumPredict, b.Options.Temperature, b.Options.Stop
	case FIMLlamaCpp:
		q.Prefix, q.Suffix, q.Prompt, q.Extra, q.MaxTokens = b.InputPrefix, b.InputSuffix, b.Prompt, b.InputExtra, b.NPredict
	}
	if format != FIMOllama && b.Stream != nil && *b.Stream {
		return q, fmt.Errorf("fakellm answers FIM requests non-streaming only")
	}
	if format != FIMLlamaCpp && q.Model == "" {
		return q, fmt.Errorf("model is required")
	}
	var err error
	if q.Stop, err = stopList(stop); err != nil {
		return q, err
	}
	return q, nil
}

// stopList decodes a stop field: absent, null, a string or strings.
func stopList(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("stop is neither a string nor a list of strings")
	}
	return list, nil
}

// fimLine applies a script's fim, fimstatus or fimdelay line.
func (s *Script) fimLine(verb, rest string) error {
	if verb == "fimdelay" {
		ms, err := strconv.Atoi(rest)
		if err != nil || ms < 0 {
			return fmt.Errorf("bad fimdelay %q (milliseconds)", rest)
		}
		s.fimDelay = time.Duration(ms) * time.Millisecond
		return nil
	}
	var end, answer string
	switch {
	case rest == "=>":
	case strings.HasPrefix(rest, "=> "):
		answer = rest[len("=> "):]
	default:
		var ok bool
		if end, answer, ok = strings.Cut(rest, " => "); !ok {
			if end, ok = strings.CutSuffix(rest, " =>"); !ok {
				return fmt.Errorf("%s needs \"PREFIX_END => ANSWER\"", verb)
			}
		}
	}
	r := FIMRule{PrefixEnd: unescape(end)}
	if verb == "fim" {
		r.Text = unescape(answer)
	} else {
		code, body, _ := strings.Cut(answer, " ")
		n, err := strconv.Atoi(code)
		if err != nil || n < 400 || n > 599 {
			return fmt.Errorf("bad fimstatus code %q", code)
		}
		r.Status, r.Body = n, body
	}
	s.fim = append(s.fim, r)
	return nil
}

// unescape turns \n, \t and \\ into a newline, a tab and a backslash.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// AddFIMRule adds a rule for fill-in-the-middle answers; it wins over
// the script's rules of the same PrefixEnd length.
func (s *Server) AddFIMRule(r FIMRule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fimRules = append(s.fimRules, r)
}

// SetFIMDelay sets how long every later FIM answer is held back (the
// script's fimdelay). A request whose client goes away during the delay
// is not answered and counts in FIMCancelled.
func (s *Server) SetFIMDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fimDelay = d
}

// FIMRequests returns the FIM requests received so far, in order of
// arrival. The caller must not modify them.
func (s *Server) FIMRequests() []FIMRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]FIMRequest(nil), s.fimReqs...)
}

// FIMCancelled is the number of FIM requests whose client went away
// before they were answered.
func (s *Server) FIMCancelled() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fimCancelled
}

// WaitFIMCancelled waits until FIMCancelled reaches n or ctx ends. The
// server learns that a client went away a moment after the client does,
// so a test of cancellation waits here instead of sleeping.
func (s *Server) WaitFIMCancelled(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		got, changed := s.fimCancelled, s.fimChanged
		s.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("fakellm: %d FIM requests cancelled, want %d: %w", got, n, ctx.Err())
		}
	}
}

// rule picks the rule for prefix: the longest matching PrefixEnd, the
// last added among equals. ok is false when none matches.
func (s *Server) rule(prefix string) (r FIMRule, ok bool) {
	const space = " \t\r\n"
	trimmed := strings.TrimRight(prefix, space)
	for _, c := range s.fimRules {
		end := strings.TrimRight(c.PrefixEnd, space)
		if !strings.HasSuffix(prefix, c.PrefixEnd) && (end == "" || !strings.HasSuffix(trimmed, end)) {
			continue
		}
		if !ok || len(c.PrefixEnd) >= len(r.PrefixEnd) {
			r, ok = c, true
		}
	}
	return r, ok
}

// serveFIM answers a fill-in-the-middle request of format.
func (s *Server) serveFIM(w http.ResponseWriter, r *http.Request, format string, body []byte, keyOK bool) {
	q, decodeErr := decodeFIM(format, body)
	q.Path, q.Header, q.Body = r.URL.Path, r.Header.Clone(), body

	s.mu.Lock()
	q.N = len(s.fimReqs) + 1
	s.fimReqs = append(s.fimReqs, q)
	delay := s.fimDelay
	rule, _ := s.rule(q.Prefix + q.Prompt)
	s.mu.Unlock()

	if s.logDir != "" {
		if err := os.WriteFile(filepath.Join(s.logDir, fmt.Sprintf("fim-%d.json", q.N)), body, 0o644); err != nil {
			writeError(w, 500, fimErrorBody(format, 500, "fakellm: "+err.Error()))
			return
		}
	}
	switch {
	case !keyOK:
		writeError(w, 401, fimErrorBody(format, 401, "invalid api key"))
		return
	case decodeErr != nil:
		writeError(w, 400, fimErrorBody(format, 400, decodeErr.Error()))
		return
	}
	if delay > 0 && !s.hold(r.Context(), delay) {
		return
	}
	if rule.Status != 0 {
		writeError(w, rule.Status, rule.Body)
		return
	}
	text, stopWord := cutAtStop(rule.Text, q.Stop)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(fimAnswer(q, text, stopWord))
}

// hold waits d, or until the Server closes (true), or until the client
// goes away (false, counted).
func (s *Server) hold(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.done:
		return true
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.fimCancelled++
	close(s.fimChanged)
	s.fimChanged = make(chan struct{})
	s.mu.Unlock()
	return false
}

// cutAtStop cuts text before the first stop sequence it contains, as the
// real servers do (the stop sequence is not returned).
func cutAtStop(text string, stop []string) (string, string) {
	cut, word := len(text), ""
	for _, st := range stop {
		if i := strings.Index(text, st); st != "" && i >= 0 && i < cut {
			cut, word = i, st
		}
	}
	return text[:cut], word
}

// tokens is a rough token count for usage figures.
func tokens(s string) int { return (len(s) + 3) / 4 }

// fimAnswer is the success body of q's format.
func fimAnswer(q FIMRequest, text, stopWord string) any {
	in, out := tokens(q.Prefix)+tokens(q.Suffix), tokens(text)
	usage := map[string]int{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}
	id := fmt.Sprintf("fim-%d", q.N)
	switch q.Format {
	case FIMOllama:
		return map[string]any{"model": q.Model, "created_at": "2025-01-01T00:00:00Z", "response": text,
			"done": true, "done_reason": "stop", "total_duration": 1000000, "load_duration": 1000,
			"prompt_eval_count": in, "prompt_eval_duration": 1000, "eval_count": out, "eval_duration": 1000}
	case FIMLlamaCpp:
		stopType := "eos"
		if stopWord != "" {
			stopType = "word"
		}
		return map[string]any{"content": text, "id_slot": 0, "stop": true, "model": "fakellm-infill",
			"tokens_predicted": out, "tokens_evaluated": in, "stop_type": stopType, "stopping_word": stopWord,
			"truncated": false, "generation_settings": map[string]any{"n_predict": q.MaxTokens}}
	case FIMMistral:
		return map[string]any{"id": id, "object": "chat.completion", "created": 1735689600, "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text, "tool_calls": nil, "prefix": false}}},
			"usage": usage}
	default:
		return map[string]any{"id": id, "object": "text_completion", "created": 1735689600, "model": q.Model,
			"system_fingerprint": "fakellm",
			"choices":            []any{map[string]any{"text": text, "index": 0, "logprobs": nil, "finish_reason": "stop"}},
			"usage":              usage}
	}
}

// fimErrorBody is an error body in the shape format's server uses.
func fimErrorBody(format string, status int, msg string) string {
	m, _ := json.Marshal(msg)
	switch format {
	case FIMOllama:
		return fmt.Sprintf(`{"error":%s}`, m)
	case FIMLlamaCpp:
		typ := "invalid_request_error"
		if status == 401 {
			typ = "authentication_error"
		}
		return fmt.Sprintf(`{"error":{"code":%d,"message":%s,"type":%q}}`, status, m, typ)
	case FIMMistral:
		if status == 401 {
			return `{"message":"Unauthorized","request_id":"fakellm"}`
		}
		return fmt.Sprintf(`{"object":"error","message":%s,"type":"invalid_request_error","param":null,"code":null}`, m)
	default:
		code := "null"
		if status == 401 {
			code = `"invalid_api_key"`
		}
		return fmt.Sprintf(`{"error":{"message":%s,"type":"invalid_request_error","param":null,"code":%s}}`, m, code)
	}
}
