package ralph

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Run states in a RunInfo.
const (
	StateRunning = "running"
	StatePaused  = "paused"
	StateStopped = "stopped"
	StateDead    = "dead" // the process is gone without saying it stopped
)

// Requests another process makes of a run.
const (
	RequestPause  = "pause"
	RequestResume = "resume"
	RequestStop   = "stop"
)

// RunInfo describes a registered run.
type RunInfo struct {
	ID            string    `json:"id"`
	Ralph         string    `json:"ralph"` // the RALPH.md
	PID           int       `json:"pid"`
	Started       time.Time `json:"started"`
	Updated       time.Time `json:"updated"`
	State         string    `json:"state"`
	Iteration     int       `json:"iteration"`
	MaxIterations int       `json:"max_iterations,omitempty"`
	Completed     int       `json:"completed"`
	Failed        int       `json:"failed"`
	StopReason    string    `json:"stop_reason,omitempty"`
}

// Registry is a directory of runs, so loops running in several terminals
// can be listed and controlled from another. Each run has two files: its
// RunInfo (ID.json), written only by the run, and a request (ID.request),
// written only by controllers; so no file has two writers.
type Registry struct{ dir string }

// OpenRegistry uses dir, creating it.
func OpenRegistry(dir string) (*Registry, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("loop registry: %w", err)
	}
	return &Registry{dir: dir}, nil
}

// Put writes a run's info (atomically).
func (r *Registry) Put(info RunInfo) error {
	info.Updated = time.Now().UTC()
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(r.dir, info.ID+".json"), data)
}

// List returns the registered runs, newest first. A run whose process is
// gone without having stopped is reported dead.
func (r *Registry) List() ([]RunInfo, error) {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, fmt.Errorf("loop registry: %w", err)
	}
	var out []RunInfo
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		info, err := r.get(id)
		if err != nil {
			continue // being replaced; the next ls shows it
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b RunInfo) int { return b.Started.Compare(a.Started) })
	return out, nil
}

func (r *Registry) get(id string) (RunInfo, error) {
	var info RunInfo
	data, err := os.ReadFile(filepath.Join(r.dir, id+".json"))
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("run %s: %w", id, err)
	}
	if info.State != StateStopped && !processAlive(info.PID) {
		info.State = StateDead
	}
	return info, nil
}

// Find resolves an ID or a unique prefix of one among live runs.
func (r *Registry) Find(ref string) (RunInfo, error) {
	runs, err := r.List()
	if err != nil {
		return RunInfo{}, err
	}
	var match []RunInfo
	for _, info := range runs {
		if info.ID == ref {
			return info, nil
		}
		if strings.HasPrefix(info.ID, ref) {
			match = append(match, info)
		}
	}
	switch len(match) {
	case 0:
		return RunInfo{}, fmt.Errorf("no loop run %q (parley loop ls lists them)", ref)
	case 1:
		return match[0], nil
	}
	return RunInfo{}, fmt.Errorf("%q matches %d runs; give more of the ID", ref, len(match))
}

// Request asks run id to pause, resume or stop.
func (r *Registry) Request(id, req string) error {
	return writeAtomic(filepath.Join(r.dir, id+".request"), []byte(req))
}

// Pending returns the last request made of run id ("" if none).
func (r *Registry) Pending(id string) string {
	data, err := os.ReadFile(filepath.Join(r.dir, id+".request"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// Forget removes a finished run's request file (its info stays for ls).
// A failure only leaves a stale file that nothing reads.
func (r *Registry) Forget(id string) {
	_ = os.Remove(filepath.Join(r.dir, id+".request"))
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("loop registry: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("loop registry: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("loop registry: %w", err)
	}
	return nil
}

// processAlive reports whether pid runs (signal 0 reaches it).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
