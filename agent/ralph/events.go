package ralph

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Event types, as Ralphify names them.
const (
	RunStarted        = "run_started"
	RunStopped        = "run_stopped"
	RunPaused         = "run_paused"
	RunResumed        = "run_resumed"
	IterationStarted  = "iteration_started"
	IterationDone     = "iteration_completed"
	IterationFailed   = "iteration_failed"
	IterationTimedOut = "iteration_timed_out"
	CommandsStarted   = "commands_started"
	CommandCompleted  = "command_completed"
	CommandsCompleted = "commands_completed"
	PromptAssembled   = "prompt_assembled"
	AgentActivity     = "agent_activity"
	LogMessage        = "log_message"
)

// Stop reasons of RunStopped.
const (
	StopCompleted     = "completed"      // max iterations reached
	StopError         = "error"          // --stop-on-error, or the ralph could not run
	StopUserRequested = "user_requested" // Ctrl+C or `parley loop stop`
)

// Event is one thing that happened in a run.
type Event struct {
	Type      string    `json:"type"`
	RunID     string    `json:"run_id"`
	Timestamp time.Time `json:"timestamp"`
	Data      EventData `json:"data"`
}

// EventData holds the fields of every event type; those an event does not
// use stay empty.
type EventData struct {
	Ralph         string  `json:"ralph,omitempty"`
	Iteration     int     `json:"iteration,omitempty"`
	MaxIterations int     `json:"max_iterations,omitempty"`
	Reason        string  `json:"reason,omitempty"`
	Name          string  `json:"name,omitempty"`
	ReturnCode    *int    `json:"returncode,omitempty"`
	TimedOut      bool    `json:"timed_out,omitempty"`
	Duration      float64 `json:"duration,omitempty"` // seconds
	Length        int     `json:"length,omitempty"`   // prompt_assembled: bytes
	LogFile       string  `json:"log_file,omitempty"`
	Line          string  `json:"line,omitempty"`    // agent_activity
	Message       string  `json:"message,omitempty"` // log_message and failures
	Completed     int     `json:"completed,omitempty"`
	Failed        int     `json:"failed,omitempty"`
}

// Emitter receives a run's events, one at a time, in order.
type Emitter func(Event)

// JSONLines writes each event as one JSON line.
func JSONLines(w io.Writer) Emitter {
	var mu sync.Mutex
	enc := json.NewEncoder(w)
	return func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(e)
	}
}

// Fanout sends each event to every emitter.
func Fanout(es ...Emitter) Emitter {
	return func(e Event) {
		for _, em := range es {
			if em != nil {
				em(e)
			}
		}
	}
}

// Console renders events for a person: one line per iteration and
// command, a progress line after each iteration, the agent's output when
// verbose.
func Console(w io.Writer, verbose bool) Emitter {
	var (
		mu           sync.Mutex
		start        time.Time
		max          int
		done, failed int
	)
	return func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		d := e.Data
		switch e.Type {
		case RunStarted:
			start, max = e.Timestamp, d.MaxIterations
			fmt.Fprintf(w, "▶ %s: run %s (%s)\n", d.Ralph, e.RunID, iterationsText(d.MaxIterations))
		case IterationStarted:
			fmt.Fprintf(w, "── iteration %d%s ──\n", d.Iteration, ofText(d.MaxIterations))
		case CommandCompleted:
			status := "ok"
			switch {
			case d.TimedOut:
				status = "timed out"
			case d.ReturnCode != nil && *d.ReturnCode != 0:
				status = fmt.Sprintf("exit %d", *d.ReturnCode)
			}
			fmt.Fprintf(w, "  $ %s: %s (%.1fs)\n", d.Name, status, d.Duration)
		case PromptAssembled:
			fmt.Fprintf(w, "  prompt: %d bytes\n", d.Length)
		case AgentActivity:
			if verbose {
				fmt.Fprintf(w, "  │ %s\n", d.Line)
			}
		case IterationDone, IterationFailed, IterationTimedOut:
			word := map[string]string{IterationDone: "✓ done", IterationFailed: "✗ failed", IterationTimedOut: "⏱ timed out"}[e.Type]
			line := fmt.Sprintf("  %s in %.1fs", word, d.Duration)
			if d.Message != "" {
				line += ": " + d.Message
			}
			if d.LogFile != "" {
				line += " · log " + d.LogFile
			}
			fmt.Fprintln(w, line)
			if e.Type == IterationDone {
				done++
			} else {
				failed++
			}
			fmt.Fprintf(w, "  progress: %d%s iterations · %d done · %d failed · %s elapsed\n",
				d.Iteration, ofSlash(max), done, failed, e.Timestamp.Sub(start).Round(time.Second))
		case RunPaused:
			fmt.Fprintln(w, "  ⏸ paused (parley loop resume "+e.RunID+")")
		case RunResumed:
			fmt.Fprintln(w, "  ▶ resumed")
		case LogMessage:
			fmt.Fprintf(w, "  %s\n", d.Message)
		case RunStopped:
			fmt.Fprintf(w, "■ stopped (%s): %d completed, %d failed\n", d.Reason, d.Completed, d.Failed)
		}
	}
}

func iterationsText(max int) string {
	if max <= 0 {
		return "until stopped"
	}
	return fmt.Sprintf("%d iterations", max)
}

func ofSlash(max int) string {
	if max <= 0 {
		return ""
	}
	return fmt.Sprintf("/%d", max)
}

func ofText(max int) string {
	if max <= 0 {
		return ""
	}
	return fmt.Sprintf(" of %d", max)
}

// lineWriter turns written bytes into agent_activity events, one per line.
type lineWriter struct {
	emit func(line string)
	buf  strings.Builder
}

func (l *lineWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			l.emit(l.buf.String())
			l.buf.Reset()
			continue
		}
		if l.buf.Len() < 4096 {
			l.buf.WriteByte(b)
		}
	}
	return len(p), nil
}

func (l *lineWriter) flush() {
	if l.buf.Len() > 0 {
		l.emit(l.buf.String())
		l.buf.Reset()
	}
}
