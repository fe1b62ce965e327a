package tools

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/htmlmd"
)

//go:embed desc/fetch_url.md
var fetchURLDescription string

const (
	// fetchMaxBody is the most of a response body read; the rest is cut.
	fetchMaxBody = 2 << 20
	// fetchMaxText is the most text returned to the model.
	fetchMaxText = 100 << 10
	// fetchTimeout bounds a fetch when the client has no timeout of its own.
	fetchTimeout = 30 * time.Second
	// fetchMaxRedirects is how many redirects are followed.
	fetchMaxRedirects = 5
)

// FetchURLParams is the input of fetch_url.
type FetchURLParams struct {
	URL string `json:"url" jsonschema:"description=The http or https address to fetch."`

	u *url.URL // the checked URL
}

// fetchURLTool fetches a web page or text document. It has no side effects
// on the workspace (ReadOnly), but it reaches the network (access.Network),
// which the permission policy treats as its own kind.
var fetchURLTool = New(
	Spec{Name: "fetch_url", Description: fetchURLDescription, ReadOnly: true},
	fetchURLAccess, fetchURLRun)

// checkFetchURL accepts absolute http(s) URLs without credentials.
func checkFetchURL(raw string) (*url.URL, error) {
	if len(raw) > 8192 {
		return nil, errors.New("the URL is longer than 8192 bytes")
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("not a valid URL: %v", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return nil, fmt.Errorf("%q has no scheme: use an http:// or https:// URL", raw)
	default:
		return nil, fmt.Errorf("scheme %q is not allowed: only http and https URLs can be fetched", u.Scheme)
	}
	if u.User != nil {
		return nil, errors.New("URLs with credentials (user:password@) are not allowed")
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%q has no host", raw)
	}
	return u, nil
}

func fetchURLAccess(env *Env, p *FetchURLParams) (access.Access, error) {
	u, err := checkFetchURL(p.URL)
	if err != nil {
		return access.Access{}, inputErrorf("url: %v", err)
	}
	p.u = u
	return access.Access{Kind: access.Network, URL: u.String(), Summary: "fetch " + clipText(u.String(), 200)}, nil
}

func fetchURLRun(ctx context.Context, env *Env, p *FetchURLParams) (*Result, error) {
	u := p.u
	resp, err := fetchGet(ctx, env, u)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return Errorf("fetch %s: %v", u, err), nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBody+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return Errorf("fetch %s: reading the body: %v", u, err), nil
	}
	truncated := len(body) > fetchMaxBody
	if truncated {
		body = body[:fetchMaxBody]
	}
	return fetchResult(resp, body, truncated)
}

// fetchGet sends the request through env.HTTPClient (or a default client)
// with this tool's redirect policy.
func fetchGet(ctx context.Context, env *Env, u *url.URL) (*http.Response, error) {
	client := &http.Client{}
	if env != nil && env.HTTPClient != nil {
		copied := *env.HTTPClient // do not change the caller's client
		client = &copied
	}
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > fetchMaxRedirects {
			return fmt.Errorf("stopped after %d redirects", fetchMaxRedirects)
		}
		if _, err := checkFetchURL(req.URL.String()); err != nil {
			return fmt.Errorf("redirect to %s refused: %v", req.URL.Redacted(), err)
		}
		return nil
	}
	if client.Timeout == 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, fetchTimeout)
		// The body is read after this function returns, so the timer must
		// outlive it: cancel when the body is closed.
		req, err := fetchRequest(ctx, u)
		if err != nil {
			cancel()
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			cancel()
			return nil, err
		}
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
		return resp, nil
	}
	req, err := fetchRequest(ctx, u)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

func fetchRequest(ctx context.Context, u *url.URL) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "parley-fetch/1 (+https://github.com/parleyhq/parley)")
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,text/*;q=0.8,application/json;q=0.8,*/*;q=0.1")
	return req, nil
}

// cancelOnClose releases a request's timeout when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// fetchResult turns a response into what the model sees.
func fetchResult(resp *http.Response, body []byte, truncated bool) (*Result, error) {
	final := resp.Request.URL
	ctype := resp.Header.Get("Content-Type")
	media, _, err := mime.ParseMediaType(ctype)
	if err != nil || media == "" {
		media, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	var head strings.Builder
	fmt.Fprintf(&head, "URL: %s\nStatus: %s\nContent-Type: %s\n", final.Redacted(), resp.Status, media)
	if !textualMedia(media) {
		return Errorf("%s\n%s is binary content (%d bytes read), which fetch_url does not return", head.String(), media, len(body)), nil
	}
	text := decodeCharset(body, ctype)
	if media == "text/html" || media == "application/xhtml+xml" {
		// A page html.Parse rejects (nesting too deep) is returned as it is.
		doc, err := html.Parse(strings.NewReader(text))
		if err == nil {
			title, t, err := htmlmd.Convert(doc, final)
			if err != nil {
				return nil, fmt.Errorf("fetch_url %s: %w", final.Redacted(), err)
			}
			if title != "" {
				fmt.Fprintf(&head, "Title: %s\n", title)
			}
			text = t
		}
	}
	if len(text) > fetchMaxText {
		cut := fetchMaxText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
		truncated = true
	}
	if truncated {
		head.WriteString("Truncated: yes, the document is longer than what is shown\n")
	}
	res := &Result{Content: head.String() + "\n" + text}
	if resp.StatusCode >= 400 {
		res.IsError = true
	}
	return res, nil
}

// textualMedia reports media types returned as text.
func textualMedia(media string) bool {
	if strings.HasPrefix(media, "text/") || strings.HasSuffix(media, "+json") || strings.HasSuffix(media, "+xml") {
		return true
	}
	switch media {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/x-javascript", "application/yaml", "application/x-yaml", "application/toml",
		"application/x-sh", "application/x-httpd-php", "application/sql", "application/graphql",
		"application/x-ndjson", "application/jsonl", "application/x-www-form-urlencoded":
		return true
	}
	return false
}

// decodeCharset converts body to UTF-8 using the declared or sniffed
// charset.
func decodeCharset(body []byte, ctype string) string {
	if enc, name, _ := charset.DetermineEncoding(body, ctype); name != "utf-8" && enc != nil {
		if out, err := enc.NewDecoder().Bytes(body); err == nil {
			return string(out)
		}
	}
	return strings.ToValidUTF8(string(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))), "\uFFFD")
}
