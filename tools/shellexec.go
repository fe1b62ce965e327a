package tools

// Running a shell command: in its own process group, so that a timeout or
// cancellation (and the end of the command) can stop everything it
// started, with stdout and stderr merged in arrival order through one pipe,
// streamed as it comes and kept bounded.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

const (
	// shellKillGrace is how long a process group gets between SIGTERM and
	// SIGKILL.
	shellKillGrace = 2 * time.Second
	// shellDrainGrace bounds the wait for the output pipe to close once
	// the group is gone (a process that left the group may hold it open).
	shellDrainGrace = time.Second
	// shellOutputHead and shellOutputTail are the bytes of output kept from
	// the start and the end; the middle is dropped and counted.
	shellOutputHead = 10 << 10
	shellOutputTail = 20 << 10
)

// shellOutcome is what happened to one command.
type shellOutcome struct {
	output    string
	dropped   int64 // bytes cut from the middle of the output
	exitCode  int   // -1 when killed by a signal
	signal    string
	timedOut  bool
	cancelled bool
	leftovers bool // background processes were still running at the end
}

// shellBinary finds bash, else sh.
func shellBinary() (string, error) {
	for _, name := range []string{"bash", "sh"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("shell: neither bash nor sh found in PATH")
}

// execShell runs command with `bash -c` in dir. stream, when non-nil,
// receives output chunks (whole UTF-8 characters) as they arrive. The
// returned error is an infrastructure failure (no shell, no pipe).
func execShell(ctx context.Context, command, dir string, timeout time.Duration, stream func(string)) (shellOutcome, error) {
	bin, err := shellBinary()
	if err != nil {
		return shellOutcome{}, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return shellOutcome{}, fmt.Errorf("shell: output pipe: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(bin, "-c", command)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = w, w // one pipe keeps stdout and stderr in order
	cmd.Env = append(childEnviron(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	w.Close() // the children hold their own copies
	if err != nil {
		return shellOutcome{}, fmt.Errorf("shell: start %s: %w", bin, err)
	}
	pgid := cmd.Process.Pid

	out := &cappedOutput{head: shellOutputHead, tail: shellOutputTail}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		out.readFrom(r, stream)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var res shellOutcome
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case <-exited:
	case <-tctx.Done():
		res.cancelled = ctx.Err() != nil
		res.timedOut = !res.cancelled
		stopGroup(pgid, exited)
	}
	res.leftovers = reapGroup(pgid)
	_ = r.SetReadDeadline(time.Now().Add(shellDrainGrace))
	<-readDone
	res.output, res.dropped = out.String()
	res.exitCode = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.signal = ws.Signal().String()
	}
	return res, nil
}

// secretEnv are parley's own credentials, which commands the model runs
// and MCP servers have no business reading (a command's output goes back
// to the model and into session transcripts): every variable a provider,
// the completion models, the embeddings or the MCP server take a key
// from.
var secretEnv = map[string]bool{
	"ANTHROPIC_API_KEY": true, "ANTHROPIC_AUTH_TOKEN": true, "OPENAI_API_KEY": true,
	"OPENAI_ADMIN_KEY": true, "GEMINI_API_KEY": true, "GOOGLE_API_KEY": true,
	"MISTRAL_API_KEY": true, "CODESTRAL_API_KEY": true, "DEEPSEEK_API_KEY": true,
	"PARLEY_API_KEY": true, "PARLEY_EMBEDDING_API_KEY": true, "PARLEY_MCP_TOKEN": true,
}

// SecretEnv reports whether the environment variable name holds one of
// parley's own credentials, which the processes parley starts for the
// model (commands, MCP servers) do not inherit.
func SecretEnv(name string) bool { return secretEnv[name] }

// childEnviron is the environment for commands: ours without secretEnv.
func childEnviron() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !secretEnv[name] {
			out = append(out, kv)
		}
	}
	return out
}

// stopGroup sends SIGTERM to the group, then SIGKILL if the shell has not
// exited within the grace period, and waits for the shell.
func stopGroup(pgid int, exited <-chan error) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(shellKillGrace)
	defer t.Stop()
	select {
	case <-exited:
		return
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-exited
}

// reapGroup terminates what is left of the group after the shell exited
// (background jobs) and reports whether anything was left. It polls,
// because processes that are no longer our children cannot be waited for.
func reapGroup(pgid int) bool {
	if !groupAlive(pgid) {
		return false
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		if syscall.Kill(-pgid, sig) != nil {
			return true
		}
		deadline := time.Now().Add(shellKillGrace)
		for time.Now().Before(deadline) {
			if !groupAlive(pgid) {
				return true
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return true
}

// groupAlive reports whether the process group has a live member. Zombies
// do not count: once our shell has exited, its orphaned children are
// reaped by init, which may take a while.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true // no procfs: signal 0 is all we can ask
	}
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if state, pg, ok := parseProcStat(string(stat)); ok && pg == pgid && state != 'Z' {
			return true
		}
	}
	return false
}

// parseProcStat reads the state and process group from /proc/<pid>/stat:
// "pid (comm) state ppid pgrp ...", where comm may contain anything.
func parseProcStat(stat string) (state byte, pgrp int, ok bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pg, err := strconv.Atoi(f[2])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], pg, true
}

// cappedOutput keeps the first head and the last tail bytes written and
// counts the rest.
type cappedOutput struct {
	head, tail int
	first      []byte
	last       []byte // ring of the latest bytes, at most 2*tail before trimming
	total      int64
}

func (c *cappedOutput) add(p []byte) {
	c.total += int64(len(p))
	if n := min(c.head-len(c.first), len(p)); n > 0 {
		c.first = append(c.first, p[:n]...)
		p = p[n:]
	}
	c.last = append(c.last, p...)
	if len(c.last) > 2*c.tail {
		c.last = append(c.last[:0], c.last[len(c.last)-c.tail:]...)
	}
}

// String returns the kept output (valid UTF-8) and the bytes dropped.
func (c *cappedOutput) String() (string, int64) {
	last := c.last
	if len(last) > c.tail {
		last = last[len(last)-c.tail:]
	}
	dropped := c.total - int64(len(c.first)) - int64(len(last))
	if dropped == 0 {
		return strings.ToValidUTF8(string(c.first)+string(last), "\uFFFD"), 0
	}
	// Cut at line boundaries where one is near, so the model sees whole lines.
	head := string(c.first)
	if i := strings.LastIndexByte(head, '\n'); i > len(head)/2 {
		dropped += int64(len(head) - i - 1)
		head = head[:i+1]
	}
	tail := string(last)
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
		dropped += int64(i + 1)
		tail = tail[i+1:]
	}
	s := fmt.Sprintf("%s\n[... %d bytes of output omitted ...]\n%s", head, dropped, tail)
	return strings.ToValidUTF8(s, "\uFFFD"), dropped
}

// readFrom copies r into c until EOF or error, passing whole UTF-8
// characters to stream.
func (c *cappedOutput) readFrom(r *os.File, stream func(string)) {
	buf := make([]byte, 32<<10)
	var pending []byte // an incomplete UTF-8 sequence held back from stream
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.add(buf[:n])
			if stream != nil {
				pending = append(pending, buf[:n]...)
				cut := completeUTF8(pending)
				if cut > 0 {
					stream(string(pending[:cut]))
					pending = append(pending[:0], pending[cut:]...)
				}
			}
		}
		if err != nil {
			break
		}
	}
	if stream != nil && len(pending) > 0 {
		stream(strings.ToValidUTF8(string(pending), "\uFFFD"))
	}
}

// completeUTF8 returns the length of b without a trailing incomplete
// UTF-8 sequence.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if !utf8.RuneStart(b[i]) {
			continue
		}
		if utf8.FullRune(b[i:]) {
			return len(b)
		}
		return i
	}
	return len(b)
}
