package provider

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRetryAfterParsing(t *testing.T) {
	tests := []struct {
		name    string
		headers map[string]string
		want    time.Duration
		ok      bool
	}{
		{"none", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond, true},
		{"date", map[string]string{"Retry-After": fixedNow.Add(2 * time.Minute).Format(http.TimeFormat)}, 2 * time.Minute, true},
		{"past date", map[string]string{"Retry-After": fixedNow.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{"ms wins", map[string]string{"Retry-After-Ms": "120", "Retry-After": "9"}, 120 * time.Millisecond, true},
		{"bad ms falls back", map[string]string{"Retry-After-Ms": "soon", "Retry-After": "2"}, 2 * time.Second, true},
		{"garbage", map[string]string{"Retry-After": "later"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-5"}, 0, false},
		{"absurd", map[string]string{"Retry-After": "1e30"}, 24 * time.Hour, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.headers {
				h.Set(k, v)
			}
			got, ok := retryAfter(h, fixedNow)
			if got != tt.want || ok != tt.ok {
				t.Errorf("retryAfter = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBackoffDelay(t *testing.T) {
	p := newRetryPolicy(Config{RetryBaseDelay: time.Second})
	tests := []struct {
		name   string
		n      int
		f      failure
		jitter float64
		want   time.Duration
	}{
		{"first, no jitter", 0, failure{}, 0, 500 * time.Millisecond},
		{"first, full jitter", 0, failure{}, 0.999999999, time.Second - 1},
		{"third", 2, failure{}, 0.5, 3 * time.Second},
		{"capped", 10, failure{}, 0, 30 * time.Second},
		{"retry-after wins", 3, failure{hasAfter: true, retryAfter: 2 * time.Second}, 0.9, 2 * time.Second},
		{"retry-after capped", 0, failure{hasAfter: true, retryAfter: time.Hour}, 0, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.jitter = func() float64 { return tt.jitter }
			if got := p.delay(tt.n, tt.f); got != tt.want {
				t.Errorf("delay = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRetryPolicyDefaults(t *testing.T) {
	tests := []struct {
		cfg         Config
		wantRetries int
		wantBase    time.Duration
	}{
		{Config{}, 4, time.Second},
		{Config{MaxRetries: -1, RetryBaseDelay: time.Millisecond}, 0, time.Millisecond},
		{Config{MaxRetries: 7}, 7, time.Second},
	}
	for _, tt := range tests {
		p := newRetryPolicy(tt.cfg)
		if p.maxRetries != tt.wantRetries || p.base != tt.wantBase || p.maxDelay != time.Minute {
			t.Errorf("%+v: retries %d base %v max %v", tt.cfg, p.maxRetries, p.base, p.maxDelay)
		}
	}
}

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		name, body, typ, code, msg string
	}{
		{"anthropic", `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`, "rate_limit_error", "", "slow"},
		{"openai", `{"error":{"message":"bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, "invalid_request_error", "invalid_api_key", "bad key"},
		{"openai code only", `{"error":{"message":"quota","type":null,"code":"insufficient_quota"}}`, "insufficient_quota", "insufficient_quota", "quota"},
		{"numeric code", `{"error":{"code":400,"message":"too big","type":"exceed_context_size_error"}}`, "exceed_context_size_error", "", "too big"},
		{"vllm", `{"object":"error","message":"too long","type":"BadRequestError","param":null,"code":400}`, "", "", "too long"},
		{"ollama", `{"error":"model not found"}`, "", "", "model not found"},
		{"top-level message", `{"message":"Unauthorized"}`, "", "", "Unauthorized"},
		{"html", "<html><body>502 Bad Gateway</body></html>\n", "", "", "<html><body>502 Bad Gateway</body></html>"},
		{"empty", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, code, msg := parseErrorBody([]byte(tt.body))
			if typ != tt.typ || code != tt.code || msg != tt.msg {
				t.Errorf("got %q, %q, %q; want %q, %q, %q", typ, code, msg, tt.typ, tt.code, tt.msg)
			}
		})
	}
}

func TestRetryableStatus(t *testing.T) {
	tests := []struct {
		status int
		header string
		want   bool
	}{
		{400, "", false}, {401, "", false}, {403, "", false}, {404, "", false},
		{408, "", true}, {409, "", true}, {429, "", true},
		{500, "", true}, {502, "", true}, {529, "", true},
		{500, "false", false}, {400, "true", true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != "" {
			h.Set("X-Should-Retry", tt.header)
		}
		if got := retryableStatus(tt.status, h); got != tt.want {
			t.Errorf("retryableStatus(%d, %q) = %v", tt.status, tt.header, got)
		}
	}
}

func TestSnippetTruncatesLongBodies(t *testing.T) {
	if s := snippet(strings.Repeat("x", 1000), 300); len(s) != 303 {
		t.Errorf("len = %d", len(s))
	}
	if s := snippet("ok\xff", 300); s != "ok?" {
		t.Errorf("invalid UTF-8 kept: %q", s)
	}
}

// The key is removed from every field of an API error before anything is
// cut, wherever the server echoes it (found by FuzzErrorBody).
func TestAPIErrorNeverShowsTheKey(t *testing.T) {
	const key = "sk-test-SECRET-0123456789"
	for name, body := range map[string]string{
		"in the code":            `{"error":{"message":"bad key","code":"invalid_api_key:` + key + `"}}`,
		"in the type":            `{"error":{"type":"00` + key + `","message":"x"}}`,
		"straddling the cut":     strings.Repeat("x", 295) + " " + key,
		"in a long JSON message": `{"error":{"message":"` + strings.Repeat("y", 290) + key + `"}}`,
	} {
		ae := apiErrorFromBody("openai", 401, http.Header{}, []byte(body), key)
		if msg := ae.Error(); strings.Contains(msg, key[:8]) {
			t.Errorf("%s: %q shows the key", name, msg)
		}
	}
}
