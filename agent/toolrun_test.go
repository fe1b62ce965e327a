package agent

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// countedInput is a string that counts how often it is decoded.
type countedInput string

var inputDecodes atomic.Int32

func (c *countedInput) UnmarshalJSON(b []byte) error {
	inputDecodes.Add(1)
	return json.Unmarshal(b, (*string)(c))
}

type countedParams struct {
	S countedInput `json:"s"`
}

// checkedPolicy allows everything and records the accesses it judged.
type checkedPolicy struct{ seen []access.Access }

func (p *checkedPolicy) Check(_ context.Context, _ permission.Approver, _ string, _ bool, a access.Access) (bool, string, error) {
	p.seen = append(p.seen, a)
	return true, "", nil
}

// TestToolInputDecodedOnce runs calls of a tool built by tools.New through
// the loop: the input is decoded once for both the permission check and
// the run, and a model mistake reads as it always has.
func TestToolInputDecodedOnce(t *testing.T) {
	counted := tools.New(tools.Spec{Name: "counted", Description: "counts", ReadOnly: true},
		func(_ *tools.Env, p *countedParams) (access.Access, error) {
			return access.Access{Kind: access.Read, Summary: "count " + string(p.S)}, nil
		},
		func(_ context.Context, _ *tools.Env, p *countedParams) (*tools.Result, error) {
			return &tools.Result{Content: "ran with " + string(p.S)}, nil
		})
	reg, err := tools.NewRegistry(tools.FileTools()...)
	if err != nil {
		t.Fatal(err)
	}
	readFile, _ := reg.Get("read_file")
	p := newScripted(callTools(
		use("a", "counted", `{"s":"x"}`),
		use("b", "counted", `{}`),
		use("c", "read_file", `{"path":"a.go"}`),
		use("d", "read_file", `{"path":"a.go","bogus":1}`),
	), say("done"))
	a, _ := newTestAgent(t, p, counted, readFile)
	policy := &checkedPolicy{}
	a.Policy = policy
	inputDecodes.Store(0)
	s := NewSession()
	if _, err := a.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	if n := inputDecodes.Load(); n != 1 {
		t.Errorf("the valid call's input was decoded %d times, want 1", n)
	}
	if len(policy.seen) != 1 || policy.seen[0].Summary != "count x" {
		t.Errorf("the policy judged %+v", policy.seen)
	}
	want := []struct {
		isErr bool
		text  string
	}{
		{false, "ran with x"},
		{true, `invalid call of counted: invalid input: missing required field "s"`},
		{true, `invalid call of read_file: invalid input: no workspace roots are configured`},
		{true, `invalid call of read_file: invalid input: unknown field "bogus" (allowed: path, start_line, end_line, max_tokens, full)`},
	}
	got := results(s.Messages[2])
	for i, w := range want {
		if got[i].IsError != w.isErr || got[i].Text != w.text {
			t.Errorf("result %d = %+v, want isError=%v %q", i, got[i], w.isErr, w.text)
		}
	}
}

// idApprover records the tool call ID each question arrives with.
type idApprover struct {
	mu  sync.Mutex
	ids []string
}

func (a *idApprover) Approve(ctx context.Context, _ string, _ access.Access) (permission.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ids = append(a.ids, ToolCallID(ctx))
	return permission.AllowOnce, nil
}

// TestToolCallIDInContext: a front end that shows calls by ID (ACP) finds
// the call a permission question or a running tool belongs to in its
// context.
func TestToolCallIDInContext(t *testing.T) {
	var mu sync.Mutex
	ran := map[string]string{}
	tool := func(name string, readOnly bool) *fakeTool {
		return &fakeTool{name: name, readOnly: readOnly, run: func(ctx context.Context, _ json.RawMessage) (*tools.Result, error) {
			mu.Lock()
			ran[name] = ToolCallID(ctx)
			mu.Unlock()
			return &tools.Result{Content: "ok"}, nil
		}}
	}
	p := newScripted(callTools(use("r1", "look", `{}`), use("w1", "write", `{}`), use("w2", "edit", `{}`)), say("done"))
	a, _ := newTestAgent(t, p, tool("look", true), tool("write", false), tool("edit", false))
	pol, err := permission.New(permission.ModeDefault, permission.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	ap := &idApprover{}
	a.Policy, a.Approver = pol, ap
	if _, err := a.Run(context.Background(), NewSession(), "go"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"w1", "w2"}; !slices.Equal(ap.ids, want) {
		t.Errorf("questions came with IDs %q, want %q", ap.ids, want)
	}
	if want := map[string]string{"look": "r1", "write": "w1", "edit": "w2"}; !maps.Equal(ran, want) {
		t.Errorf("tools ran with IDs %v, want %v", ran, want)
	}
	if id := ToolCallID(context.Background()); id != "" {
		t.Errorf("ToolCallID outside a call = %q", id)
	}
}
