package permission

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/agent/access"
)

type countingApprover struct{ n int }

// callKey carries a test's tool call ID, as agent.ToolCallID's key does.
type callKey struct{}

func callID(ctx context.Context) string {
	id, _ := ctx.Value(callKey{}).(string)
	return id
}

func (c *countingApprover) Approve(context.Context, string, access.Access) (Answer, error) {
	c.n++
	return AllowOnce, nil
}

// An edit is left pending exactly when the policy would ask about it; the
// policy's other verdicts hold at once, and nothing is asked at Check.
func TestDeferred(t *testing.T) {
	edit := access.Access{Kind: access.Edit, Paths: []string{"a.go"}}
	shell := access.Access{Kind: access.Shell, Command: "make"}
	tests := []struct {
		name        string
		mode        Mode
		rules       Rules
		acc         access.Access
		noApprover  bool
		noCallID    bool
		wantRun     bool
		wantFound   bool
		wantPending bool
		wantAsked   int
	}{
		{"default mode leaves an edit pending", ModeDefault, Rules{}, edit, false, false, true, true, true, 0},
		{"an allow rule decides at once", ModeDefault, Rules{Allow: []string{"edit_file(*.go)"}}, edit, false, false, true, true, false, 0},
		{"acceptEdits decides at once", ModeAcceptEdits, Rules{}, edit, false, false, true, true, false, 0},
		{"an ask rule leaves it pending", ModeAcceptEdits, Rules{Ask: []string{"edit_file"}}, edit, false, false, true, true, true, 0},
		{"a deny rule refuses", ModeDefault, Rules{Deny: []string{"edit_file"}}, edit, false, false, false, true, false, 0},
		{"plan mode refuses", ModePlan, Rules{}, edit, false, false, false, true, false, 0},
		{"without an approver the policy decides", ModeDefault, Rules{}, edit, true, false, false, false, false, 0},
		{"other calls are asked at once", ModeDefault, Rules{}, shell, false, false, true, false, false, 1},
		{"an edit outside a tool call is decided at once", ModeDefault, Rules{}, edit, false, true, true, false, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.mode, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			d := NewDeferred(p, callID)
			ap := &countingApprover{}
			var approver Approver = ap
			if tt.noApprover {
				approver = nil
			}
			ctx := context.WithValue(context.Background(), callKey{}, "call-1")
			if tt.noCallID {
				ctx = context.Background()
			}
			run, reason, err := d.Check(ctx, approver, "edit_file", false, tt.acc)
			if err != nil || run != tt.wantRun {
				t.Fatalf("Check = %v (%s), %v; want %v", run, reason, err, tt.wantRun)
			}
			if ap.n != tt.wantAsked {
				t.Errorf("asked %d times, want %d", ap.n, tt.wantAsked)
			}
			call, found := d.Take(ctx)
			if found != tt.wantFound || call.Pending != tt.wantPending {
				t.Errorf("Take = %+v, %v; want pending %v, found %v", call, found, tt.wantPending, tt.wantFound)
			}
			if _, again := d.Take(ctx); again {
				t.Error("Take did not forget the call")
			}
		})
	}
}

// MarkPending turns an edit decided at once into one the front end asks
// about, and EndTurn forgets what no editor took.
func TestDeferredMarkPendingAndEndTurn(t *testing.T) {
	p, err := New(ModeAcceptEdits, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDeferred(p, callID)
	ctx := context.WithValue(context.Background(), callKey{}, "call-1")
	edit := access.Access{Kind: access.Edit, Paths: []string{"a.go"}}
	if run, _, _ := d.Check(ctx, &countingApprover{}, "edit_file", false, edit); !run {
		t.Fatal("acceptEdits refused an edit")
	}
	d.MarkPending(ctx)
	if call, found := d.Take(ctx); !found || !call.Pending || call.Tool != "edit_file" {
		t.Errorf("after MarkPending: %+v, %v", call, found)
	}
	d.Check(ctx, &countingApprover{}, "edit_file", false, edit)
	d.EndTurn()
	if _, found := d.Take(ctx); found {
		t.Error("EndTurn kept a check")
	}
}
