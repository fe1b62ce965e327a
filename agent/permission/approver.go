package permission

import (
	"context"

	"github.com/parleyhq/parley/agent/access"
)

// Answer is the user's reply to an approval question.
type Answer uint8

const (
	Deny Answer = iota
	AllowOnce
	// AllowSession allows this call and every later call in the session
	// that the same rule would cover (the Policy remembers it).
	AllowSession
)

// Approver asks the user about one call: in the terminal a prompt, in the
// editor window/showMessageRequest. A nil Approver means the run is
// non-interactive: whatever would need a question is denied.
type Approver interface {
	Approve(ctx context.Context, tool string, a access.Access) (Answer, error)
}
