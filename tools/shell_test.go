package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
	"github.com/parleyhq/parley/workspace"
)

// shellTestEnv returns an Env over a fresh temporary workspace.
func shellTestEnv(t *testing.T) (*Env, string) {
	t.Helper()
	dir := t.TempDir()
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &Env{Roots: roots}, roots.Paths()[0]
}

func shellInput(t *testing.T, p ShellParams) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runShellTool(t *testing.T, env *Env, p ShellParams) *Result {
	t.Helper()
	res, err := runTool(context.Background(), shellTool, env, shellInput(t, p))
	if err != nil {
		t.Fatalf("Run(%q): %v", p.Command, err)
	}
	return res
}

func TestShellOutputAndExitCode(t *testing.T) {
	env, _ := shellTestEnv(t)
	res := runShellTool(t, env, ShellParams{Command: `echo out; echo err >&2; exit 3`})
	if res.IsError {
		t.Errorf("a non-zero exit is an outcome, not a tool error: %q", res.Content)
	}
	if res.Content != "out\nerr\n[exit code 3]" {
		t.Errorf("content = %q", res.Content)
	}
	res = runShellTool(t, env, ShellParams{Command: `true`})
	if res.Content != "(no output)\n[exit code 0]" {
		t.Errorf("content = %q", res.Content)
	}
}

func TestShellHidesParleyCredentials(t *testing.T) {
	env, _ := shellTestEnv(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
	t.Setenv("OPENAI_API_KEY", "sk-test-not-a-key")
	t.Setenv("GEMINI_API_KEY", "gm-test-not-a-key")
	t.Setenv("GOOGLE_API_KEY", "gg-test-not-a-key")
	t.Setenv("DEEPSEEK_API_KEY", "ds-test-not-a-key")
	t.Setenv("PARLEY_SHELL_TEST_VISIBLE", "yes")
	res := runShellTool(t, env, ShellParams{Command: `echo "${ANTHROPIC_API_KEY:-unset} ${OPENAI_API_KEY:-unset} ${GEMINI_API_KEY:-unset} ${GOOGLE_API_KEY:-unset} ${DEEPSEEK_API_KEY:-unset} $PARLEY_SHELL_TEST_VISIBLE"`})
	if res.Content != "unset unset unset unset unset yes\n[exit code 0]" {
		t.Errorf("content = %q", res.Content)
	}
}

func TestShellWorkdir(t *testing.T) {
	env, root := shellTestEnv(t)
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := runShellTool(t, env, ShellParams{Command: `pwd`, Workdir: "sub"})
	if want := filepath.Join(root, "sub") + "\n[exit code 0]"; res.Content != want {
		t.Errorf("pwd in sub = %q, want %q", res.Content, want)
	}
	res = runShellTool(t, env, ShellParams{Command: `pwd`})
	if want := root + "\n[exit code 0]"; res.Content != want {
		t.Errorf("default workdir = %q, want %q", res.Content, want)
	}

	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, wd := range []string{"..", "../x", outside, "escape", "escape/sub", "missing", "file"} {
		_, err := accessOf(shellTool, env, shellInput(t, ShellParams{Command: "touch marker", Workdir: wd}))
		var ie *jsonschema.InputError
		if !errors.As(err, &ie) {
			t.Errorf("workdir %q: Access err = %v, want an InputError", wd, err)
		}
		res := runShellTool(t, env, ShellParams{Command: "touch marker", Workdir: wd})
		if !res.IsError {
			t.Errorf("workdir %q: ran: %q", wd, res.Content)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "marker")); err == nil {
		t.Error("a command ran outside the workspace")
	}
}

func TestShellAccess(t *testing.T) {
	env, _ := shellTestEnv(t)
	a, err := accessOf(shellTool, env, shellInput(t, ShellParams{Command: "go test ./..."}))
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != access.Shell || a.Command != "go test ./..." || !strings.Contains(a.Summary, "go test") {
		t.Errorf("Access = %+v", a)
	}
	for _, in := range []string{
		`{"command": ""}`,
		`{"command": "   "}`,
		`{"command": "echo 'open"}`,
		`{"command": "ls", "timeout_seconds": 301}`,
		`{"command": "ls", "timeout_seconds": 0.5}`,
		`{"command": "sudo ls"}`,
		`{}`,
	} {
		_, err := accessOf(shellTool, env, json.RawMessage(in))
		var ie *jsonschema.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want an InputError", in, err)
		}
	}
}

// TestShellRefusesDangerBeforeRunning: the danger check is part of Prepare,
// so no call of a refused command can reach Run.
func TestShellRefusesDangerBeforeRunning(t *testing.T) {
	env, root := shellTestEnv(t)
	// dd if= is on the danger list; were it run, it would only create out.
	res := runShellTool(t, env, ShellParams{Command: "true && dd if=/dev/null of=out"})
	if !res.IsError || !strings.Contains(res.Content, "refused") {
		t.Errorf("result = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "out")); err == nil {
		t.Error("the refused command ran")
	}
	res = runShellTool(t, env, ShellParams{Command: "echo 'open"})
	if !res.IsError || !strings.Contains(res.Content, "parse") {
		t.Errorf("parse error result = %+v", res)
	}
}

func TestShellStreamsOutput(t *testing.T) {
	env, _ := shellTestEnv(t)
	var mu sync.Mutex
	var chunks []string
	env.Output = func(tool, chunk string) {
		mu.Lock()
		defer mu.Unlock()
		if tool != "shell" {
			t.Errorf("tool = %q", tool)
		}
		chunks = append(chunks, chunk)
	}
	res := runShellTool(t, env, ShellParams{Command: `echo one; printf 'h\xc3'; printf '\xa9\n'; echo two >&2`})
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(chunks, ""); got != "one\nhé\ntwo\n" {
		t.Errorf("streamed %q", got)
	}
	for _, c := range chunks {
		if !strings.HasSuffix(c, "\n") && strings.ContainsRune(c, '\uFFFD') {
			t.Errorf("chunk %q splits a character", c)
		}
	}
	if !strings.HasPrefix(res.Content, "one\nhé\ntwo\n") {
		t.Errorf("content = %q", res.Content)
	}
}

func TestShellOutputCap(t *testing.T) {
	env, _ := shellTestEnv(t)
	res := runShellTool(t, env, ShellParams{Command: `seq 1 30000`})
	if len(res.Content) > shellOutputHead+shellOutputTail+200 {
		t.Errorf("content is %d bytes", len(res.Content))
	}
	if !strings.HasPrefix(res.Content, "1\n2\n3\n") || !strings.HasSuffix(res.Content, "29999\n30000\n[exit code 0]") {
		t.Errorf("head or tail lost: %q ... %q", res.Content[:20], res.Content[len(res.Content)-40:])
	}
	if !strings.Contains(res.Content, "bytes of output omitted") {
		t.Error("no omission note")
	}
	// Every line kept is whole.
	for _, line := range strings.Split(res.Content, "\n") {
		if _, err := strconv.Atoi(line); err != nil && !strings.HasPrefix(line, "[") && line != "" {
			t.Errorf("partial line %q", line)
		}
	}
}

func TestCappedOutputCounts(t *testing.T) {
	c := &cappedOutput{head: 4, tail: 4}
	c.add([]byte("abcdefghijkl"))
	s, dropped := c.String()
	if dropped != 4 || !strings.HasPrefix(s, "abcd") || !strings.HasSuffix(s, "ijkl") {
		t.Errorf("got %q, dropped %d", s, dropped)
	}
	c = &cappedOutput{head: 4, tail: 4}
	c.add([]byte("abcdefgh"))
	if s, dropped := c.String(); s != "abcdefgh" || dropped != 0 {
		t.Errorf("got %q, dropped %d", s, dropped)
	}
}

// processGone reports whether pid has exited (a zombie waiting for its
// new parent to reap it counts as gone).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return os.IsNotExist(err)
	}
	// Fields after the parenthesised command name: state is the first.
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// waitGone waits (bounded) for a process to exit.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Errorf("process %d still running", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %s: %v", path, err)
	}
	return pid
}

func TestShellTimeoutKillsProcessGroup(t *testing.T) {
	env, root := shellTestEnv(t)
	env.ShellTimeout = 500 * time.Millisecond
	start := time.Now()
	res := runShellTool(t, env, ShellParams{
		Command: `sleep 30 & echo $! > bg.pid; (echo $BASHPID > fg.pid; exec sleep 30); wait`,
	})
	if elapsed := time.Since(start); elapsed > 15*time.Second {
		t.Errorf("took %s", elapsed)
	}
	if !res.IsError || !strings.Contains(res.Content, "timed out after 500ms") {
		t.Errorf("result = %+v", res)
	}
	waitGone(t, readPid(t, filepath.Join(root, "bg.pid")))
	waitGone(t, readPid(t, filepath.Join(root, "fg.pid")))
}

func TestShellCancelStopsPromptly(t *testing.T) {
	env, root := shellTestEnv(t)
	started := make(chan struct{})
	var once sync.Once
	env.Output = func(_, chunk string) {
		if strings.Contains(chunk, "started") {
			once.Do(func() { close(started) })
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		in := shellInput(t, ShellParams{Command: `echo $BASHPID > sh.pid; echo started; sleep 30`})
		res, err := runTool(ctx, shellTool, env, in)
		done <- outcome{res, err}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("command did not start")
	}
	cancel()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		if !o.res.IsError || !strings.Contains(o.res.Content, "cancelled") || !strings.Contains(o.res.Content, "started") {
			t.Errorf("result = %+v", o.res)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
	waitGone(t, readPid(t, filepath.Join(root, "sh.pid")))
}

func TestShellTerminatesLeftoverBackgroundJobs(t *testing.T) {
	env, root := shellTestEnv(t)
	res := runShellTool(t, env, ShellParams{Command: `sleep 30 & echo $! > bg.pid; echo done`})
	if !strings.Contains(res.Content, "done\n[exit code 0]") || !strings.Contains(res.Content, "background processes") {
		t.Errorf("content = %q", res.Content)
	}
	waitGone(t, readPid(t, filepath.Join(root, "bg.pid")))
}

func TestShellTimeoutSelection(t *testing.T) {
	tests := []struct {
		env     time.Duration
		seconds int
		want    time.Duration
	}{
		{0, 0, DefaultShellTimeout},
		{30 * time.Second, 0, 30 * time.Second},
		{30 * time.Second, 5, 5 * time.Second},
		{time.Hour, 0, MaxShellTimeout},
	}
	for _, tt := range tests {
		if got := shellTimeout(&Env{ShellTimeout: tt.env}, tt.seconds); got != tt.want {
			t.Errorf("shellTimeout(%s, %d) = %s, want %s", tt.env, tt.seconds, got, tt.want)
		}
	}
}
