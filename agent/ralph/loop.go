package ralph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/shell"
)

// CreditTrailer is the trailer the agent is asked to put on its commits
// when the ralph's credit is true.
const CreditTrailer = "Co-authored-by: parley <parley@users.noreply.github.com>"

// creditKey marks the context of an iteration whose ralph has credit on.
type creditKey struct{}

// Credited reports whether the iteration RunPrompt runs in has credit on:
// an agent that makes its commits itself adds CreditTrailer to them, so
// the trailer does not depend on the model following the prompt's
// instruction (an external agent only gets the instruction).
func Credited(ctx context.Context) bool {
	on, _ := ctx.Value(creditKey{}).(bool)
	return on
}

const creditInstruction = "\n\nWhen you make a git commit, end its message with this trailer line:\n" + CreditTrailer + "\n"

// maxCommandOutput caps what a command contributes to the prompt.
const maxCommandOutput = 256 << 10

// Agent runs one iteration's prompt with a fresh context, writing what it
// does to out. A non-zero exit code fails the iteration; err is a failure
// to run at all (or ctx's end).
type Agent interface {
	RunPrompt(ctx context.Context, prompt string, out io.Writer) (exitCode int, err error)
}

// External is an agent command line (the frontmatter's agent), split into
// words like a shell would and run in Dir with the prompt on stdin.
type External struct {
	Command string
	Dir     string
}

// RunPrompt implements Agent.
func (x External) RunPrompt(ctx context.Context, prompt string, out io.Writer) (int, error) {
	argv, err := shell.Fields(x.Command, nil)
	if err != nil || len(argv) == 0 {
		return -1, fmt.Errorf("agent %q: not a command line: %v", x.Command, err)
	}
	res := runProcess(ctx, argv, x.Dir, strings.NewReader(prompt), out, 0)
	return res.exitCode, res.err
}

// Options configure a Loop.
type Options struct {
	Path          string // the RALPH.md
	ProjectDir    string // where commands and the agent run
	RunID         string
	MaxIterations int           // 0: until stopped
	Delay         time.Duration // between iterations
	Timeout       time.Duration // per agent run (0: none)
	StopOnError   bool
	LogDir        string   // one log per iteration ("": none)
	Args          []string // the user's arguments for the ralph's args
	// Agent runs prompts when the frontmatter names no agent (parley's
	// own agent); nil makes such a ralph an error.
	Agent Agent
	Emit  Emitter
}

// Loop is one run of a ralph.
type Loop struct {
	o      Options
	stop   atomic.Bool
	paused atomic.Bool
	wake   chan struct{} // signalled by Resume and Stop
}

// New prepares a loop.
func New(o Options) *Loop {
	if o.Emit == nil {
		o.Emit = func(Event) {}
	}
	return &Loop{o: o, wake: make(chan struct{}, 1)}
}

// Pause holds the loop before its next iteration until Resume or Stop.
func (l *Loop) Pause() {
	if !l.paused.Swap(true) {
		l.emit(RunPaused, EventData{})
	}
}

// Resume lets a paused loop go on.
func (l *Loop) Resume() {
	if l.paused.Swap(false) {
		l.emit(RunResumed, EventData{})
		l.signal()
	}
}

func (l *Loop) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// waitWhilePaused blocks while the loop is paused; it returns false when
// the loop must stop instead.
func (l *Loop) waitWhilePaused(ctx context.Context) bool {
	for l.paused.Load() && !l.stop.Load() {
		select {
		case <-ctx.Done():
			return false
		case <-l.wake:
		}
	}
	return !l.stop.Load() && ctx.Err() == nil
}

// Stop asks the loop to stop once the current iteration is done, and
// says so in a log_message event.
func (l *Loop) Stop() {
	if !l.stop.Swap(true) {
		l.emit(LogMessage, EventData{Message: "stop requested: finishing the current iteration"})
		l.signal()
	}
}

func (l *Loop) emit(typ string, d EventData) {
	l.o.Emit(Event{Type: typ, RunID: l.o.RunID, Timestamp: time.Now().UTC(), Data: d})
}

// Run runs iterations until the maximum, Stop, ctx's end or (with
// StopOnError) a failure, and returns the stop reason. err is set when
// the ralph could not run at all (unreadable RALPH.md, bad arguments,
// no agent).
func (l *Loop) Run(ctx context.Context) (reason string, err error) {
	r, err := Load(l.o.Path)
	if err != nil {
		return StopError, err
	}
	if _, err := ParseArgs(r.Args, l.o.Args); err != nil {
		return StopError, err
	}
	l.emit(RunStarted, EventData{Ralph: r.Name, MaxIterations: l.o.MaxIterations})
	var done, failed int
	defer func() {
		l.emit(RunStopped, EventData{Ralph: r.Name, Reason: reason, Completed: done, Failed: failed})
	}()
	for i := 1; l.o.MaxIterations <= 0 || i <= l.o.MaxIterations; i++ {
		if !l.waitWhilePaused(ctx) {
			return StopUserRequested, nil
		}
		ok, err := l.iteration(ctx, i)
		switch {
		case err != nil:
			l.emit(LogMessage, EventData{Message: err.Error()})
			return StopError, err
		case ctx.Err() != nil:
			return StopUserRequested, nil
		case ok:
			done++
		default:
			failed++
			if l.o.StopOnError {
				return StopError, nil
			}
		}
		if l.stop.Load() {
			return StopUserRequested, nil
		}
		if l.o.Delay > 0 && (l.o.MaxIterations <= 0 || i < l.o.MaxIterations) {
			select {
			case <-ctx.Done():
				return StopUserRequested, nil
			case <-time.After(l.o.Delay):
			}
			if l.stop.Load() {
				return StopUserRequested, nil
			}
		}
	}
	return StopCompleted, nil
}

// iteration runs iteration n; ok says whether the agent succeeded. err
// means the ralph cannot run (it is re-read each time and may have been
// broken meanwhile).
func (l *Loop) iteration(ctx context.Context, n int) (ok bool, err error) {
	r, err := Load(l.o.Path)
	if err != nil {
		return false, err
	}
	args, err := ParseArgs(r.Args, l.o.Args)
	if err != nil {
		return false, err
	}
	start := time.Now()
	l.emit(IterationStarted, EventData{Ralph: r.Name, Iteration: n, MaxIterations: l.o.MaxIterations})
	outputs := l.runCommands(ctx, r, args)
	max := ""
	if l.o.MaxIterations > 0 {
		max = strconv.Itoa(l.o.MaxIterations)
	}
	prompt := Resolve(r.Body, Values{Commands: outputs, Args: args,
		Ralph: map[string]string{"name": r.Name, "iteration": strconv.Itoa(n), "max_iterations": max}})
	if r.Credit {
		prompt += creditInstruction
	}
	l.emit(PromptAssembled, EventData{Iteration: n, Length: len(prompt)})

	agent := l.o.Agent
	if r.Agent != "" {
		agent = External{Command: r.Agent, Dir: l.o.ProjectDir}
	}
	if agent == nil {
		return false, errors.New("the ralph names no agent and parley's own agent is not available")
	}
	logFile, out, closeLog, err := l.openLog(n, prompt)
	if err != nil {
		return false, err
	}
	lw := &lineWriter{emit: func(line string) { l.emit(AgentActivity, EventData{Iteration: n, Line: line}) }}
	actx, cancel := ctx, context.CancelFunc(func() {})
	if l.o.Timeout > 0 {
		actx, cancel = context.WithTimeout(ctx, l.o.Timeout)
	}
	if r.Credit {
		actx = context.WithValue(actx, creditKey{}, true)
	}
	code, runErr := agent.RunPrompt(actx, prompt, io.MultiWriter(out, lw))
	timedOut := actx.Err() != nil && ctx.Err() == nil
	cancel()
	lw.flush()
	closeLog()
	d := EventData{Iteration: n, ReturnCode: &code, Duration: time.Since(start).Seconds(), LogFile: logFile}
	switch {
	case timedOut:
		d.TimedOut = true
		d.Message = fmt.Sprintf("the agent ran past the %s timeout and was stopped", l.o.Timeout)
		l.emit(IterationTimedOut, d)
		return false, nil
	case runErr != nil || code != 0:
		if runErr != nil {
			d.Message = runErr.Error()
		} else {
			d.Message = fmt.Sprintf("the agent exited with status %d", code)
		}
		l.emit(IterationFailed, d)
		return false, nil
	}
	l.emit(IterationDone, d)
	return true, nil
}

// runCommands runs the ralph's commands and returns their output by name.
// A failing or timed-out command is reported; its output (whatever it
// printed) still goes into the prompt.
func (l *Loop) runCommands(ctx context.Context, r *Ralph, args map[string]string) map[string]string {
	out := map[string]string{}
	if len(r.Commands) == 0 {
		return out
	}
	l.emit(CommandsStarted, EventData{})
	for _, c := range r.Commands {
		start := time.Now()
		var buf cappedBuffer
		res := procResult{exitCode: -1}
		argv, err := shell.Fields(ResolveArgs(c.Run, args), nil)
		switch {
		case err != nil || len(argv) == 0:
			fmt.Fprintf(&buf, "(command %s: %q is not a command line: %v)", c.Name, c.Run, err)
		default:
			if strings.HasPrefix(argv[0], "./") {
				argv[0] = filepath.Join(r.Dir, argv[0])
			}
			res = runProcess(ctx, argv, l.o.ProjectDir, nil, &buf, c.Timeout)
			if res.err != nil {
				fmt.Fprintf(&buf, "\n(%v)", res.err)
			}
		}
		out[c.Name] = strings.TrimRight(buf.String(), "\n")
		code := res.exitCode
		l.emit(CommandCompleted, EventData{Name: c.Name, ReturnCode: &code, TimedOut: res.timedOut, Duration: time.Since(start).Seconds()})
		if ctx.Err() != nil {
			break
		}
	}
	l.emit(CommandsCompleted, EventData{})
	return out
}

// openLog opens iteration n's log, starting with the prompt; without a
// log directory the output is discarded.
func (l *Loop) openLog(n int, prompt string) (path string, w io.Writer, closeFn func(), err error) {
	if l.o.LogDir == "" {
		return "", io.Discard, func() {}, nil
	}
	if err := os.MkdirAll(l.o.LogDir, 0o755); err != nil {
		return "", nil, nil, fmt.Errorf("log directory: %w", err)
	}
	path = filepath.Join(l.o.LogDir, fmt.Sprintf("%03d_%s.log", n, time.Now().UTC().Format("20060102-150405")))
	f, err := os.Create(path)
	if err != nil {
		return "", nil, nil, fmt.Errorf("iteration log: %w", err)
	}
	fmt.Fprintf(f, "=== prompt ===\n%s\n=== agent ===\n", prompt)
	return path, f, func() { f.Close() }, nil
}

// cappedBuffer keeps the first maxCommandOutput bytes.
type cappedBuffer struct {
	bytes.Buffer
	dropped bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	room := maxCommandOutput - c.Len()
	if room < len(p) {
		c.dropped = true
	}
	if room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *cappedBuffer) String() string {
	if c.dropped {
		return c.Buffer.String() + "\n(output truncated)"
	}
	return c.Buffer.String()
}
