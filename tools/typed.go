package tools

import (
	"context"
	"encoding/json"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

// Spec is what a tool tells the model and the loop about itself.
type Spec struct {
	Name string
	// Description is the model-facing text (the tool's embedded .md).
	Description string
	// ReadOnly: see Tool.ReadOnly.
	ReadOnly bool
}

// New builds a Tool whose input is the params struct P: its schema is
// derived from P (jsonschema.For, which panics at package initialisation
// on an unsupported struct), and each call's input is decoded into a P
// once, in Prepare, with jsonschema.Decode. describe validates the decoded
// params beyond what the schema says and describes the call for the
// permission policy; it may complete *p with what it derives (a resolved
// path, a parsed command) for run. run performs the call with the same *p.
// Errors from decoding and from describe are the model's mistakes.
func New[P any](spec Spec, describe func(env *Env, p *P) (access.Access, error), run func(ctx context.Context, env *Env, p *P) (*Result, error)) Tool {
	return &typedTool[P]{spec: spec, schema: jsonschema.For[P](), describe: describe, run: run}
}

type typedTool[P any] struct {
	spec     Spec
	schema   json.RawMessage
	describe func(*Env, *P) (access.Access, error)
	run      func(context.Context, *Env, *P) (*Result, error)
}

func (t *typedTool[P]) Name() string            { return t.spec.Name }
func (t *typedTool[P]) Description() string     { return t.spec.Description }
func (t *typedTool[P]) Schema() json.RawMessage { return t.schema }
func (t *typedTool[P]) ReadOnly() bool          { return t.spec.ReadOnly }

func (t *typedTool[P]) Prepare(env *Env, input json.RawMessage) (Call, error) {
	p, err := jsonschema.Decode[P](input)
	if err != nil {
		return nil, err
	}
	a, err := t.describe(env, &p)
	if err != nil {
		return nil, err
	}
	return &typedCall[P]{tool: t, env: env, p: &p, access: a}, nil
}

// typedCall is a prepared call of a typedTool.
type typedCall[P any] struct {
	tool   *typedTool[P]
	env    *Env
	p      *P
	access access.Access
}

func (c *typedCall[P]) Access() access.Access { return c.access }

func (c *typedCall[P]) Run(ctx context.Context) (*Result, error) {
	return c.tool.run(ctx, c.env, c.p)
}
