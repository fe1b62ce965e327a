package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzGeminiStream serves arbitrary bytes as the answer to a Gemini
// streaming call, through the SSE reader and the accumulator. As for
// FuzzStream: Stream never panics; on success every tool call has an id
// and valid JSON input, and the text and thinking deltas add up to the
// assembled message's; the key (echoed by some seeds) never reaches the
// error nor the debug log.
func FuzzGeminiStream(f *testing.F) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "gemini_*.sse"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range fixtures {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), data)
	}
	f.Add(uint8(0), []byte("data: {\"error\":{\"code\":500,\"message\":\"bad "+testKey+"\",\"status\":\"INTERNAL\"}}\r\n\r\n"))
	f.Add(uint8(1), []byte(googleErrorBody(429, "RESOURCE_EXHAUSTED", "slow "+testKey, `{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1e99s"}`)))
	f.Add(uint8(3), []byte(`[{"error":{"code":400,"message":"API key not valid `+testKey+`","status":"INVALID_ARGUMENT"}}]`))
	f.Add(uint8(2), []byte("<html>502 Bad Gateway</html>"))
	f.Add(uint8(0), []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"x\",\"args\":null}},{\"text\":\"\",\"thoughtSignature\":\"s\"}]},\"finishReason\":\"STOP\"}]}\n\n"))
	f.Add(uint8(0), []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\ndata: {\"x\":1}\n\n"))
	f.Add(uint8(0), []byte(""))

	statuses := []int{200, 429, 500, 400}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		status := statuses[int(kind)%len(statuses)]
		var log bytes.Buffer
		p, err := New(Config{
			Provider:   NameGemini,
			APIURL:     "http://127.0.0.1:9",
			APIKey:     testKey,
			Model:      "test-model",
			HTTPClient: &http.Client{Transport: bodyTransport{status: status, body: body}},
			Debug:      &log,
			MaxRetries: -1,
			sleep:      func(ctx context.Context, d time.Duration) error { return nil },
			now:        func() time.Time { return fixedNow },
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var got collect
		resp, err := p.Stream(ctx, simpleRequest(), got.add)
		if strings.Contains(log.String(), testKey) {
			t.Fatalf("debug log contains the key:\n%s", log.String())
		}
		if err != nil {
			if strings.Contains(err.Error(), testKey) {
				t.Fatalf("error contains the key: %v", err)
			}
			return
		}
		if status != http.StatusOK {
			t.Fatalf("HTTP %d answered with a response: %+v", status, resp)
		}
		var text, thinking strings.Builder
		for _, b := range resp.Message.Blocks {
			switch b.Kind {
			case BlockText:
				text.WriteString(b.Text)
			case BlockThinking:
				thinking.WriteString(b.Text)
			case BlockToolUse:
				if b.ToolCallID == "" || !json.Valid(b.Input) {
					t.Fatalf("tool call %q: id %q, input %q", b.ToolName, b.ToolCallID, b.Input)
				}
			default:
				t.Fatalf("unexpected block kind %q", b.Kind)
			}
		}
		if d, m := got.text(DeltaText), text.String(); d != m {
			t.Fatalf("text deltas %q do not add up to the message text %q", d, m)
		}
		if d, m := got.text(DeltaThinking), thinking.String(); d != m {
			t.Fatalf("thinking deltas %q do not add up to the message thinking %q", d, m)
		}
	})
}
