package permission

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/parleyhq/parley/agent/access"
)

// Decision is the policy's verdict on a call. The zero value denies.
type Decision uint8

const (
	DecisionDeny Decision = iota
	DecisionAllow
	DecisionAsk
)

func (d Decision) String() string {
	switch d {
	case DecisionAllow:
		return "allow"
	case DecisionAsk:
		return "ask"
	}
	return "deny"
}

// Policy decides tool calls. Safe for concurrent use.
type Policy struct {
	mode             Mode
	allow, deny, ask []rule

	mu      sync.RWMutex
	session []rule // allowances granted with AllowSession
}

// New validates mode and rules. Every malformed rule is reported, each
// error naming the rule and its list.
func New(mode Mode, rules Rules) (*Policy, error) {
	m, err := ParseMode(string(mode))
	if err != nil {
		return nil, err
	}
	p := &Policy{mode: m}
	var errs []error
	parse := func(list string, texts []string) []rule {
		var out []rule
		for _, t := range texts {
			r, err := parseRule(t)
			if err != nil {
				errs = append(errs, fmt.Errorf("permission %s %w", list, err))
				continue
			}
			out = append(out, r)
		}
		return out
	}
	p.allow = parse("allow", rules.Allow)
	p.deny = parse("deny", rules.Deny)
	p.ask = parse("ask", rules.Ask)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// Mode returns the policy's mode.
func (p *Policy) Mode() Mode { return p.mode }

// Decide judges a call without asking anyone. readOnly is the tool's
// ReadOnly(); a call is a read when its access kind is read (or has no
// kind and the tool is read-only). reason is one sentence for the model
// or the user.
func (p *Policy) Decide(tool string, readOnly bool, a access.Access) (Decision, string) {
	c := newCall(tool, a)
	if r := c.anyMatch(p.deny); r != nil {
		return DecisionDeny, fmt.Sprintf("the permission rule deny %q forbids this call; do not retry it, find another way or ask the user", r.text)
	}
	read := a.Kind == access.Read || (a.Kind == "" && readOnly)
	if p.mode == ModePlan && !read {
		return DecisionDeny, fmt.Sprintf("plan mode is read-only, so %s (%s) was not run; keep investigating with read-only tools and present your plan, and the user will leave plan mode to carry it out", tool, kindWords(a.Kind))
	}
	if r := c.anyMatch(p.ask); r != nil {
		return DecisionAsk, fmt.Sprintf("the permission rule ask %q requires the user's approval", r.text)
	}
	p.mu.RLock()
	allow := slices.Concat(p.allow, p.session)
	p.mu.RUnlock()
	if r := c.allMatch(allow); r != nil {
		return DecisionAllow, fmt.Sprintf("allowed by the permission rule %q", r.text)
	}
	switch {
	case read:
		return DecisionAllow, "reads are allowed"
	case p.mode == ModeBypassPermissions:
		return DecisionAllow, "mode bypassPermissions allows every call"
	case p.mode == ModeAcceptEdits && a.Kind == access.Edit:
		return DecisionAllow, "mode acceptEdits allows edits"
	}
	return DecisionAsk, fmt.Sprintf("mode %s asks before %s", p.mode, kindWords(a.Kind))
}

// Check decides a call and, when the decision is to ask, asks approver.
// A nil approver means nobody can answer: the call is denied with a reason
// that says how to allow it in the configuration. An AllowSession answer
// adds a session rule covering calls of the same kind (see sessionRules).
// err reports a failed approver (including ctx cancellation).
func (p *Policy) Check(ctx context.Context, approver Approver, tool string, readOnly bool, a access.Access) (allowed bool, reason string, err error) {
	d, reason := p.Decide(tool, readOnly, a)
	switch d {
	case DecisionAllow:
		return true, reason, nil
	case DecisionDeny:
		return false, reason, nil
	}
	if approver == nil {
		suggest := tool
		if rs := sessionRules(newCall(tool, a)); len(rs) > 0 {
			suggest = rs[0]
		}
		return false, fmt.Sprintf("%s needs the user's approval (%s), but this run is non-interactive, so it was not run; "+
			"to allow such calls, add %q to permissions.allow in the configuration (.parley/config.json), or choose another permission_mode", tool, reason, suggest), nil
	}
	ans, err := approver.Approve(ctx, tool, a)
	if err != nil {
		return false, "", fmt.Errorf("ask approval for %s: %w", tool, err)
	}
	switch ans {
	case AllowOnce:
		return true, "approved by the user", nil
	case AllowSession:
		p.remember(tool, a)
		return true, "approved by the user for this session", nil
	}
	return false, "the user denied this call; do not retry it unchanged, ask the user what to do instead", nil
}

// SessionRules lists the allowances granted so far, as rule strings.
func (p *Policy) SessionRules() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]string, len(p.session))
	for i, r := range p.session {
		out[i] = r.text
	}
	return out
}

// ForgetSession drops the allowances granted with AllowSession, when the
// front end moves to another session (a new one, or one it resumes).
func (p *Policy) ForgetSession() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.session = nil
}

// remember adds the session rules for a call the user allowed.
func (p *Policy) remember(tool string, a access.Access) {
	c := newCall(tool, a)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, text := range sessionRules(c) {
		if slices.ContainsFunc(p.session, func(r rule) bool { return r.text == text }) {
			continue
		}
		if r, err := parseRule(text); err == nil {
			p.session = append(p.session, r)
		}
	}
}

// kindWords names a kind of call for reasons.
func kindWords(k access.Kind) string {
	switch k {
	case access.Shell:
		return "shell commands"
	case access.Edit:
		return "file edits"
	case access.Git:
		return "git writes"
	case access.Network:
		return "network access"
	case access.Read:
		return "reads"
	}
	return "calls with side effects"
}
