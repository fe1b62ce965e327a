package provider

import (
	"net/http"
	"testing"
	"time"
)

// FuzzRetryAfter parses the Retry-After-Ms and Retry-After headers of an
// error response. The wait is never negative, is zero when the headers
// say nothing usable, and the delay the retry loop derives from it stays
// within [0, maxRetryDelay].
func FuzzRetryAfter(f *testing.F) {
	for _, s := range [][2]string{
		{"", ""}, {"", "7"}, {"250", "1"}, {"", "600"}, {"", "0"}, {"", "-1"}, {"", "1.5"},
		{"", fixedNow.Add(30 * time.Second).Format(http.TimeFormat)},
		{"", fixedNow.Add(-time.Hour).Format(http.TimeFormat)},
		{"", "Sun, 06 Nov 1994 08:49:37 GMT"}, {"", "Sunday, 06-Nov-94 08:49:37 GMT"},
		{"", "Sun Nov  6 08:49:37 1994"}, {"", "Fri, 31 Dec 9999 23:59:59 GMT"},
		{"NaN", "Inf"}, {"1e308", "1e308"}, {"-0", "+Inf"}, {"0x10", "1_000"}, {" 5 ", "\t3\n"},
	} {
		f.Add(s[0], s[1], uint8(0))
	}
	f.Fuzz(func(t *testing.T, ms, after string, n uint8) {
		h := http.Header{}
		if ms != "" {
			h.Set("Retry-After-Ms", ms)
		}
		if after != "" {
			h.Set("Retry-After", after)
		}
		d, ok := retryAfter(h, fixedNow)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("retryAfter(ms %q, after %q) = %v, %v", ms, after, d, ok)
		}
		p := retryPolicy{maxRetries: 4, base: time.Second, maxDelay: maxRetryDelay, jitter: func() float64 { return 0.999 }}
		for _, f := range []failure{{retryAfter: d, hasAfter: ok}, {}} {
			if w := p.delay(int(n), f); w < 0 || w > maxRetryDelay {
				t.Fatalf("delay(%d, %+v) = %v, outside [0, %v]", n, f, w, maxRetryDelay)
			}
		}
	})
}
