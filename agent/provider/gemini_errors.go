package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

// geminiStreamError is an {"error": ...} event inside a 200 stream.
type geminiStreamError struct{ data []byte }

func (e *geminiStreamError) Error() string { return "error event in the stream" }

// googleError is the error object of Google APIs:
//
//	{"error": {"code": 429, "message": "...", "status": "RESOURCE_EXHAUSTED",
//	  "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "34s"}]}}
//
// streamGenerateContent without alt=sse, and some proxies, wrap it in a
// one-element array.
type googleError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
	Details []struct {
		Type       string `json:"@type"`
		RetryDelay string `json:"retryDelay"`
		Reason     string `json:"reason"`
	} `json:"details"`
}

func parseGoogleError(body []byte) (googleError, bool) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(body, &arr) != nil || len(arr) == 0 {
			return googleError{}, false
		}
		body = arr[0]
	}
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	var ge googleError
	if json.Unmarshal(body, &env) != nil || len(env.Error) == 0 || json.Unmarshal(env.Error, &ge) != nil {
		return googleError{}, false
	}
	return ge, true
}

// retryDelay reads RetryInfo's delay ("34s", "3.957525076s"), which is
// how the API says when to come back; it sends no Retry-After.
func (ge googleError) retryDelay() (time.Duration, bool) {
	for _, d := range ge.Details {
		if !strings.HasSuffix(d.Type, "google.rpc.RetryInfo") {
			continue
		}
		if v, err := time.ParseDuration(strings.TrimSpace(d.RetryDelay)); err == nil && v >= 0 {
			return v, true
		}
	}
	return 0, false
}

func (ge googleError) reason() string {
	for _, d := range ge.Details {
		if d.Reason != "" {
			return d.Reason
		}
	}
	return ""
}

// geminiTransient are the statuses of an error event worth retrying.
var geminiTransient = map[string]bool{
	"RESOURCE_EXHAUSTED": true, "UNAVAILABLE": true, "INTERNAL": true, "DEADLINE_EXCEEDED": true,
}

// geminiAPIError builds the APIError for an error response (status > 0)
// or an error event (status 0), with the server's delay when it gave one.
// Type follows the other providers' names by status; Code is Google's
// status ("RESOURCE_EXHAUSTED", "INVALID_ARGUMENT").
func geminiAPIError(status int, h http.Header, body []byte, key string, now time.Time) (*APIError, time.Duration, bool) {
	ge, ok := parseGoogleError(body)
	if !ok {
		if status == 0 {
			ae := streamAPIError(NameGemini, body)
			ae.scrub(key)
			return ae, 0, false
		}
		ae := apiErrorFromBody(NameGemini, status, h, body, key)
		after, has := retryAfter(h, now)
		return ae, after, has
	}
	code := status
	if code == 0 {
		code = ge.Code
	}
	ae := &APIError{Provider: NameGemini, StatusCode: status, Type: typeForStatus(code), Code: ge.Status, Message: ge.Message}
	if ge.reason() == "API_KEY_INVALID" {
		// The API answers a wrong key with 400 INVALID_ARGUMENT.
		ae.Type = "authentication_error"
	}
	if ae.Message == "" {
		ae.Message = http.StatusText(code)
	}
	if status > 0 {
		ae.Retryable = retryableStatus(status, h)
	} else {
		ae.Retryable = code == http.StatusTooManyRequests || code >= 500 || geminiTransient[ge.Status]
	}
	ae.classifyOverflow()
	ae.scrub(key)
	after, has := retryAfter(h, now)
	if !has {
		after, has = ge.retryDelay()
	}
	return ae, after, has
}

// classify turns an attempt's error into a failure: Google's error shape
// for HTTP errors and error events, the shared rules for the rest.
func (p *geminiProvider) classify(err error, rec *recorder) failure {
	now := p.w.retry.now()
	if rec.status >= 400 {
		ae, after, has := geminiAPIError(rec.status, rec.header, rec.body, p.w.key, now)
		return failure{err: ae, retryable: ae.Retryable, retryAfter: after, hasAfter: has && ae.Retryable}
	}
	if se, ok := errors.AsType[*geminiStreamError](err); ok {
		ae, after, has := geminiAPIError(0, nil, se.data, p.w.key, now)
		return failure{err: ae, retryable: ae.Retryable, retryAfter: after, hasAfter: has && ae.Retryable}
	}
	if ae, ok := errors.AsType[*APIError](err); ok {
		ae.scrub(p.w.key)
		return failure{err: ae, retryable: ae.Retryable}
	}
	noStreamErr := func(error) (*APIError, bool) { return nil, false }
	return classify(NameGemini, p.w.key, now, err, rec, noStreamErr)
}
