package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/parleyhq/parley/agent/config"
)

// Approvals are the user's answers about a workspace's own servers: a
// workspace file may come with a cloned repository, so its servers run
// only once the user allowed them, and an approval holds for the exact
// definition it was given for (config.MCPServer.Fingerprint). They live in
// a JSON file of the workspace's data directory, outside the repository.
type Approvals struct {
	Path string
}

// Load returns the approved fingerprints by server name (none when the
// file does not exist yet).
func (a Approvals) Load() (map[string]string, error) {
	data, err := os.ReadFile(a.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcp approvals: %w", err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("mcp approvals %s: %w", a.Path, err)
	}
	return m, nil
}

// Allow records that the user allowed srv under name.
func (a Approvals) Allow(name string, srv config.MCPServer) error {
	return a.update(func(m map[string]string) { m[name] = srv.Fingerprint() })
}

// Revoke forgets the approval of name.
func (a Approvals) Revoke(name string) error {
	return a.update(func(m map[string]string) { delete(m, name) })
}

func (a Approvals) update(change func(map[string]string)) error {
	m, err := a.Load()
	if err != nil {
		return err
	}
	change(m)
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(a.Path), 0o700); err != nil {
		return fmt.Errorf("mcp approvals: %w", err)
	}
	tmp := a.Path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("mcp approvals: %w", err)
	}
	if err := os.Rename(tmp, a.Path); err != nil {
		return fmt.Errorf("mcp approvals: %w", err)
	}
	return nil
}

// Select splits the configured servers into those that may run (every
// user server, and the workspace servers approved with their current
// definition) and the names of the workspace servers waiting for an
// approval, sorted.
func Select(servers map[string]config.MCPServer, approved map[string]string) (run map[string]config.MCPServer, pending []string) {
	run = map[string]config.MCPServer{}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		srv := servers[name]
		if srv.Workspace && approved[name] != srv.Fingerprint() {
			pending = append(pending, name)
			continue
		}
		run[name] = srv
	}
	return run, pending
}

// StartAllowed starts the servers of opts.Servers that may run (see
// Select); each workspace server still waiting for approval is reported
// through opts.Report as failed, with the command that allows it. A nil
// Manager (nothing to run) is ready to use.
func StartAllowed(ctx context.Context, ap Approvals, opts Options) *Manager {
	approved, err := ap.Load()
	if err != nil {
		opts.report(Event{Kind: EventFailed, Server: "(workspace)", Err: fmt.Errorf("workspace servers not started: %w", err)})
		approved = map[string]string{}
	}
	run, pending := Select(opts.Servers, approved)
	for _, name := range pending {
		opts.report(Event{Server: name, Kind: EventFailed, Err: fmt.Errorf("%w (%s): run parley mcp allow %s",
			ErrNotAllowed, opts.Servers[name].Describe(), name)})
	}
	if len(run) == 0 {
		return nil
	}
	opts.Servers = run
	return Start(ctx, opts)
}

// ErrNotAllowed is the reason a workspace server waiting for approval did
// not start.
var ErrNotAllowed = errors.New("the workspace config defines this server, and it runs only once the user allows it")
