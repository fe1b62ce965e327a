package provider

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// sensitiveHeaders never reach the debug log with their values.
var sensitiveHeaders = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "X-Api-Key": true,
	"Api-Key": true, "X-Goog-Api-Key": true, "Cookie": true, "Set-Cookie": true,
}

// debugLog writes HTTP exchanges to a writer: request line, headers and
// body, then status, headers and the response body as the SDK reads it
// (so SSE streams appear live). Auth headers are masked and the key is
// removed from everything written. Safe for concurrent use.
type debugLog struct {
	mu  sync.Mutex
	w   io.Writer
	key string
}

func newDebugLog(w io.Writer, key string) *debugLog {
	return &debugLog{w: w, key: key}
}

func (d *debugLog) write(s string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, _ = io.WriteString(d.w, redact(s, d.key))
}

func (d *debugLog) middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	var b strings.Builder
	fmt.Fprintf(&b, ">>> %s %s\n", req.Method, req.URL)
	writeHeaders(&b, req.Header)
	b.WriteString("\n")
	b.Write(requestBody(req))
	b.WriteString("\n\n")
	d.write(b.String())

	res, err := next(req)
	if err != nil {
		d.write(fmt.Sprintf("<<< error: %v\n\n", err))
		return res, err
	}
	b.Reset()
	fmt.Fprintf(&b, "<<< %s\n", res.Status)
	writeHeaders(&b, res.Header)
	b.WriteString("\n")
	d.write(b.String())
	res.Body = &debugBody{rc: res.Body, log: d}
	return res, nil
}

// requestBody copies the body without consuming it.
func requestBody(req *http.Request) []byte {
	if req.GetBody != nil {
		rc, err := req.GetBody()
		if err != nil {
			return nil
		}
		defer rc.Close()
		b, _ := io.ReadAll(rc)
		return b
	}
	if req.Body == nil || req.Body == http.NoBody {
		return nil
	}
	b, _ := io.ReadAll(req.Body)
	_ = req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(b))
	return b
}

func writeHeaders(b *strings.Builder, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			if sensitiveHeaders[http.CanonicalHeaderKey(k)] {
				v = "[REDACTED]"
			}
			fmt.Fprintf(b, "%s: %s\n", k, v)
		}
	}
}

// debugBody copies what the SDK reads to the log, a whole line at a time so
// a key can never be split across two writes and escape redaction.
type debugBody struct {
	rc      io.ReadCloser
	log     *debugLog
	pending []byte
	once    sync.Once
}

func (b *debugBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.pending = append(b.pending, p[:n]...)
		if i := bytes.LastIndexByte(b.pending, '\n'); i >= 0 {
			b.log.write(string(b.pending[:i+1]))
			b.pending = append(b.pending[:0], b.pending[i+1:]...)
		}
	}
	if err != nil {
		b.flush(err)
	}
	return n, err
}

func (b *debugBody) Close() error {
	b.flush(nil)
	return b.rc.Close()
}

func (b *debugBody) flush(err error) {
	b.once.Do(func() {
		var s strings.Builder
		s.Write(b.pending)
		if err != nil && err != io.EOF {
			fmt.Fprintf(&s, "\n<<< body error: %v", err)
		}
		s.WriteString("\n<<< end of body\n\n")
		b.log.write(s.String())
		b.pending = nil
	})
}
