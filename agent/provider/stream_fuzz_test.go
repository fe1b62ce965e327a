package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bodyTransport answers every request with one canned response, without a
// network.
type bodyTransport struct {
	status int
	body   []byte
}

func (b bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	h := http.Header{}
	if b.status == http.StatusOK {
		h.Set("Content-Type", "text/event-stream")
	} else {
		h.Set("Content-Type", "application/json")
	}
	return &http.Response{
		Status:     http.StatusText(b.status),
		StatusCode: b.status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(b.body)),
		ContentLength: int64(len(b.body)),
		Request:       req,
	}, nil
}

var fuzzStatuses = []int{200, 200, 200, 200, 429, 500, 400, 529}

// FuzzStream serves arbitrary bytes as the response to a streaming call,
// for the Anthropic and the OpenAI-compatible wire formats, through the
// SDKs into the accumulators. Stream never panics; on success every tool
// call's input is valid JSON and the text and thinking deltas add up to the
// text and thinking of the assembled message; the key (echoed by some
// seeds) never appears in the error nor in the debug log.
func FuzzStream(f *testing.F) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "*.sse"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range fixtures {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		kind := uint8(1) // openai-compatible
		if strings.HasPrefix(filepath.Base(name), "anthropic") {
			kind = 0
		}
		f.Add(kind, data)
	}
	f.Add(uint8(0<<1|0), []byte("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"bad "+testKey+"\"}}\n\n"))
	f.Add(uint8(4<<1|0), []byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down `+testKey+`"}}`))
	f.Add(uint8(6<<1|1), []byte(`{"error":{"message":"Incorrect API key provided: `+testKey+`","type":"invalid_request_error","code":"invalid_api_key"}}`))
	f.Add(uint8(5<<1|1), []byte("<html>502 Bad Gateway</html>"))
	f.Add(uint8(1), []byte("data: [DONE]\n\n"))
	f.Add(uint8(1), []byte(""))

	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		name := NameAnthropic
		if kind&1 == 1 {
			name = NameOpenAICompatible
		}
		status := fuzzStatuses[int(kind>>1)%len(fuzzStatuses)]
		streamFuzzCase(t, name, "http://127.0.0.1:9/v1", status, body, false)
	})
}

// streamFuzzCase streams body, served with status, through provider name
// at apiURL and checks what FuzzStream and FuzzGeminiStream promise: the
// key never in the debug log nor the error; no answer for an HTTP error;
// on success, valid tool input and deltas that add up to the message's
// text and thinking. strict also wants every tool call to have an id and
// the deltas to equal the message's text, not only its length.
func streamFuzzCase(t *testing.T, name, apiURL string, status int, body []byte, strict bool) {
	t.Helper()
	var log bytes.Buffer
	p, err := New(Config{
		Provider:   name,
		APIURL:     apiURL,
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
			if !json.Valid(b.Input) || strict && b.ToolCallID == "" {
				t.Fatalf("tool call %q: id %q, input %q", b.ToolName, b.ToolCallID, b.Input)
			}
		default:
			t.Fatalf("unexpected block kind %q", b.Kind)
		}
	}
	same := func(d, m string) bool { return len(d) == len(m) && (!strict || d == m) }
	if d, m := got.text(DeltaText), text.String(); !same(d, m) {
		t.Fatalf("text deltas %q do not add up to the message text %q", d, m)
	}
	if d, m := got.text(DeltaThinking), thinking.String(); !same(d, m) {
		t.Fatalf("thinking deltas %q do not add up to the message thinking %q", d, m)
	}
}
