package fim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// maxResponse bounds a response body; a completion of DefaultMaxTokens is
// a few hundred bytes.
const maxResponse = 1 << 20

// maxExcerpt bounds the part of an error body an HTTPError keeps.
const maxExcerpt = 200

// HTTPError is a non-2xx answer. Its message names the provider and the
// status and quotes a short excerpt of the body with the key removed.
type HTTPError struct {
	Provider   string
	StatusCode int
	// Excerpt is the error message the body carried (or its start), at
	// most maxExcerpt bytes, never containing the API key.
	Excerpt string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d %s", e.Provider, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Excerpt != "" {
		msg += ": " + e.Excerpt
	}
	return msg
}

// base is what every HTTP provider shares.
type base struct {
	name, url, key, model string
	timeout               time.Duration
	client                *http.Client
}

// Name implements Model.
func (b *base) Name() string { return b.name }

// post sends body as JSON with the key as a Bearer token (when there is
// one) and returns the 2xx response body. The request is bound to ctx and
// to the timeout; errors name the provider and never hold the key.
func (b *base) post(ctx context.Context, body any) ([]byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, b.timeout, fmt.Errorf("no answer within %v", b.timeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", b.name, redact(err.Error(), b.key))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if b.key != "" {
		req.Header.Set("Authorization", "Bearer "+b.key)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, b.ctxError(ctx)
		}
		return nil, fmt.Errorf("%s: %s", b.name, redact(err.Error(), b.key))
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if resp.StatusCode/100 != 2 {
		return nil, &HTTPError{Provider: b.name, StatusCode: resp.StatusCode, Excerpt: excerpt(out, b.key)}
	}
	switch {
	case ctx.Err() != nil:
		return nil, b.ctxError(ctx)
	case err != nil:
		return nil, fmt.Errorf("%s: reading the response: %s", b.name, redact(err.Error(), b.key))
	case len(out) > maxResponse:
		return nil, fmt.Errorf("%s: response larger than %d bytes", b.name, maxResponse)
	}
	return out, nil
}

// ctxError reports a request ended by ctx: cancelled by the caller, or
// out of time (the cause says which timeout). It wraps ctx.Err().
func (b *base) ctxError(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, ctx.Err()) {
		return fmt.Errorf("%s: %w: %w", b.name, cause, ctx.Err())
	}
	return fmt.Errorf("%s: %w", b.name, ctx.Err())
}

// malformed is the error for a 2xx body that does not parse.
func (b *base) malformed(err error) error {
	return fmt.Errorf("%s: malformed response: %w", b.name, err)
}

// excerpt is the message of an error body: the message field of the
// shapes the providers use ({"error":"..."}, {"error":{"message"}},
// {"message"}, {"detail"}), else the body's text; key removed first,
// then cut to maxExcerpt bytes of valid UTF-8 on one line.
func excerpt(body []byte, key string) string {
	msg := errorMessage(body)
	msg = redact(msg, key)
	msg = strings.Join(strings.Fields(strings.ToValidUTF8(msg, "?")), " ")
	msg = redact(msg, key) // in case the clean-up joined one
	if len(msg) > maxExcerpt {
		cut := maxExcerpt
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	return msg
}

// errorMessage extracts the message of an error body (see excerpt).
func errorMessage(body []byte) string {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &env) != nil {
		return string(body)
	}
	var s string
	if json.Unmarshal(env.Error, &s) == nil && s != "" {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(env.Error, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	for _, raw := range []json.RawMessage{env.Message, env.Detail} {
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
	}
	return string(body)
}

// redact removes the key from text that may echo it.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}
