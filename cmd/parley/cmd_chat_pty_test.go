//go:build linux

package main

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/fixture"
)

// ptyTimeout bounds every wait for the REPL; reaching it fails the test.
const ptyTimeout = 30 * time.Second

// openPTY opens a pseudo-terminal pair through /dev/ptmx.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n uint32
	var ioctlErr error
	err = withFd(m, func(fd uintptr) {
		var unlock int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
			ioctlErr = e
			return
		}
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
			ioctlErr = e
		}
	})
	if err == nil {
		err = ioctlErr
	}
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	return m, s
}

// withFd runs fn with f's descriptor without switching f to blocking mode.
func withFd(f *os.File, fn func(fd uintptr)) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	return rc.Control(fn)
}

// ptyScreen collects what the program writes to the terminal.
type ptyScreen struct {
	t      *testing.T
	master *os.File
	mu     sync.Mutex
	buf    []byte
	pos    int           // expect has consumed buf[:pos]
	more   chan struct{} // signalled after every read
	closed chan struct{} // the terminal's other side is gone
}

func newPTYScreen(t *testing.T, master *os.File) *ptyScreen {
	s := &ptyScreen{t: t, master: master, more: make(chan struct{}, 1), closed: make(chan struct{})}
	go func() {
		defer close(s.closed)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			s.mu.Lock()
			s.buf = append(s.buf, b[:n]...)
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
			if err != nil {
				return // EIO once the program and its terminal are gone
			}
		}
	}()
	return s
}

// expect waits until want appears after what earlier calls consumed.
func (s *ptyScreen) expect(want string) {
	s.t.Helper()
	timer := time.NewTimer(ptyTimeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		i := bytes.Index(s.buf[s.pos:], []byte(want))
		if i >= 0 {
			s.pos += i + len(want)
		}
		seen := string(s.buf[s.pos:])
		s.mu.Unlock()
		if i >= 0 {
			return
		}
		select {
		case <-s.more:
		case <-s.closed:
			select {
			case <-s.more:
				continue // look at the last read first
			default:
			}
			s.t.Fatalf("terminal closed before %q appeared; after the last match it shows:\n%s", want, seen)
		case <-timer.C:
			s.t.Fatalf("%q did not appear within %s; after the last match the terminal shows:\n%s", want, ptyTimeout, seen)
		}
	}
}

// typeText writes keystrokes to the terminal.
func (s *ptyScreen) typeText(keys string) {
	s.t.Helper()
	if _, err := s.master.WriteString(keys); err != nil {
		s.t.Fatalf("type %q: %v", keys, err)
	}
}

// replProcess is `parley chat` running on a pseudo-terminal.
type replProcess struct {
	scr     *ptyScreen
	exited  chan struct{} // closed once waitErr is set
	waitErr error
}

// startREPL runs `parley chat --root ws [args]` on a new pseudo-terminal,
// as a session leader with that terminal as its controlling terminal (so
// the approver finds /dev/tty and Ctrl+C sends SIGINT), with its data and
// configuration under dir and the model API at apiURL.
func startREPL(t *testing.T, dir, ws, apiURL string, args ...string) *replProcess {
	t.Helper()
	master, slave := openPTY(t)
	t.Cleanup(func() { master.Close() })
	cmd := parleyCommand(t, append([]string{"chat", "--root", ws}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	cmd.Env = chatTestEnv(dir, apiURL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close() // the child has its own copies
	r := &replProcess{scr: newPTYScreen(t, master), exited: make(chan struct{})}
	go func() { r.waitErr = cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		if t.Failed() {
			r.scr.mu.Lock()
			t.Logf("the terminal showed:\n%q", r.scr.buf)
			r.scr.mu.Unlock()
		}
		select {
		case <-r.exited:
			return
		default:
		}
		cmd.Process.Kill()
		select {
		case <-r.exited:
		case <-time.After(ptyTimeout):
			t.Errorf("parley chat (pid %d) did not die", cmd.Process.Pid)
		}
	})
	return r
}

// TestREPLOnATerminal drives `parley chat` on a pseudo-terminal: line
// editing input, an edit's approval question on the terminal with its
// diff (approved, then denied), /help, /model,
// /undo, /sessions, /resume, /new, /delete, Ctrl+C during a turn and at
// the prompt, the history file, and Ctrl+D to leave.
func TestREPLOnATerminal(t *testing.T) {
	llm, err := fakellm.New([]byte(`text Hi there.
---
tool write_file {"path":"a.txt","content":"new\n"}
---
text Done.
---
tool write_file {"path":"a.txt","content":"rejected\n"}
---
text Not changed.
---
wait
text waiting for you
`), "")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(llm)
	t.Cleanup(func() { llm.Close(); hs.Close() })
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	aTxt := filepath.Join(ws, "a.txt")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(aTxt, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fileIs := func(want string) func() {
		return func() {
			if got, _ := os.ReadFile(aTxt); string(got) != want {
				t.Errorf("a.txt holds %q, want %q", got, want)
			}
		}
	}
	r := startREPL(t, dir, ws, hs.URL+"/v1")
	steps := []struct {
		keys   string   // typed at the terminal
		expect []string // then shown, in this order
		check  func()
	}{
		{"", []string{"/help for commands, Ctrl+D to quit", "parley> "}, nil},
		{"hello\r", []string{"Hi there.", "(tokens: turn 100 in, 20 out", "parley> "}, nil},
		{"/help\r", []string{"/delete ID", "parley> "}, nil},
		{"/model other-model\r", []string{"model set to other-model", "parley> "}, nil},
		// The edit needs approval, asked on the terminal with its diff.
		{"change a.txt\r", []string{"Allow write_file: write a.txt", "modify a.txt  +1 -1", "@@ -1 +1 @@", "-old", "+new", "[n] deny (default) > "}, nil},
		{"y\r", []string{"modify a.txt", "Done.", "parley> "}, fileIs("new\n")},
		{"/undo\r", []string{"undone: write a.txt", "parley> "}, fileIs("old\n")},
		// Denied, the edit leaves the file alone and the model is told.
		{"change it again\r", []string{"Allow write_file: write a.txt", "-old", "+rejected", "[n] deny (default) > "}, nil},
		{"n\r", []string{"Not changed.", "parley> "}, fileIs("old\n")},
		// Ctrl+C during a turn interrupts it; the REPL goes on.
		{"take your time\r", []string{"waiting"}, nil},
		{"\x03", []string{"(cancelled)", "parley> "}, nil},
		{"/sessions\r", []string{"* ", "hello", "parley> "}, nil},
		{"/resume last\r", []string{"resumed ", "parley> "}, nil},
		{"/new\r", []string{"new session ", "parley> "}, nil},
		{"/delete last\r", []string{"deleted session ", "parley> "}, nil},
		{"/sessions\r", []string{"no saved sessions yet", "parley> "}, nil},
		// Ctrl+C at the prompt clears the line, so Ctrl+D then leaves.
		{"not sent\x03\x04", nil, nil},
	}
	for _, st := range steps {
		if st.keys != "" {
			r.scr.typeText(st.keys)
		}
		for _, want := range st.expect {
			r.scr.expect(want)
		}
		if st.check != nil {
			st.check()
		}
	}
	select {
	case <-r.exited:
		if r.waitErr != nil {
			t.Errorf("parley chat exited with %v", r.waitErr)
		}
	case <-time.After(ptyTimeout):
		t.Fatalf("parley chat did not exit after Ctrl+D")
	}
	reqs := llm.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d model requests, want 6", len(reqs))
	}
	if !bytes.Contains(reqs[0], []byte(`"model":"fake-model"`)) || !bytes.Contains(reqs[1], []byte(`"model":"other-model"`)) {
		t.Errorf("/model did not switch the model:\n%s\n%s", reqs[0], reqs[1])
	}
	if !bytes.Contains(reqs[4], []byte("not applied: the user denied this call")) {
		t.Errorf("the model was not told of the denial:\n%s", reqs[4])
	}
	// The lines typed are kept in the history file for the next session.
	hists, _ := filepath.Glob(filepath.Join(dir, "data", "*", "chat_history"))
	if len(hists) != 1 {
		t.Fatalf("history files %q, want one", hists)
	}
	if hist, _ := os.ReadFile(hists[0]); !strings.Contains(string(hist), "hello\n/help\n/model other-model\n") {
		t.Errorf("history file holds %q", hist)
	}
}

// parleyCommand runs parley as the scripts do: this test binary, which
// TestMain (testscript.Main) turns into parley when its argv[0] is
// "parley". Running it directly rather than looking "parley" up in PATH
// works whatever PATH holds.
func parleyCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("find the test binary: %v", err)
	}
	cmd := exec.Command(self, args...)
	cmd.Args[0] = "parley"
	return cmd
}

// The undo stack lives with the session: an edit made by one `parley chat`
// process is undone by /undo in another that resumes the session, unless
// the file changed in between, in which case nothing is undone.
func TestUndoAfterResume(t *testing.T) {
	for _, tt := range []struct {
		name    string
		between string // written to a.txt between the two processes ("": nothing)
		expect  []string
		want    string // a.txt at the end
	}{
		{"restores", "", []string{"undone: write a.txt"}, "old\n"},
		{"refuses a changed file", "typed meanwhile\n", []string{`cannot undo "write a.txt": a.txt changed since the edit; nothing was undone`}, "typed meanwhile\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := fakellm.Start(t, `tool write_file {"path":"a.txt","content":"new\n"}
---
text Done.
`)
			dir := t.TempDir()
			ws := filepath.Join(dir, "ws")
			aTxt := filepath.Join(ws, "a.txt")
			fixture.WriteTree(t, ws, map[string]string{"a.txt": "old\n"})
			edit := parleyCommand(t, "chat", "--root", ws, "--no-watch", "--permission-mode", "acceptEdits", "change a.txt")
			edit.Env = chatTestEnv(dir, url+"/v1")
			if out, err := edit.CombinedOutput(); err != nil {
				t.Fatalf("parley chat: %v\n%s", err, out)
			}
			if got, _ := os.ReadFile(aTxt); string(got) != "new\n" {
				t.Fatalf("the edit was not made: a.txt holds %q", got)
			}
			if tt.between != "" {
				fixture.WriteTree(t, ws, map[string]string{"a.txt": tt.between})
			}
			r := startREPL(t, dir, ws, url+"/v1", "--no-watch", "--session", "last")
			r.scr.expect("parley> ")
			r.scr.typeText("/undo\r")
			for _, want := range append(tt.expect, "parley> ") {
				r.scr.expect(want)
			}
			if got, _ := os.ReadFile(aTxt); string(got) != tt.want {
				t.Errorf("a.txt holds %q, want %q", got, tt.want)
			}
			r.scr.typeText("\x04")
			select {
			case <-r.exited:
			case <-time.After(ptyTimeout):
				t.Fatal("parley chat did not exit after Ctrl+D")
			}
		})
	}
}

// replStep is what is typed at the REPL and what must then appear, in
// order.
type replStep struct {
	keys   string
	expect []string
}

// play types each step's keys and waits for what it shows, then for the
// REPL to exit (the last step must end it, with Ctrl+D say).
func (r *replProcess) play(t *testing.T, steps []replStep) {
	t.Helper()
	for _, st := range steps {
		if st.keys != "" {
			r.scr.typeText(st.keys)
		}
		for _, want := range st.expect {
			r.scr.expect(want)
		}
	}
	select {
	case <-r.exited:
	case <-time.After(ptyTimeout):
		t.Fatal("parley chat did not exit")
	}
}
