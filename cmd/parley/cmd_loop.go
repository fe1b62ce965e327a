package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/ralph"
	"github.com/parleyhq/parley/tools"
)

type loopFlags struct {
	maxIter     int
	delay       float64
	timeout     float64
	stopOnError bool
	logDir      string
	events      string
	json        bool
	verbose     bool
}

func newLoopCmd(g *globals) *cobra.Command {
	f := &loopFlags{}
	cmd := &cobra.Command{
		Use:   "loop [DIR|RALPH.md] [flags] [-- ARGS]",
		Short: "Run an autonomous agent loop defined by a RALPH.md",
		Long: `loop runs the ralph in DIR (default: the current directory): each
iteration re-reads RALPH.md, runs its commands, fills the prompt's
{{ commands.NAME }}, {{ args.NAME }} and {{ ralph.name|iteration|max_iterations }}
placeholders and gives the prompt to the agent with a fresh context:
parley's own agent, or the command the frontmatter's "agent" names (the
prompt on its stdin). ARGS after -- fill the ralph's declared args
(--name VALUE, or positional in declaration order).

Ctrl+C once finishes the current iteration and stops; twice stops now,
terminating the agent's and the commands' process groups.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLoop(cmd, g, f, args)
		},
	}
	fs := cmd.Flags()
	fs.IntVarP(&f.maxIter, "max-iterations", "n", 0, "stop after N iterations (0: until stopped)")
	fs.Float64Var(&f.delay, "delay", 0, "seconds to wait between iterations")
	fs.Float64Var(&f.timeout, "timeout", 0, "seconds an iteration's agent may run (0: no limit)")
	fs.BoolVar(&f.stopOnError, "stop-on-error", false, "stop when an iteration fails or times out")
	fs.StringVar(&f.logDir, "log-dir", "", "directory for one log per iteration (default: under the data directory)")
	fs.StringVar(&f.events, "events", "", "write the run's events as JSON lines to FILE")
	fs.BoolVar(&f.json, "json", false, "write the run's events as JSON lines to stdout (the console view goes to stderr)")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "show the agent's output in the console view")
	cmd.AddCommand(newLoopNewCmd(g), newLoopLsCmd(g),
		newLoopRequestCmd(g, ralph.RequestPause, "Pause a loop run before its next iteration"),
		newLoopRequestCmd(g, ralph.RequestResume, "Resume a paused loop run"),
		newLoopRequestCmd(g, ralph.RequestStop, "Stop a loop run after its current iteration"))
	return cmd
}

func runLoop(cmd *cobra.Command, g *globals, f *loopFlags, args []string) error {
	target, extra := ".", args
	if n := cmd.ArgsLenAtDash(); n != 0 && len(args) > 0 {
		target, extra = args[0], args[1:]
	}
	if n := cmd.ArgsLenAtDash(); n > 1 {
		return fmt.Errorf("one ralph at a time (got %d before --)", n)
	}
	path, err := ralph.Locate(target)
	if err != nil {
		return err
	}
	project, err := os.Getwd()
	if err != nil {
		return err
	}
	runID := agent.NewID(time.Now())
	logDir := f.logDir
	if logDir == "" {
		base, err := g.dataBase()
		if err != nil {
			return err
		}
		logDir = filepath.Join(base, "loops", runID)
	}
	emit, closeEvents, err := f.emitter(g)
	if err != nil {
		return err
	}
	defer closeEvents()
	reg, err := g.loopRegistry()
	if err != nil {
		return err
	}
	run := registerRun(reg, runID, path, f.maxIter, func(err error) { fmt.Fprintln(g.stderr, "parley:", err) })
	inproc := &inProcessAgent{g: g}
	defer inproc.close()
	l := ralph.New(ralph.Options{
		Path: path, ProjectDir: project, RunID: runID,
		MaxIterations: f.maxIter, Delay: seconds(f.delay), Timeout: seconds(f.timeout),
		StopOnError: f.stopOnError, LogDir: logDir, Args: extra, Agent: inproc,
		Emit: ralph.Fanout(emit, run.emit),
	})
	stopWatch := run.watch(l)
	defer stopWatch()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopSignals := handleLoopSignals(l, cancel, g.stderr)
	defer stopSignals()
	reason, err := l.Run(ctx)
	// A ralph that could not start never emitted run_stopped.
	run.emit(ralph.Event{Type: ralph.RunStopped, Data: ralph.EventData{Reason: reason}})
	if err != nil {
		return err
	}
	if reason == ralph.StopError {
		return exitCode(1)
	}
	return nil
}

// handleLoopSignals makes the first Ctrl+C finish the iteration and the
// second (or SIGTERM) stop now.
func handleLoopSignals(l *ralph.Loop, cancel context.CancelFunc, stderr io.Writer) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-done:
				return
			case s := <-sigs:
				n++
				if n == 1 && s == os.Interrupt {
					fmt.Fprintln(stderr, "parley: finishing this iteration, then stopping; Ctrl+C again to stop now")
					l.Stop()
					continue
				}
				cancel()
			}
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}

// emitter builds the console view plus the JSON event streams asked for.
func (f *loopFlags) emitter(g *globals) (ralph.Emitter, func(), error) {
	console := g.stdout
	var es []ralph.Emitter
	closeFn := func() {}
	if f.json {
		console = g.stderr
		es = append(es, ralph.JSONLines(g.stdout))
	}
	if f.events != "" {
		ef, err := os.OpenFile(f.events, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("events file: %w", err)
		}
		closeFn = func() { ef.Close() }
		es = append(es, ralph.JSONLines(ef))
	}
	es = append(es, ralph.Console(console, f.verbose))
	return ralph.Fanout(es...), closeFn, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// inProcessAgent runs parley's own agent, opened on first use (a ralph
// with an external agent never needs a model configured).
type inProcessAgent struct {
	g   *globals
	app *chatApp
}

func (a *inProcessAgent) RunPrompt(ctx context.Context, prompt string, out io.Writer) (int, error) {
	if a.app == nil {
		app, err := openChat(a.g, &chatFlags{noWatch: true}, pflag.NewFlagSet("loop", pflag.ContinueOnError), false)
		if err != nil {
			return -1, fmt.Errorf("parley's agent: %w", err)
		}
		a.app = app
	}
	a.app.newFocus() // each iteration is a new session
	a.app.focusPrompt(prompt)
	ag := a.app.agent
	ag.Sink = func(e agent.Event) { writeLoopEvent(out, e) }
	ag.Env.CommitTrailers = nil
	if ralph.Credited(ctx) {
		ag.Env.CommitTrailers = []string{ralph.CreditTrailer}
	}
	s := agent.NewSession()
	// A new session's model has seen nothing: its own re-read ledger.
	a.app.useLedger(s)
	if a.app.lsp != nil {
		// Its turns count from 1 again: "the files touched this turn"
		// must not include the last iteration's.
		ag.Env.Diagnostics = tools.NewDiagnostics(a.app.lsp)
	}
	prompt = expandMentions(ctx, ag, s, prompt, func(r mentions.Report) { fmt.Fprintln(out, mentionLine(r)) })
	res, err := ag.Run(ctx, s, prompt)
	ag.EndSession(context.Background(), s, "other")
	if err != nil {
		return 1, err
	}
	if res.StopReason != agent.StopEndTurn {
		return 1, errors.New("the agent stopped: " + string(res.StopReason))
	}
	return 0, nil
}

func (a *inProcessAgent) close() {
	if a.app != nil {
		a.app.close()
	}
}

// writeLoopEvent puts the in-process agent's work in the iteration log.
func writeLoopEvent(out io.Writer, e agent.Event) {
	switch e.Kind {
	case agent.EventText:
		io.WriteString(out, e.Text)
	case agent.EventToolCall:
		fmt.Fprintf(out, "\n▸ %s %s\n", e.ToolName, summarize(e.Input))
	case agent.EventToolResult:
		if e.Result.IsError {
			fmt.Fprintf(out, "  ✗ %s\n", clip(firstLineOf(e.Result.Content), 200))
		}
	case agent.EventHook, agent.EventCompaction:
		fmt.Fprintf(out, "\n%s\n", e.Text)
	case agent.EventDone:
		io.WriteString(out, "\n")
	}
}
