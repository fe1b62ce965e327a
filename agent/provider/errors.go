package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// errTruncated reports a stream that ended cleanly but before the API's end
// marker (Anthropic message_stop, OpenAI finish_reason): a proxy or server
// cut it short.
var errTruncated = errors.New("stream ended before the response was complete")

// maxErrorBody bounds how much of an error response is kept.
const maxErrorBody = 64 << 10

// recorder observes one attempt's HTTP exchange from inside the SDK's
// middleware chain, so errors are classified from what the server actually
// sent (status, Retry-After, body) whatever shape the SDK gives its error.
type recorder struct {
	called bool // the request reached the transport
	status int
	header http.Header
	body   []byte // error responses only
}

func (r *recorder) middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	r.called = true
	res, err := next(req)
	if err != nil || res == nil {
		return res, err
	}
	r.status, r.header = res.StatusCode, res.Header
	if res.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		_ = res.Body.Close()
		r.body = b
		res.Body = io.NopCloser(bytes.NewReader(b))
	}
	return res, nil
}

// classify turns an attempt error into a failure. streamErr recognises the
// SDK's error for an error event inside a 200 stream.
func classify(name, key string, now time.Time, err error, rec *recorder, streamErr func(error) (*APIError, bool)) failure {
	if rec.status >= 400 {
		ae := apiErrorFromBody(name, rec.status, rec.header, rec.body, key)
		f := failure{err: ae, retryable: ae.Retryable}
		if ae.Retryable {
			f.retryAfter, f.hasAfter = retryAfter(rec.header, now)
		}
		return f
	}
	if ae, ok := streamErr(err); ok {
		ae.scrub(key)
		return failure{err: ae, retryable: ae.Retryable}
	}
	if !rec.called {
		// Building the request failed; sending it again changes nothing.
		return failure{err: err}
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		return failure{err: fmt.Errorf("malformed stream event: %w", err)}
	}
	// Connection refused/reset, unexpected EOF, truncated stream.
	return failure{err: err, retryable: true}
}

// apiErrorFromBody builds the APIError for an HTTP error response.
func apiErrorFromBody(name string, status int, h http.Header, body []byte, key string) *APIError {
	typ, code, msg := parseErrorBody(body)
	if typ == "" {
		typ = typeForStatus(status)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	ae := &APIError{
		Provider:   name,
		StatusCode: status,
		Type:       typ,
		Code:       code,
		Message:    msg,
		Retryable:  retryableStatus(status, h),
	}
	ae.classifyOverflow()
	ae.scrub(key)
	return ae
}

// scrub makes an error from the API safe to show and log: the key is
// removed from every field the API filled in (a server may echo it in
// a type or code as well as in the message), and only then are the fields
// cut to size, so a key straddling the cut cannot survive in part.
func (e *APIError) scrub(key string) {
	e.Type = snippet(redact(e.Type, key), 80)
	e.Code = snippet(redact(e.Code, key), 80)
	e.Message = snippet(redact(e.Message, key), 300)
}

// streamAPIError builds the APIError for an error event inside a stream.
func streamAPIError(name string, data []byte) *APIError {
	typ, code, msg := parseErrorBody(data)
	if typ == "" {
		typ = "stream_error"
	}
	ae := &APIError{Provider: name, Type: typ, Code: code, Message: msg, Retryable: transientTypes[typ]}
	ae.classifyOverflow()
	return ae
}

// transientTypes are error types (Anthropic and OpenAI) worth retrying when
// they arrive as a stream event before any delta.
var transientTypes = map[string]bool{
	"overloaded_error": true, "api_error": true, "rate_limit_error": true,
	"server_error": true, "timeout_error": true, "internal_server_error": true,
}

// parseErrorBody extracts type, code and message from the error shapes in
// the wild: Anthropic {"type":"error","error":{"type","message"}}, OpenAI
// {"error":{"message","type","code"}} (llama.cpp's code is a number),
// vLLM {"object":"error","message","type","code"}, Ollama and LM Studio
// {"error":"..."}, and plain text from proxies. A string code stands in
// for a missing type.
func parseErrorBody(body []byte) (typ, code, msg string) {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &env) != nil {
		return "", "", strings.TrimSpace(string(body))
	}
	if len(env.Error) > 0 {
		var obj struct {
			Type    string          `json:"type"`
			Message string          `json:"message"`
			Code    json.RawMessage `json:"code"`
		}
		if json.Unmarshal(env.Error, &obj) == nil {
			_ = json.Unmarshal(obj.Code, &code) // a number or null leaves it ""
			typ = obj.Type
			if typ == "" {
				typ = code
			}
			return typ, code, obj.Message
		}
		var s string
		if json.Unmarshal(env.Error, &s) == nil {
			return "", "", s
		}
	}
	return "", "", env.Message
}

// snippet is a short, valid-UTF-8 excerpt of a non-JSON body.
func snippet(s string, limit int) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "?"))
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// typeForStatus names an error when the body gave no type.
func typeForStatus(status int) string {
	switch {
	case status == http.StatusBadRequest:
		return "invalid_request_error"
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusForbidden:
		return "permission_error"
	case status == http.StatusNotFound:
		return "not_found_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "api_error"
	default:
		return "http_error"
	}
}

// retryableStatus honours the x-should-retry header both APIs may send,
// else retries timeouts, conflicts, rate limits and server errors.
func retryableStatus(status int, h http.Header) bool {
	if h != nil {
		switch h.Get("X-Should-Retry") {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

// redact removes the API key from text that may echo it.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}
