package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// editGate moves the question about an edit from before the tool runs,
// when only its paths are known, to the moment the DiskEditor has computed
// the change, so the user approves the diff that will be written (as VS
// Code's refactor preview shows it) rather than a file name.
//
// It wraps the policy as the agent's Policy. For an edit the policy would
// ask about, Check lets the tool run and remembers the call; the
// DiskEditor's Confirm hook (confirm) then puts the policy's question,
// through the same Policy.Check, to an approver that shows the diff. Rules,
// modes and "allow for this session" thus work as for any other call, and
// an edit is asked about once. Every other call goes to the policy as is.
//
// A check is matched to its edit by context: the agent loop passes a
// call's context (agent.ToolCallID) both to the check and to the tool,
// which hands it to the editor, and runs a turn's mutating calls one at a
// time, each checked right before it runs. An edit with no
// matching check is asked about all the same. Safe for concurrent use.
type editGate struct {
	policy *permission.Policy
	root   string
	style  diffStyle
	tty    asker // nil: nobody to ask; Check decides every edit

	mu    sync.Mutex
	calls map[context.Context]gatedCall // the latest check of each turn
}

// gatedCall is a checked edit call whose question waits for its diff.
type gatedCall struct {
	ask      bool // false: the policy decided without a question
	tool     string
	readOnly bool
	access   access.Access
}

func newEditGate(policy *permission.Policy, root string, style diffStyle) *editGate {
	return &editGate{policy: policy, root: root, style: style, calls: map[context.Context]gatedCall{}}
}

// Check implements agent.Policy.
func (g *editGate) Check(ctx context.Context, ap permission.Approver, tool string, readOnly bool, a access.Access) (bool, string, error) {
	g.mu.Lock()
	delete(g.calls, ctx)
	g.mu.Unlock()
	if a.Kind != access.Edit || ap == nil || g.tty == nil {
		return g.policy.Check(ctx, ap, tool, readOnly, a)
	}
	call := gatedCall{tool: tool, readOnly: readOnly, access: a}
	d, _ := g.policy.Decide(tool, readOnly, a)
	call.ask = d == permission.DecisionAsk
	g.mu.Lock()
	g.calls[ctx] = call
	g.mu.Unlock()
	if call.ask {
		return true, "the user is asked with the diff before anything is written", nil
	}
	return g.policy.Check(ctx, ap, tool, readOnly, a)
}

// confirm is the DiskEditor's Confirm hook.
func (g *editGate) confirm(ctx context.Context, label string, changes []tools.FileChange) (bool, string, error) {
	if g.tty == nil {
		return true, "", nil
	}
	g.mu.Lock()
	call, found := g.calls[ctx]
	g.mu.Unlock()
	if found && !call.ask {
		return true, "", nil
	}
	if !found {
		call = gatedCall{tool: "edit", access: g.accessOf(label, changes)}
	}
	ap := diffApprover{tty: g.tty, diff: renderDiff(changes, g.style)}
	allowed, reason, err := g.policy.Check(ctx, ap, call.tool, call.readOnly, call.access)
	if err != nil || !allowed {
		return false, reason, err
	}
	return true, "", nil
}

// accessOf describes changes for the policy, as an edit tool would.
func (g *editGate) accessOf(label string, changes []tools.FileChange) access.Access {
	a := access.Access{Kind: access.Edit, Summary: label}
	for _, c := range changes {
		for _, p := range []string{c.Path, c.NewPath} {
			if rel, err := filepath.Rel(g.root, p); p != "" && err == nil {
				a.Paths = append(a.Paths, filepath.ToSlash(rel))
			}
		}
	}
	return a
}

// endTurn forgets the turn's checks (sub-agents' included).
func (g *editGate) endTurn() {
	g.mu.Lock()
	defer g.mu.Unlock()
	clear(g.calls)
}

// asker puts a question about a call to the user, with detail (a diff)
// between the question and the answers; *ttyApprover is the one.
type asker interface {
	ask(ctx context.Context, tool string, acc access.Access, detail string) (permission.Answer, error)
}

// diffApprover asks about one edit with its diff.
type diffApprover struct {
	tty  asker
	diff string
}

func (d diffApprover) Approve(ctx context.Context, tool string, acc access.Access) (permission.Answer, error) {
	return d.tty.ask(ctx, tool, acc, d.diff)
}

// ttyApprover asks the user on /dev/tty, one question at a time.
type ttyApprover struct {
	mu  sync.Mutex
	tty *os.File
	out *chatPrinter
}

// openTTYApprover returns nil when there is no controlling terminal.
func openTTYApprover(out *chatPrinter) *ttyApprover {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	return &ttyApprover{tty: f, out: out}
}

func (a *ttyApprover) Close() error { return a.tty.Close() }

func (a *ttyApprover) Approve(ctx context.Context, tool string, acc access.Access) (permission.Answer, error) {
	return a.ask(ctx, tool, acc, "")
}

// ask puts the question about a call, with detail (a diff) between it and
// the answers.
func (a *ttyApprover) ask(ctx context.Context, tool string, acc access.Access, detail string) (permission.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out.breakLine()
	what := acc.Summary
	if what == "" {
		what = strings.Join(append(slices.Clone(acc.Paths), acc.Command, acc.URL), " ")
	}
	fmt.Fprintf(a.tty, "\nAllow %s: %s\n", tool, strings.TrimSpace(what))
	io.WriteString(a.tty, detail)
	fmt.Fprint(a.tty, "  [y] allow once   [a] allow for this session   [n] deny (default) > ")
	// Cancellation (Ctrl+C) unblocks the read through a deadline.
	stop := context.AfterFunc(ctx, func() { a.tty.SetReadDeadline(time.Now()) })
	line, err := readTTYLine(a.tty)
	if !stop() {
		a.tty.SetReadDeadline(time.Time{})
		fmt.Fprintln(a.tty)
		return permission.Deny, ctx.Err()
	}
	if err != nil {
		return permission.Deny, fmt.Errorf("read the answer from the terminal: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes", "o", "once":
		return permission.AllowOnce, nil
	case "a", "always", "s", "session":
		return permission.AllowSession, nil
	}
	return permission.Deny, nil
}

// readTTYLine reads up to a newline without buffering past it, so nothing
// typed afterwards is swallowed.
func readTTYLine(f *os.File) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for len(b) < 1024 {
		n, err := f.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				break
			}
			b = append(b, one[0])
		}
		if err != nil {
			return string(b), err
		}
	}
	return string(b), nil
}

// colorWanted says whether output to a terminal may be coloured: not when
// NO_COLOR is set (no-color.org) or the terminal is dumb.
func colorWanted() bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}
