package acp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// fakeTerminals runs terminal/create commands as local processes, as an
// editor's terminal would, and records what it was asked.
type fakeTerminals struct {
	mu      sync.Mutex
	n       int
	running map[string]*fakeTerm
	created []sdk.CreateTerminalRequest
	killed  []string
	freed   []string
	started chan string // receives each new terminal's ID
	// hold, when set, keeps terminal/create from answering until it is
	// closed: a slow editor.
	hold chan struct{}
}

type fakeTerm struct {
	cmd  *exec.Cmd
	out  bytes.Buffer // guarded by fakeTerminals.mu
	done chan struct{}
}

func newFakeTerminals() *fakeTerminals {
	return &fakeTerminals{running: map[string]*fakeTerm{}, started: make(chan string, 8)}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (f *fakeTerminals) create(p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	f.mu.Lock()
	f.n++
	id := fmt.Sprintf("term-%d", f.n)
	f.created = append(f.created, p)
	t := &fakeTerm{cmd: exec.Command(p.Command, p.Args...), done: make(chan struct{})}
	f.running[id] = t
	f.mu.Unlock()
	if p.Cwd != nil {
		t.cmd.Dir = *p.Cwd
	}
	for _, e := range p.Env {
		t.cmd.Env = append(t.cmd.Env, e.Name+"="+e.Value)
	}
	w := lockedWriter{&f.mu, &t.out}
	t.cmd.Stdout, t.cmd.Stderr = w, w
	if err := t.cmd.Start(); err != nil {
		return sdk.CreateTerminalResponse{}, err
	}
	go func() { t.cmd.Wait(); close(t.done) }()
	f.started <- id
	if f.hold != nil {
		<-f.hold
	}
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

func (f *fakeTerminals) term(id string) (*fakeTerm, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.running[id]
	if !ok {
		return nil, errors.New("no terminal " + id)
	}
	return t, nil
}

func (f *fakeTerminals) wait(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := f.term(p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
	ws := t.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return sdk.WaitForTerminalExitResponse{Signal: sdk.Ptr(ws.Signal().String())}, nil
	}
	return sdk.WaitForTerminalExitResponse{ExitCode: sdk.Ptr(ws.ExitStatus())}, nil
}

func (f *fakeTerminals) output(p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := f.term(p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return sdk.TerminalOutputResponse{Output: t.out.String()}, nil
}

func (f *fakeTerminals) kill(p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := f.term(p.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	f.mu.Lock()
	f.killed = append(f.killed, p.TerminalId)
	f.mu.Unlock()
	t.cmd.Process.Kill()
	<-t.done
	return sdk.KillTerminalResponse{}, nil
}

func (f *fakeTerminals) release(p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	t, err := f.term(p.TerminalId)
	if err != nil {
		return sdk.ReleaseTerminalResponse{}, err
	}
	t.cmd.Process.Kill()
	<-t.done
	f.mu.Lock()
	defer f.mu.Unlock()
	f.freed = append(f.freed, p.TerminalId)
	delete(f.running, p.TerminalId)
	return sdk.ReleaseTerminalResponse{}, nil
}

var termCaps = sdk.ClientCapabilities{Terminal: true}

// TestShellInClientTerminal: with the client's terminal capability, the
// shell tool's command runs in a client terminal (in the workspace, with
// parley's keys emptied), embedded in the tool call, and its output and
// exit code reach the model; the terminal is released.
func TestShellInClientTerminal(t *testing.T) {
	f := newFixture(t, `tool shell {"command":"echo from the terminal; pwd; exit 3"}
---
text ran it
`, nil)
	f.mode = "bypassPermissions"
	c := newFakeClient()
	c.terms = newFakeTerminals()
	conn := f.connect(t, c, termCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("run")}); err != nil {
		t.Fatal(err)
	}
	if req := string(f.llm.Requests()[1]); !strings.Contains(req, "from the terminal\\n"+f.root+"\\n[exit code 3]") {
		t.Errorf("the model did not get the terminal's output: %s", req)
	}
	c.terms.mu.Lock()
	created, freed := c.terms.created, c.terms.freed
	c.terms.mu.Unlock()
	if len(created) != 1 || created[0].Command != "bash" || *created[0].Cwd != f.root {
		t.Fatalf("terminals created %+v", created)
	}
	var emptied bool
	for _, e := range created[0].Env {
		emptied = emptied || (e.Name == "ANTHROPIC_API_KEY" && e.Value == "")
	}
	if !emptied {
		t.Errorf("the terminal's environment %+v keeps parley's keys", created[0].Env)
	}
	if len(freed) != 1 {
		t.Errorf("terminals released %v", freed)
	}
	updates, _, _ := c.snapshot()
	_, later := toolUpdates(updates, "call_1_0")
	var embedded bool
	for _, u := range later {
		for _, ct := range u.Content {
			embedded = embedded || (ct.Terminal != nil && ct.Terminal.TerminalId == "term-1")
		}
	}
	if !embedded {
		t.Error("the terminal was not embedded in the tool call")
	}
	// The result's update keeps the terminal beside the text.
	last := later[len(later)-1]
	if last.Status == nil || len(last.Content) != 2 || last.Content[0].Terminal == nil || last.Content[1].Content == nil {
		t.Errorf("the result's update %+v", last)
	}
}

// TestCancelKillsClientTerminal: cancelling the prompt kills the command
// in the client's terminal and ends the turn as cancelled, also when the
// cancel arrives while the client is still creating the terminal (the ID
// it answers with must not be dropped, or the command runs on unowned).
func TestCancelKillsClientTerminal(t *testing.T) {
	for _, slowCreate := range []bool{false, true} {
		t.Run(fmt.Sprintf("slowCreate=%v", slowCreate), func(t *testing.T) {
			f := newFixture(t, `tool shell {"command":"sleep 60"}
---
text unreachable
`, nil)
			f.mode = "bypassPermissions"
			c := newFakeClient()
			c.terms = newFakeTerminals()
			if slowCreate {
				c.terms.hold = make(chan struct{})
			}
			conn := f.connect(t, c, termCaps)
			ctx := ctxT(t)
			sess := f.newSession(t, ctx, conn)
			done := make(chan sdk.PromptResponse, 1)
			go func() {
				r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("wait")})
				if err != nil {
					t.Error(err)
				}
				done <- r
			}()
			select {
			case <-c.terms.started:
			case <-ctx.Done():
				t.Fatal("no terminal was created")
			}
			if err := conn.Cancel(ctx, sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
				t.Fatal(err)
			}
			if slowCreate {
				// Let the cancel reach the agent before the terminal's ID does.
				time.Sleep(50 * time.Millisecond)
				close(c.terms.hold)
			}
			if r := <-done; r.StopReason != sdk.StopReasonCancelled {
				t.Errorf("stop reason %q", r.StopReason)
			}
			c.terms.mu.Lock()
			defer c.terms.mu.Unlock()
			if len(c.terms.killed) != 1 || len(c.terms.freed) != 1 {
				t.Errorf("killed %v, released %v", c.terms.killed, c.terms.freed)
			}
		})
	}
}
