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

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// editGate asks about an edit with its diff, when the DiskEditor has
// computed the change, so the user approves what will be written (as VS
// Code's refactor preview shows it) rather than a file name. It is the
// agent's Policy: a permission.Deferred, whose pending edits confirm (the
// DiskEditor's Confirm hook) puts to the policy again through an approver
// that shows the diff. Rules, modes and "allow for this session" thus work
// as for any other call, and an edit is asked about once. An edit with no
// matching check is asked about all the same. Safe for concurrent use.
type editGate struct {
	*permission.Deferred
	root  string
	style diffStyle
	tty   asker // nil: nobody to ask; Check decides every edit
}

func newEditGate(policy *permission.Policy, root string, style diffStyle) *editGate {
	return &editGate{Deferred: permission.NewDeferred(policy, agent.ToolCallID), root: root, style: style}
}

// Check implements agent.Policy.
func (g *editGate) Check(ctx context.Context, ap permission.Approver, tool string, readOnly bool, a access.Access) (bool, string, error) {
	if g.tty == nil {
		return g.Policy().Check(ctx, ap, tool, readOnly, a)
	}
	return g.Deferred.Check(ctx, ap, tool, readOnly, a)
}

// confirm is the DiskEditor's Confirm hook.
func (g *editGate) confirm(ctx context.Context, label string, changes []tools.FileChange) (bool, string, error) {
	if g.tty == nil {
		return true, "", nil
	}
	call, found := g.Take(ctx)
	if found && !call.Pending {
		return true, "", nil
	}
	if !found {
		call = permission.DeferredCall{Tool: "edit", Access: g.accessOf(label, changes)}
	}
	ap := diffApprover{tty: g.tty, diff: renderDiff(changes, g.style)}
	allowed, reason, err := g.Policy().Check(ctx, ap, call.Tool, call.ReadOnly, call.Access)
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
