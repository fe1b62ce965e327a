package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

// decodes counts countedString decodings.
var decodes atomic.Int32

// countedString counts how often it is decoded from JSON.
type countedString string

func (c *countedString) UnmarshalJSON(b []byte) error {
	decodes.Add(1)
	var s string
	err := json.Unmarshal(b, &s)
	*c = countedString(s)
	return err
}

type countedParams struct {
	S countedString `json:"s"`
	N int           `json:"n,omitempty" jsonschema:"maximum=3"`

	seen string // set by describe, read by run
}

var countedTool = New(Spec{Name: "counted", Description: "counts decodes", ReadOnly: true},
	func(_ *Env, p *countedParams) (access.Access, error) {
		if p.S == "bad" {
			return access.Access{}, inputErrorf("s must not be %q", p.S)
		}
		p.seen = "described " + string(p.S)
		return access.Access{Kind: access.Read, Summary: "count " + string(p.S)}, nil
	},
	func(_ context.Context, _ *Env, p *countedParams) (*Result, error) {
		return &Result{Content: p.seen}, nil
	})

// TestNewDecodesOnce: a call's input is decoded once, in Prepare; the
// params describe completed reach run; Access has no further cost.
func TestNewDecodesOnce(t *testing.T) {
	decodes.Store(0)
	c, err := countedTool.Prepare(&Env{}, json.RawMessage(`{"s":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Access(); a.Kind != access.Read || a.Summary != "count x" {
		t.Errorf("Access = %+v", a)
	}
	c.Access()
	res, err := c.Run(t.Context())
	if err != nil || res.Content != "described x" {
		t.Errorf("Run = %+v, %v", res, err)
	}
	if n := decodes.Load(); n != 1 {
		t.Errorf("the input was decoded %d times, want 1", n)
	}
}

// TestNewErrors: decoding and describe errors come back from Prepare
// unchanged, as the model-facing *jsonschema.InputError.
func TestNewErrors(t *testing.T) {
	for _, tt := range []struct{ input, want string }{
		{`{}`, `invalid input: missing required field "s"`},
		{`{"s":"x","n":4}`, `invalid input: field "n" must be at most 3, got 4`},
		{`{"s":"x","m":1}`, `invalid input: unknown field "m" (allowed: s, n)`},
		{`{"s":"bad"}`, `invalid input: s must not be "bad"`},
	} {
		c, err := countedTool.Prepare(&Env{}, json.RawMessage(tt.input))
		if _, ok := errors.AsType[*jsonschema.InputError](err); !ok || c != nil || err.Error() != tt.want {
			t.Errorf("Prepare(%s) = %v, %v; want the InputError %q", tt.input, c, err, tt.want)
		}
		_, decodeErr := jsonschema.Decode[countedParams](json.RawMessage(tt.input))
		if decodeErr != nil && !strings.Contains(err.Error(), decodeErr.Error()) {
			t.Errorf("Prepare(%s) = %v; Decode says %v", tt.input, err, decodeErr)
		}
	}
}
