package main

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// fakeAsker answers every question with answer and records them.
type fakeAsker struct {
	answer    permission.Answer
	questions []string // "tool: detail"
}

func (f *fakeAsker) ask(_ context.Context, tool string, _ access.Access, detail string) (permission.Answer, error) {
	f.questions = append(f.questions, tool+": "+detail)
	return f.answer, nil
}

// TestEditGate checks that an edit is asked about once, with its diff,
// when the policy would ask, and not at all when it would not.
func TestEditGate(t *testing.T) {
	edit := access.Access{Kind: access.Edit, Paths: []string{"a.go"}, Summary: "edit a.go"}
	change := []tools.FileChange{{Op: tools.OpModify, Path: "/w/a.go", Old: []byte("x\n"), New: []byte("y\n")}}
	style := diffStyle{perFile: 10, total: 10, shortPath: func(s string) string { return strings.TrimPrefix(s, "/w/") }}
	tests := []struct {
		name      string
		mode      permission.Mode
		rules     permission.Rules
		answer    permission.Answer
		checked   bool // the edit went through Check (false: an unmatched Apply)
		wantRun   bool // Check lets the tool run
		wantApply bool
		wantAsked int
	}{
		{"default mode asks with the diff", permission.ModeDefault, permission.Rules{}, permission.AllowOnce, true, true, true, 1},
		{"a no is a refusal at apply", permission.ModeDefault, permission.Rules{}, permission.Deny, true, true, false, 1},
		{"acceptEdits does not ask", permission.ModeAcceptEdits, permission.Rules{}, permission.Deny, true, true, true, 0},
		{"an allow rule does not ask", permission.ModeDefault, permission.Rules{Allow: []string{"edit(*.go)"}}, permission.Deny, true, true, true, 0},
		{"a deny rule refuses at check", permission.ModeAcceptEdits, permission.Rules{Deny: []string{"edit_file"}}, permission.AllowOnce, true, false, false, 0},
		{"plan mode refuses at check", permission.ModePlan, permission.Rules{}, permission.AllowOnce, true, false, false, 0},
		{"an unmatched apply is asked about", permission.ModeDefault, permission.Rules{}, permission.AllowOnce, false, true, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pol, err := permission.New(tt.mode, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			fa := &fakeAsker{answer: tt.answer}
			g := newEditGate(pol, "/w", style)
			g.tty = fa
			ctx := agent.WithToolCallID(context.Background(), "call-1")
			run := true
			if tt.checked {
				var reason string
				run, reason, err = g.Check(ctx, plainApprover(fa), "edit_file", false, edit)
				if err != nil || run != tt.wantRun {
					t.Fatalf("Check = %v (%s), %v; want %v", run, reason, err, tt.wantRun)
				}
				if len(fa.questions) != 0 {
					t.Fatalf("asked at Check: %q", fa.questions)
				}
			}
			if !run {
				return
			}
			ok, reason, err := g.confirm(ctx, "edit a.go", change)
			if err != nil || ok != tt.wantApply {
				t.Fatalf("confirm = %v (%s), %v; want %v", ok, reason, err, tt.wantApply)
			}
			if !ok && !strings.Contains(reason, "the user denied") {
				t.Errorf("refusal reason %q", reason)
			}
			if len(fa.questions) != tt.wantAsked {
				t.Fatalf("asked %d times, want %d: %q", len(fa.questions), tt.wantAsked, fa.questions)
			}
			if tt.wantAsked > 0 && !strings.Contains(fa.questions[0], "-x\n+y\n") {
				t.Errorf("the question did not show the diff: %q", fa.questions[0])
			}
		})
	}
}

// "Allow for this session" given at the diff holds for the next edit of
// the same file, which is then not asked about; other calls are asked
// about before they run, without a diff.
func TestEditGateSessionAndOtherCalls(t *testing.T) {
	pol, err := permission.New(permission.ModeDefault, permission.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	fa := &fakeAsker{answer: permission.AllowSession}
	g := newEditGate(pol, "/w", diffStyle{perFile: 10, total: 10, shortPath: func(s string) string { return s }})
	g.tty = fa
	edit := access.Access{Kind: access.Edit, Paths: []string{"a.go"}}
	change := []tools.FileChange{{Op: tools.OpCreate, Path: "/w/a.go", New: []byte("y\n")}}
	for i := range 2 {
		ctx := agent.WithToolCallID(context.Background(), "call-1")
		if run, _, err := g.Check(ctx, plainApprover(fa), "write_file", false, edit); !run || err != nil {
			t.Fatalf("edit %d: Check refused: %v", i, err)
		}
		if ok, reason, err := g.confirm(ctx, "write a.go", change); !ok || err != nil {
			t.Fatalf("edit %d: confirm refused: %s %v", i, reason, err)
		}
	}
	if len(fa.questions) != 1 {
		t.Fatalf("asked %d times, want once: %q", len(fa.questions), fa.questions)
	}
	shell := access.Access{Kind: access.Shell, Command: "make"}
	if run, _, err := g.Check(context.Background(), plainApprover(fa), "shell", false, shell); !run || err != nil {
		t.Fatalf("shell: %v %v", run, err)
	}
	if len(fa.questions) != 2 || fa.questions[1] != "shell: " {
		t.Errorf("shell question: %q", fa.questions)
	}
}

// plainApprover is the loop's approver: the asker, without a diff.
func plainApprover(a asker) permission.Approver { return diffApprover{tty: a} }

// Thinking and tool output are dimmed on a terminal, plain under NO_COLOR.
func TestChatPrinterNoColor(t *testing.T) {
	for _, noColor := range []string{"", "1"} {
		t.Setenv("NO_COLOR", noColor)
		t.Setenv("TERM", "xterm")
		var out strings.Builder
		p := &chatPrinter{stdout: &out, stderr: &out, ttyErr: true, colour: colorWanted()}
		p.toolOutput("building\n")
		got, hasEsc := out.String(), strings.Contains(out.String(), "\x1b[")
		if hasEsc != (noColor == "") || !strings.Contains(got, "building") {
			t.Errorf("NO_COLOR=%q: %q", noColor, got)
		}
	}
}
