package provider

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/parleyhq/parley/internal/syncbuf"
)

func TestDebugLogsBodiesWithoutKey(t *testing.T) {
	tests := []struct {
		name, fixture, authHeader string
		wantInBody                []string
	}{
		{NameAnthropic, "anthropic_text.sse", "X-Api-Key: [REDACTED]", []string{"event: message_start", `"text_delta"`, "event: message_stop"}},
		{NameOpenAI, "openai_text.sse", "Authorization: [REDACTED]", []string{`"chat.completion.chunk"`, "data: [DONE]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log syncbuf.Buffer
			f := newFakeAPI(t,
				errorResponse(429, `{"error":{"message":"slow down `+testKey+`","type":"rate_limit_error"}}`),
				sse(t, tt.fixture))
			p, _ := newTestProvider(t, tt.name, f, func(c *Config) { c.Debug = &log })
			req := simpleRequest()
			req.System = "system prompt marker"
			if _, err := p.Stream(context.Background(), req, nil); err != nil {
				t.Fatal(err)
			}
			out := log.String()
			if strings.Contains(out, testKey) {
				t.Fatalf("debug output contains the key:\n%s", out)
			}
			want := append([]string{">>> POST ", "system prompt marker", "<<< 429", "slow down [REDACTED]", "<<< 200", tt.authHeader}, tt.wantInBody...)
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("debug output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// A key split across reads is still redacted: the body is logged by line.
func TestDebugBodyRedactsAcrossReads(t *testing.T) {
	var log syncbuf.Buffer
	d := newDebugLog(&log, testKey)
	body := &debugBody{rc: io.NopCloser(iotest.OneByteReader(strings.NewReader("data: " + testKey + "\ntail " + testKey))), log: d}
	if _, err := io.ReadAll(body); err != nil {
		t.Fatal(err)
	}
	_ = body.Close()
	out := log.String()
	if strings.Contains(out, testKey) || strings.Count(out, "[REDACTED]") != 2 || !strings.Contains(out, "end of body") {
		t.Errorf("log = %q", out)
	}
}

// One Provider serves concurrent Streams, sharing the debug writer.
func TestConcurrentStreams(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		var log syncbuf.Buffer
		f := newFakeAPI(t, sse(t, pc.ok))
		p, _ := newTestProvider(t, pc.name, f, func(c *Config) { c.Debug = &log })
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var got collect
				resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
				if err == nil && (got.text(DeltaText) != "Hello, world!" || resp.Message.Blocks[0].Text != "Hello, world!") {
					err = io.ErrUnexpectedEOF
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		if n := strings.Count(log.String(), "<<< end of body"); n != 8 {
			t.Errorf("%d bodies logged, want 8", n)
		}
	})
}
