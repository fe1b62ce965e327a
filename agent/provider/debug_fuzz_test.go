package provider

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// chunkReader returns data in reads of at most n bytes.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n, len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// FuzzDebugBody logs a response body that contains the API key, read in
// chunks of any size: the log holds exactly the body with every copy of
// the key redacted, however the reads split it.
func FuzzDebugBody(f *testing.F) {
	f.Add([]byte("data: {\"x\":1}\n\ndata: [DONE]\n"), "test-SECRET", uint8(1), uint16(3))
	f.Add([]byte("event: error\ndata: {\"error\":{\"message\":\"bad key \"}}\n"), "abcdefghij", uint8(7), uint16(48))
	f.Add([]byte("no newline at all"), "0123456789", uint8(255), uint16(5))
	f.Add([]byte{}, "k", uint8(0), uint16(0))
	f.Fuzz(func(t *testing.T, body []byte, tail string, chunk uint8, pos uint16) {
		key, ok := fuzzKey(tail)
		if !ok {
			return
		}
		at := int(pos) % (len(body) + 1)
		full := string(body[:at]) + key + string(body[at:])
		var log bytes.Buffer
		d := newDebugLog(&log, key)
		b := &debugBody{rc: io.NopCloser(&chunkReader{data: []byte(full), n: int(chunk)%64 + 1}), log: d}
		got, err := io.ReadAll(b)
		if err != nil || string(got) != full {
			t.Fatalf("read %q, %v; want %q", got, err, full)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		want := redact(full, key) + "\n<<< end of body\n\n"
		if out := log.String(); out != want {
			t.Fatalf("log = %q\nwant %q", out, want)
		}
		if strings.Contains(log.String(), key) {
			t.Fatalf("log contains the key")
		}
	})
}
