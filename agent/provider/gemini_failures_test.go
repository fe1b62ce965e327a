package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// googleErrorBody is an error as the Gemini API sends it.
func googleErrorBody(code int, status, msg string, details ...string) string {
	d := ""
	if len(details) > 0 {
		d = `,"details":[` + strings.Join(details, ",") + `]`
	}
	return fmt.Sprintf(`{"error":{"code":%d,"message":%q,"status":%q%s}}`, code, msg, status, d)
}

const quotaMessage = "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits."

// A 429 is retried after the delay the API names in RetryInfo (it sends
// no Retry-After), or after Retry-After when a proxy adds one.
func TestGeminiRateLimit(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		headers []string
		want    time.Duration
	}{
		{"retry info", googleErrorBody(429, "RESOURCE_EXHAUSTED", quotaMessage,
			`{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]}`,
			`{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Learn more about Gemini API quotas","url":"https://ai.google.dev/gemini-api/docs/rate-limits"}]}`,
			`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34s"}`), nil, 34 * time.Second},
		{"fractional delay", googleErrorBody(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).",
			`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3.957525076s"}`), nil, 3957525076},
		{"retry-after wins", googleErrorBody(429, "RESOURCE_EXHAUSTED", "slow down",
			`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34s"}`), []string{"Retry-After", "7"}, 7 * time.Second},
		{"capped", googleErrorBody(429, "RESOURCE_EXHAUSTED", "daily quota",
			`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3600s"}`), nil, 60 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t, errorResponse(429, tt.body, tt.headers...), sse(t, "gemini_text.sse"))
			p, clock := newTestProvider(t, NameGemini, f)
			var got collect
			if _, err := p.Stream(context.Background(), simpleRequest(), got.add); err != nil {
				t.Fatal(err)
			}
			if got.text(DeltaText) != "Hello, world!" || len(f.requests()) != 2 {
				t.Errorf("deltas %+v, %d requests", got.deltas, len(f.requests()))
			}
			if s := clock.recorded(); len(s) != 1 || s[0] != tt.want {
				t.Errorf("sleeps = %v, want [%v]", s, tt.want)
			}
		})
	}
}

func TestGeminiRateLimitGivesUp(t *testing.T) {
	f := newFakeAPI(t, errorResponse(429, googleErrorBody(429, "RESOURCE_EXHAUSTED", quotaMessage)))
	p, clock := newTestProvider(t, NameGemini, f, func(c *Config) { c.MaxRetries = 2 })
	_, err := p.Stream(context.Background(), simpleRequest(), nil)
	ae, ok := errors.AsType[*APIError](err)
	want := APIError{Provider: NameGemini, StatusCode: 429, Type: "rate_limit_error", Code: "RESOURCE_EXHAUSTED",
		Message: quotaMessage, Retryable: true}
	if !ok || *ae != want {
		t.Fatalf("err = %#v\nwant %+v", err, want)
	}
	if !strings.Contains(err.Error(), "(gave up after 3 attempts)") || len(f.requests()) != 3 || len(clock.recorded()) != 2 {
		t.Errorf("err %q, %d requests, sleeps %v", err, len(f.requests()), clock.recorded())
	}
}

// The API's context overflow (400 INVALID_ARGUMENT, with or without the
// counts, as an object or wrapped in an array) matches
// ErrContextOverflow and is never retried.
func TestGeminiContextOverflow(t *testing.T) {
	bodies := map[string]string{
		"counts":  googleErrorBody(400, "INVALID_ARGUMENT", "The input token count (1091639) exceeds the maximum number of tokens allowed (1048576)."),
		"bare":    googleErrorBody(400, "INVALID_ARGUMENT", "The input token count exceeds the maximum number of tokens allowed 1048576."),
		"wrapped": `[{"error":{"code":400,"message":"The input token count (134123) exceeds the maximum number of tokens allowed (131072).","errors":[{"message":"The input token count (134123) exceeds the maximum number of tokens allowed (131072).","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}]`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			f := newFakeAPI(t, errorResponse(400, body), sse(t, "gemini_text.sse"))
			p, clock := newTestProvider(t, NameGemini, f)
			_, err := p.Stream(context.Background(), simpleRequest(), nil)
			if !errors.Is(err, ErrContextOverflow) {
				t.Fatalf("err = %v, want ErrContextOverflow", err)
			}
			ae, _ := errors.AsType[*APIError](err)
			if ae == nil || ae.StatusCode != 400 || ae.Code != "INVALID_ARGUMENT" || !strings.Contains(ae.Message, "exceeds the maximum number of tokens") {
				t.Errorf("APIError = %+v", ae)
			}
			if len(f.requests()) != 1 || len(clock.recorded()) != 0 {
				t.Errorf("retried: %d requests", len(f.requests()))
			}
		})
	}
}

// Other 400s are neither overflows nor retried.
func TestGeminiBadRequest(t *testing.T) {
	body := googleErrorBody(400, "INVALID_ARGUMENT", `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`)
	f := newFakeAPI(t, errorResponse(400, body))
	p, clock := newTestProvider(t, NameGemini, f)
	_, err := p.Stream(context.Background(), simpleRequest(), nil)
	ae, ok := errors.AsType[*APIError](err)
	if !ok || errors.Is(err, ErrContextOverflow) || ae.Type != "invalid_request_error" || ae.Retryable {
		t.Fatalf("err = %#v", err)
	}
	if len(f.requests()) != 1 || len(clock.recorded()) != 0 {
		t.Errorf("retried: %d requests", len(f.requests()))
	}
}

// The API answers a wrong key with 400 API_KEY_INVALID; a server echoing
// the key must not put it in the error.
func TestGeminiInvalidKey(t *testing.T) {
	body := googleErrorBody(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key. ("+testKey+")",
		`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}`)
	f := newFakeAPI(t, errorResponse(400, body))
	p, _ := newTestProvider(t, NameGemini, f)
	_, err := p.Stream(context.Background(), simpleRequest(), nil)
	ae, ok := errors.AsType[*APIError](err)
	if !ok || ae.Type != "authentication_error" || ae.Retryable || len(f.requests()) != 1 {
		t.Fatalf("err = %#v, %d requests", err, len(f.requests()))
	}
	if strings.Contains(fmt.Sprintf("%v %+v", err, *ae), testKey) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("err = %v", err)
	}
}

func TestGeminiServerErrorsRetried(t *testing.T) {
	f := newFakeAPI(t,
		errorResponse(503, googleErrorBody(503, "UNAVAILABLE", "The model is overloaded. Please try again later.")),
		errorResponse(500, "<html>upstream error</html>"),
		sse(t, "gemini_text.sse"))
	p, clock := newTestProvider(t, NameGemini, f)
	resp, err := p.Stream(context.Background(), simpleRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != StopEndTurn || len(f.requests()) != 3 || len(clock.recorded()) != 2 {
		t.Errorf("stop %q, %d requests, sleeps %v", resp.StopReason, len(f.requests()), clock.recorded())
	}
}

// An error event after text breaks the stream; before any delta it is
// retried like an HTTP error.
func TestGeminiStreamErrorEvent(t *testing.T) {
	f := newFakeAPI(t, sse(t, "gemini_stream_error.sse"))
	p, _ := newTestProvider(t, NameGemini, f)
	var got collect
	_, err := p.Stream(context.Background(), simpleRequest(), got.add)
	ae, ok := errors.AsType[*APIError](err)
	if !errors.Is(err, ErrStreamBroken) || !ok || ae.Code != "INTERNAL" || ae.StatusCode != 0 || !ae.Retryable {
		t.Fatalf("err = %v (%+v)", err, ae)
	}
	if got.text(DeltaText) != "Partial" || len(f.requests()) != 1 {
		t.Errorf("deltas %+v, %d requests", got.deltas, len(f.requests()))
	}

	early := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("data: " + googleErrorBody(503, "UNAVAILABLE", "overloaded") + "\r\n\r\n"))
	}
	f = newFakeAPI(t, early, sse(t, "gemini_text.sse"))
	p, clock := newTestProvider(t, NameGemini, f)
	if _, err := p.Stream(context.Background(), simpleRequest(), nil); err != nil || len(clock.recorded()) != 1 {
		t.Errorf("err %v, sleeps %v", err, clock.recorded())
	}
}

func TestGeminiBrokenStreams(t *testing.T) {
	t.Run("truncated", func(t *testing.T) {
		f := newFakeAPI(t, sse(t, "gemini_partial.sse"))
		p, _ := newTestProvider(t, NameGemini, f)
		_, err := p.Stream(context.Background(), simpleRequest(), func(Delta) {})
		if !errors.Is(err, ErrStreamBroken) || !errors.Is(err, errTruncated) || len(f.requests()) != 1 {
			t.Fatalf("err = %v, %d requests", err, len(f.requests()))
		}
	})
	t.Run("dropped after deltas", func(t *testing.T) {
		f := newFakeAPI(t, sseThenDrop(t, "gemini_partial.sse"), sse(t, "gemini_text.sse"))
		p, _ := newTestProvider(t, NameGemini, f)
		var got collect
		_, err := p.Stream(context.Background(), simpleRequest(), got.add)
		if !errors.Is(err, ErrStreamBroken) || got.text(DeltaText) != "Half a" || len(f.requests()) != 1 {
			t.Fatalf("err = %v, deltas %+v, %d requests", err, got.deltas, len(f.requests()))
		}
	})
	t.Run("dropped before the response", func(t *testing.T) {
		f := newFakeAPI(t, dropBeforeResponse, sse(t, "gemini_text.sse"))
		p, clock := newTestProvider(t, NameGemini, f)
		if _, err := p.Stream(context.Background(), simpleRequest(), nil); err != nil || len(clock.recorded()) != 1 {
			t.Fatalf("err = %v, sleeps %v", err, clock.recorded())
		}
	})
	t.Run("cancelled mid-stream", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		f := newFakeAPI(t, sseThenHang(t, "gemini_partial.sse", release))
		p, _ := newTestProvider(t, NameGemini, f)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := p.Stream(ctx, simpleRequest(), func(Delta) { cancel() })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestGeminiStops(t *testing.T) {
	f := newFakeAPI(t, sse(t, "gemini_max_tokens.sse"))
	p, _ := newTestProvider(t, NameGemini, f)
	resp, err := p.Stream(context.Background(), simpleRequest(), nil)
	if err != nil || resp.StopReason != StopMaxTokens || resp.Usage != (Usage{InputTokens: 10, OutputTokens: 5}) {
		t.Fatalf("resp %+v, err %v", resp, err)
	}

	f = newFakeAPI(t, sse(t, "gemini_blocked.sse"))
	p, clock := newTestProvider(t, NameGemini, f)
	_, err = p.Stream(context.Background(), simpleRequest(), nil)
	ae, ok := errors.AsType[*APIError](err)
	if !ok || ae.Type != "prompt_blocked" || ae.Code != "PROHIBITED_CONTENT" || len(clock.recorded()) != 0 {
		t.Fatalf("err = %v", err)
	}
}
