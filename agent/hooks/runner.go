package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/config"
)

// Outcomes of one hook run, in Report.Outcome.
const (
	OutcomeOK      = "ok"
	OutcomeBlocked = "blocked" // exit 2 or a block/deny answer
	OutcomeFailed  = "failed"  // another exit status, a crash or an unreadable answer
	OutcomeTimeout = "timeout" // killed at its timeout
	OutcomeRefused = "refused" // a workspace hook the user has not approved
)

// Report says how one hook run went, for the front end to show.
type Report struct {
	Event    Event         `json:"event"`
	Command  string        `json:"command"`
	Source   string        `json:"source"`
	Outcome  string        `json:"outcome"`
	ExitCode int           `json:"exitCode"`
	Message  string        `json:"message,omitempty"`
	Duration time.Duration `json:"-"`
	// DurationMS is Duration in milliseconds, for JSON.
	DurationMS int64 `json:"durationMs"`
}

// Result is the combined answer of an event's hooks.
type Result struct {
	// Block: the hooks refused what the event is about (the prompt, the
	// tool call, the end of the turn); Reason says why, for the model.
	Block  bool
	Reason string
	// Decision is a PreToolUse or PermissionRequest verdict: "allow",
	// "ask", "deny" or "" (no opinion).
	Decision string
	// UpdatedInput replaces the tool call's input (PreToolUse).
	UpdatedInput json.RawMessage
	// Context is text the hooks add for the model.
	Context []string
	// Stop ends the turn (continue: false) with StopReason for the user.
	Stop       bool
	StopReason string
}

// Runner runs configured hooks. It is read-only after New and safe for
// concurrent use.
type Runner struct {
	root      string
	hooks     []hook
	approvals *Approvals
}

type hook struct {
	config.Hook
	match func(string) bool
	key   string
}

// New compiles hs for the workspace root. Workspace hooks run only when
// approvals (which may be nil: none approved) holds their key.
func New(hs []config.Hook, root string, approvals *Approvals) (*Runner, error) {
	r := &Runner{root: root, approvals: approvals}
	for _, h := range hs {
		m, err := config.CompileHookMatcher(h.Matcher)
		if err != nil {
			return nil, fmt.Errorf("hook %s from %s: %w", h.Event, h.Source, err)
		}
		r.hooks = append(r.hooks, hook{Hook: h, match: m, key: Key(root, h)})
	}
	return r, nil
}

// Has reports whether any hook is configured for ev. A nil Runner has none.
func (r *Runner) Has(ev Event) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Event == ev {
			return true
		}
	}
	return false
}

// Unapproved lists the workspace hooks the user has not approved yet.
func (r *Runner) Unapproved() []config.Hook {
	if r == nil {
		return nil
	}
	var out []config.Hook
	for _, h := range r.hooks {
		if h.Workspace && !r.approvals.Approved(h.key) {
			out = append(out, h.Hook)
		}
	}
	return out
}

// Root is the directory hooks run in.
func (r *Runner) Root() string { return r.root }

// Run runs the hooks of in.HookEventName whose matcher accepts the event
// (in order) and combines their answers. report (may be nil) hears of
// every hook that ran or was refused. in.Cwd defaults to the root. A nil
// Runner returns an empty Result.
func (r *Runner) Run(ctx context.Context, in Input, report func(Report)) Result {
	var res Result
	if r == nil {
		return res
	}
	if in.Cwd == "" {
		in.Cwd = r.root
	}
	var payload []byte
	for _, h := range r.hooks {
		if h.Event != in.HookEventName || !h.matches(in.matchKey()) {
			continue
		}
		rep := Report{Event: h.Event, Command: h.Command, Source: h.Source, ExitCode: -1}
		if h.Workspace && !r.approvals.Approved(h.key) {
			rep.Outcome = OutcomeRefused
			rep.Message = fmt.Sprintf("not run: hooks from %s need your approval once (run `parley hooks approve` in the workspace)", h.Source)
			if report != nil {
				report(rep)
			}
			continue
		}
		if payload == nil {
			var err error
			if payload, err = json.Marshal(in); err != nil {
				// Only a tool input that is not valid JSON gets here.
				rep.Outcome, rep.Message = OutcomeFailed, fmt.Sprintf("not run: event input: %v", err)
				if report != nil {
					report(rep)
				}
				return res
			}
		}
		start := time.Now()
		x := execHook(ctx, h.Command, r.root, r.env(), payload, time.Duration(h.Timeout*float64(time.Second)))
		rep.Duration = time.Since(start)
		rep.DurationMS = rep.Duration.Milliseconds()
		rep.ExitCode = x.exitCode
		rep.Outcome, rep.Message = res.absorb(in.HookEventName, x, h.Timeout)
		if report != nil {
			report(rep)
		}
	}
	return res
}

// env is what hooks find in their environment besides ours: the project
// directory under Claude Code's name, which existing hooks use.
func (r *Runner) env() []string {
	return []string{"CLAUDE_PROJECT_DIR=" + r.root, "PARLEY_PROJECT_DIR=" + r.root}
}

// absorb folds one hook's answer into res and says how the hook went.
func (res *Result) absorb(ev Event, x execResult, timeout float64) (outcome, msg string) {
	switch {
	case x.timedOut:
		return OutcomeTimeout, fmt.Sprintf("killed after its %gs timeout", timeout)
	case x.err != nil:
		return OutcomeFailed, x.err.Error()
	case x.exitCode == 2:
		reason := strings.TrimSpace(string(x.stderr))
		if reason == "" {
			reason = "blocked by a hook"
		}
		res.block(reason)
		if ev == config.HookPreToolUse || ev == config.HookPermissionRequest {
			res.decide("deny")
		}
		return OutcomeBlocked, reason
	case x.exitCode != 0:
		return OutcomeFailed, fmt.Sprintf("exit status %d: %s", x.exitCode, firstLine(string(x.stderr)))
	}
	out := bytes.TrimSpace(x.stdout)
	if len(out) == 0 || out[0] != '{' {
		if len(out) > 0 && (ev == config.HookUserPromptSubmit || ev == config.HookSessionStart) {
			res.Context = append(res.Context, string(out))
		}
		return OutcomeOK, ""
	}
	var o Output
	if err := json.Unmarshal(out, &o); err != nil {
		return OutcomeFailed, fmt.Sprintf("unreadable JSON answer: %v", err)
	}
	return res.apply(ev, &o)
}

// apply folds a JSON answer into res.
func (res *Result) apply(ev Event, o *Output) (outcome, msg string) {
	outcome = OutcomeOK
	if o.Continue != nil && !*o.Continue {
		res.Stop = true
		res.StopReason = o.StopReason
		outcome, msg = OutcomeBlocked, o.StopReason
	}
	switch o.Decision {
	case "block":
		res.block(o.Reason)
		if ev == config.HookPreToolUse {
			res.decide("deny")
		}
		outcome, msg = OutcomeBlocked, o.Reason
	case "approve":
		res.decide("allow")
	case "":
	default:
		return OutcomeFailed, fmt.Sprintf("unknown decision %q (want block or approve)", o.Decision)
	}
	h := o.HookSpecificOutput
	if h == nil {
		return outcome, msg
	}
	if h.AdditionalContext != "" {
		res.Context = append(res.Context, h.AdditionalContext)
	}
	if len(h.UpdatedInput) > 0 {
		res.UpdatedInput = h.UpdatedInput
	}
	switch h.PermissionDecision {
	case "allow", "ask":
		res.decide(h.PermissionDecision)
	case "deny":
		res.decide("deny")
		res.block(h.PermissionDecisionReason)
		outcome, msg = OutcomeBlocked, h.PermissionDecisionReason
	case "":
	default:
		return OutcomeFailed, fmt.Sprintf("unknown permissionDecision %q (want allow, deny or ask)", h.PermissionDecision)
	}
	if d := h.Decision; d != nil {
		if len(d.UpdatedInput) > 0 {
			// The policy judged the call as the model made it; running
			// another input would skip that judgement.
			return OutcomeFailed, "updatedInput in a PermissionRequest answer is not supported (the permission check already judged the original input); change the input in a PreToolUse hook"
		}
		switch d.Behavior {
		case "allow":
			res.decide("allow")
		case "deny":
			res.decide("deny")
			res.block(d.Message)
			outcome, msg = OutcomeBlocked, d.Message
		default:
			return OutcomeFailed, fmt.Sprintf("unknown decision.behavior %q (want allow or deny)", d.Behavior)
		}
	}
	return outcome, msg
}

func (res *Result) block(reason string) {
	res.Block = true
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "blocked by a hook"
	}
	if res.Reason == "" {
		res.Reason = reason
	} else if !strings.Contains(res.Reason, reason) {
		res.Reason += "; " + reason
	}
}

// decide keeps the strongest verdict: deny over ask over allow.
func (res *Result) decide(d string) {
	rank := map[string]int{"": 0, "allow": 1, "ask": 2, "deny": 3}
	if rank[d] > rank[res.Decision] {
		res.Decision = d
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
