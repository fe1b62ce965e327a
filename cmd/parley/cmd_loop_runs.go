package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/ralph"
)

// requestPoll is how often a run looks for pause, resume and stop
// requests from `parley loop pause|resume|stop`.
const requestPoll = 200 * time.Millisecond

func (g *globals) loopRegistry() (*ralph.Registry, error) {
	base, err := g.dataBase()
	if err != nil {
		return nil, err
	}
	return ralph.OpenRegistry(filepath.Join(base, "loops", "runs"))
}

// registeredRun keeps a run's entry in the registry current and applies
// the requests other processes make of it.
type registeredRun struct {
	reg  *ralph.Registry
	mu   sync.Mutex
	info ralph.RunInfo
	warn func(error)
}

func registerRun(reg *ralph.Registry, id, path string, maxIter int, warn func(error)) *registeredRun {
	r := &registeredRun{reg: reg, warn: warn, info: ralph.RunInfo{
		ID: id, Ralph: path, PID: os.Getpid(), Started: time.Now().UTC(), State: ralph.StateRunning, MaxIterations: maxIter,
	}}
	r.put()
	return r
}

func (r *registeredRun) put() {
	if err := r.reg.Put(r.info); err != nil {
		r.warn(err)
	}
}

// emit follows the run's events into its entry.
func (r *registeredRun) emit(e ralph.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e.Type {
	case ralph.IterationStarted:
		r.info.Iteration = e.Data.Iteration
	case ralph.IterationDone:
		r.info.Completed++
	case ralph.IterationFailed, ralph.IterationTimedOut:
		r.info.Failed++
	case ralph.RunPaused:
		r.info.State = ralph.StatePaused
	case ralph.RunResumed:
		r.info.State = ralph.StateRunning
	case ralph.RunStopped:
		r.info.State, r.info.StopReason = ralph.StateStopped, e.Data.Reason
	default:
		return
	}
	r.put()
}

// watch applies requests to l until stop is called.
func (r *registeredRun) watch(l *ralph.Loop) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(requestPoll)
		defer t.Stop()
		last := ""
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			req := r.reg.Pending(r.info.ID)
			if req == last {
				continue
			}
			last = req
			switch req {
			case ralph.RequestPause:
				l.Pause()
			case ralph.RequestResume:
				l.Resume()
			case ralph.RequestStop:
				l.Stop()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		r.reg.Forget(r.info.ID)
	}
}

func newLoopLsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "ls",
		Short: "List loop runs (of every workspace) and their state",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			reg, err := g.loopRegistry()
			if err != nil {
				return err
			}
			runs, err := reg.List()
			if err != nil {
				return err
			}
			if len(runs) == 0 {
				fmt.Fprintln(g.stdout, "no loop runs")
				return nil
			}
			for _, r := range runs {
				iter := fmt.Sprint(r.Iteration)
				if r.MaxIterations > 0 {
					iter += fmt.Sprintf("/%d", r.MaxIterations)
				}
				state := r.State
				if r.StopReason != "" {
					state += " (" + r.StopReason + ")"
				}
				fmt.Fprintf(g.stdout, "%s  %-26s iteration %-7s %d done, %d failed  pid %d  %s\n",
					r.ID, state, iter, r.Completed, r.Failed, r.PID, r.Ralph)
			}
			return nil
		},
	}
}

func newLoopRequestCmd(g *globals, req, short string) *cobra.Command {
	return &cobra.Command{
		Use:   req + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			reg, err := g.loopRegistry()
			if err != nil {
				return err
			}
			r, err := reg.Find(args[0])
			if err != nil {
				return err
			}
			if r.State == ralph.StateStopped || r.State == ralph.StateDead {
				return fmt.Errorf("run %s is %s", r.ID, r.State)
			}
			if err := reg.Request(r.ID, req); err != nil {
				return err
			}
			fmt.Fprintf(g.stdout, "asked run %s to %s\n", r.ID, req)
			return nil
		},
	}
}
