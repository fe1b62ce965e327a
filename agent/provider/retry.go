package provider

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	defaultMaxRetries = 4
	defaultBaseDelay  = time.Second
	maxRetryDelay     = 60 * time.Second
)

// retryPolicy decides how often and how long to wait between attempts. The
// SDKs' own retries are disabled so that this is the only retry loop.
type retryPolicy struct {
	maxRetries int
	base       time.Duration
	maxDelay   time.Duration
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time
	jitter     func() float64 // in [0, 1)
}

func newRetryPolicy(cfg Config) retryPolicy {
	p := retryPolicy{
		maxRetries: cfg.MaxRetries,
		base:       cfg.RetryBaseDelay,
		maxDelay:   maxRetryDelay,
		sleep:      cfg.sleep,
		now:        cfg.now,
		jitter:     rand.Float64,
	}
	switch {
	case p.maxRetries == 0:
		p.maxRetries = defaultMaxRetries
	case p.maxRetries < 0:
		p.maxRetries = 0
	}
	if p.base <= 0 {
		p.base = defaultBaseDelay
	}
	if p.sleep == nil {
		p.sleep = sleepCtx
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p
}

// sleepCtx waits d or until ctx is done, whichever comes first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// failure is a classified attempt error.
type failure struct {
	err        error // an *APIError, or a cause that run prefixes with the provider name
	retryable  bool
	retryAfter time.Duration
	hasAfter   bool // the server said how long to wait
}

// attemptFunc performs one HTTP call. It reports deltas through emit, and
// its responses are observed by rec (installed as request middleware).
type attemptFunc func(ctx context.Context, rec *recorder, emit func(Delta)) (*Response, error)

// classifyFunc turns an attempt's error into a failure.
type classifyFunc func(err error, rec *recorder) failure

// run calls attempt until it succeeds, fails for good, or has delivered a
// delta: after that the caller's view of the response is partial, so the
// failure is reported as ErrStreamBroken and never retried.
func (p retryPolicy) run(ctx context.Context, name string, attempt attemptFunc, classify classifyFunc, onDelta func(Delta)) (*Response, error) {
	for n := 0; ; n++ {
		rec := &recorder{}
		delivered := false
		emit := func(d Delta) {
			delivered = true
			if onDelta != nil {
				onDelta(d)
			}
		}
		resp, err := attempt(ctx, rec, emit)
		if err == nil {
			return resp, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s: %w", name, ctxErr)
		}
		f := classify(err, rec)
		if delivered {
			return nil, brokenError(name, f.err)
		}
		if !f.retryable {
			return nil, named(name, f.err)
		}
		if n >= p.maxRetries {
			return nil, gaveUpError(name, f.err, n+1)
		}
		if err := p.sleep(ctx, p.delay(n, f)); err != nil {
			return nil, fmt.Errorf("%s: waiting to retry: %w", name, err)
		}
	}
}

// named prefixes the provider name unless the error already carries it.
func named(name string, err error) error {
	if _, ok := err.(*APIError); ok {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// brokenError wraps ErrStreamBroken around the cause, naming the provider
// once (an *APIError already names it).
func brokenError(name string, cause error) error {
	if _, ok := cause.(*APIError); ok {
		return fmt.Errorf("%w: %w", ErrStreamBroken, cause)
	}
	return fmt.Errorf("%s: %w: %w", name, ErrStreamBroken, cause)
}

// gaveUpError reports the last failure after the final attempt.
func gaveUpError(name string, cause error, attempts int) error {
	plural := "s"
	if attempts == 1 {
		plural = ""
	}
	if _, ok := cause.(*APIError); ok {
		return fmt.Errorf("%w (gave up after %d attempt%s)", cause, attempts, plural)
	}
	return fmt.Errorf("%s: %w (gave up after %d attempt%s)", name, cause, attempts, plural)
}

// delay is the server's Retry-After when given, else exponential backoff
// with "equal jitter" (half fixed, half random), both capped at maxDelay.
func (p retryPolicy) delay(n int, f failure) time.Duration {
	if f.hasAfter {
		return min(max(f.retryAfter, 0), p.maxDelay)
	}
	d := p.base
	for i := 0; i < n && d < p.maxDelay; i++ {
		d *= 2
	}
	d = min(d, p.maxDelay)
	half := d / 2
	return half + time.Duration(p.jitter()*float64(d-half))
}

// retryAfter reads retry-after-ms (milliseconds) or Retry-After (seconds or
// an HTTP date) from h.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return clampDuration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return clampDuration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// clampDuration converts nanoseconds to a Duration without overflowing on
// absurd header values (the delay is capped later anyway).
func clampDuration(ns float64) time.Duration {
	const limit = float64(24 * time.Hour)
	if ns > limit {
		return time.Duration(limit)
	}
	return time.Duration(ns)
}
