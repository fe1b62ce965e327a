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

// providerCase runs the same failure scenarios against each wire format.
type providerCase struct {
	name    string
	ok      string // a complete recorded stream
	partial string // a stream cut after one text delta
	errBody func(typ, msg string) string
}

var providerCases = []providerCase{
	{
		name: NameAnthropic, ok: "anthropic_text.sse", partial: "anthropic_partial.sse",
		errBody: func(typ, msg string) string {
			return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`, typ, msg)
		},
	},
	{
		name: NameOpenAI, ok: "openai_text.sse", partial: "openai_partial.sse",
		errBody: func(typ, msg string) string {
			return fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":null,"code":null}}`, msg, typ)
		},
	},
}

func forEachProvider(t *testing.T, fn func(t *testing.T, pc providerCase)) {
	for _, pc := range providerCases {
		t.Run(pc.name, func(t *testing.T) { fn(t, pc) })
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		want    time.Duration
	}{
		{"seconds", []string{"Retry-After", "7"}, 7 * time.Second},
		{"http date", []string{"Retry-After", fixedNow.Add(30 * time.Second).Format(http.TimeFormat)}, 30 * time.Second},
		{"milliseconds", []string{"Retry-After-Ms", "250", "Retry-After", "1"}, 250 * time.Millisecond},
		{"capped", []string{"Retry-After", "600"}, 60 * time.Second},
	}
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				body := pc.errBody("rate_limit_error", "slow down")
				f := newFakeAPI(t, errorResponse(429, body, tt.headers...), sse(t, pc.ok))
				p, clock := newTestProvider(t, pc.name, f)
				var got collect
				if _, err := p.Stream(context.Background(), simpleRequest(), got.add); err != nil {
					t.Fatal(err)
				}
				if got.text(DeltaText) != "Hello, world!" {
					t.Errorf("deltas = %+v", got.deltas)
				}
				if n := len(f.requests()); n != 2 {
					t.Errorf("%d requests, want 2", n)
				}
				if s := clock.recorded(); len(s) != 1 || s[0] != tt.want {
					t.Errorf("sleeps = %v, want [%v]", s, tt.want)
				}
			})
		}
	})
}

func TestRetryServerErrorWithBackoff(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		f := newFakeAPI(t,
			errorResponse(500, pc.errBody("api_error", "Internal server error")),
			errorResponse(503, "<html>upstream unavailable</html>"),
			sse(t, pc.ok))
		p, clock := newTestProvider(t, pc.name, f, func(c *Config) { c.RetryBaseDelay = 10 * time.Millisecond })
		if _, err := p.Stream(context.Background(), simpleRequest(), nil); err != nil {
			t.Fatal(err)
		}
		s := clock.recorded()
		if len(f.requests()) != 3 || len(s) != 2 {
			t.Fatalf("%d requests, sleeps %v", len(f.requests()), s)
		}
		// Equal jitter: step n lies in [base*2^n/2, base*2^n].
		for n, d := range s {
			hi := 10 * time.Millisecond << n
			if d < hi/2 || d > hi {
				t.Errorf("sleep %d = %v, want within [%v, %v]", n, d, hi/2, hi)
			}
		}
	})
}

func TestRetryGivesUp(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		f := newFakeAPI(t, errorResponse(529, pc.errBody("overloaded_error", "Overloaded")))
		p, clock := newTestProvider(t, pc.name, f, func(c *Config) { c.MaxRetries = 2 })
		_, err := p.Stream(context.Background(), simpleRequest(), nil)
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != 529 || ae.Type != "overloaded_error" || !ae.Retryable {
			t.Fatalf("err = %v", err)
		}
		if !strings.Contains(err.Error(), "(gave up after 3 attempts)") || len(f.requests()) != 3 || len(clock.recorded()) != 2 {
			t.Errorf("err %q, %d requests, sleeps %v", err, len(f.requests()), clock.recorded())
		}
	})
}

func TestNoRetryForClientErrors(t *testing.T) {
	tests := []struct {
		status  int
		typ     string
		message string
	}{
		{401, "authentication_error", "invalid x-api-key"},
		{403, "permission_error", "Your API key does not have permission to use the specified resource."},
		{400, "invalid_request_error", "messages: roles must alternate between \"user\" and \"assistant\""},
	}
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		for _, tt := range tests {
			t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
				f := newFakeAPI(t, errorResponse(tt.status, pc.errBody(tt.typ, tt.message)), sse(t, pc.ok))
				p, clock := newTestProvider(t, pc.name, f)
				_, err := p.Stream(context.Background(), simpleRequest(), nil)
				want := APIError{Provider: pc.name, StatusCode: tt.status, Type: tt.typ, Message: tt.message}
				var ae *APIError
				if !errors.As(err, &ae) || *ae != want {
					t.Fatalf("err = %#v, want %+v", err, want)
				}
				if len(f.requests()) != 1 || len(clock.recorded()) != 0 {
					t.Errorf("retried: %d requests", len(f.requests()))
				}
			})
		}
	})
}

// A server that echoes the key must not make it reach the error.
func TestErrorsNeverContainKey(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		msg := "Incorrect API key provided: " + testKey + ". You can find your API key in the console."
		f := newFakeAPI(t, errorResponse(401, pc.errBody("invalid_request_error", msg)))
		p, _ := newTestProvider(t, pc.name, f)
		_, err := p.Stream(context.Background(), simpleRequest(), nil)
		if err == nil || strings.Contains(err.Error(), testKey) || strings.Contains(fmt.Sprintf("%+v", err), testKey) {
			t.Fatalf("err = %v", err)
		}
		if !strings.Contains(err.Error(), "Incorrect API key provided: [REDACTED]") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestConnectionDropBeforeResponseIsRetried(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		f := newFakeAPI(t, dropBeforeResponse, sse(t, pc.ok))
		p, clock := newTestProvider(t, pc.name, f)
		resp, err := p.Stream(context.Background(), simpleRequest(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StopReason != StopEndTurn || len(f.requests()) != 2 || len(clock.recorded()) != 1 {
			t.Errorf("stop %q, %d requests, sleeps %v", resp.StopReason, len(f.requests()), clock.recorded())
		}
	})
}

func TestConnectionDropAfterDeltasIsBroken(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		f := newFakeAPI(t, sseThenDrop(t, pc.partial), sse(t, pc.ok))
		p, clock := newTestProvider(t, pc.name, f)
		var got collect
		_, err := p.Stream(context.Background(), simpleRequest(), got.add)
		if !errors.Is(err, ErrStreamBroken) {
			t.Fatalf("err = %v, want ErrStreamBroken", err)
		}
		if got.text(DeltaText) != "Half a" || len(f.requests()) != 1 || len(clock.recorded()) != 0 {
			t.Errorf("deltas %+v, %d requests, sleeps %v", got.deltas, len(f.requests()), clock.recorded())
		}
	})
}

// A stream that ends cleanly but without the API's end marker is as
// broken as a dropped connection.
func TestTruncatedStreamIsBroken(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		f := newFakeAPI(t, sse(t, pc.partial))
		p, _ := newTestProvider(t, pc.name, f)
		_, err := p.Stream(context.Background(), simpleRequest(), func(Delta) {})
		if !errors.Is(err, ErrStreamBroken) || !errors.Is(err, errTruncated) || len(f.requests()) != 1 {
			t.Fatalf("err = %v, %d requests", err, len(f.requests()))
		}
	})
}

func TestCancelMidStream(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		release := make(chan struct{})
		defer close(release)
		f := newFakeAPI(t, sseThenHang(t, pc.partial, release))
		p, _ := newTestProvider(t, pc.name, f)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := p.Stream(ctx, simpleRequest(), func(Delta) { cancel() })
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Stream did not return after cancellation")
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("%d requests", n)
		}
	})
}

func TestCancelDuringBackoff(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		f := newFakeAPI(t, errorResponse(429, pc.errBody("rate_limit_error", "slow down"), "Retry-After", "30"))
		ctx, cancel := context.WithCancel(context.Background())
		p, _ := newTestProvider(t, pc.name, f, func(c *Config) {
			c.sleep = func(ctx context.Context, d time.Duration) error {
				cancel()
				return sleepCtx(ctx, d)
			}
		})
		_, err := p.Stream(ctx, simpleRequest(), nil)
		if !errors.Is(err, context.Canceled) || len(f.requests()) != 1 {
			t.Errorf("err = %v, %d requests", err, len(f.requests()))
		}
	})
}
