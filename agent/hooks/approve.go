package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/parleyhq/parley/agent/config"
)

// Approvals are the workspace hook definitions the user allowed to run,
// persisted in a file of the user's config directory (never in the
// workspace, which a repository could pre-fill). Safe for concurrent use.
type Approvals struct {
	path string
	mu   sync.Mutex
	keys map[string]bool
}

// approvalsFile is the JSON shape of the approvals file.
type approvalsFile struct {
	Approved []string `json:"approved"`
}

// DefaultApprovalsFile is os.UserConfigDir()/parley/approved-hooks.json.
func DefaultApprovalsFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("user config directory: %w", err)
	}
	return filepath.Join(dir, "parley", "approved-hooks.json"), nil
}

// OpenApprovals reads the approvals file at path; a missing file holds no
// approvals.
func OpenApprovals(path string) (*Approvals, error) {
	a := &Approvals{path: path, keys: map[string]bool{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return a, nil
	}
	if err != nil {
		return nil, fmt.Errorf("hook approvals %s: %w", path, err)
	}
	var f approvalsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("hook approvals %s: %w", path, err)
	}
	for _, k := range f.Approved {
		a.keys[k] = true
	}
	return a, nil
}

// Key identifies a hook definition in a workspace: any change to the
// event, matcher, command or timeout, or another workspace, needs a new
// approval.
func Key(root string, h config.Hook) string {
	return KeyOf(root, h.Event, h.Matcher, h.Command, strconv.FormatFloat(h.Timeout, 'g', -1, 64))
}

// KeyOf identifies any workspace definition that needs the user's
// approval (a hook, a prompt command's shell lines) by its root and the
// fields whose change must void the approval. Each field is
// length-prefixed, so no two field lists share a key.
func KeyOf(root string, fields ...string) string {
	sum := sha256.New()
	for _, s := range append([]string{root}, fields...) {
		fmt.Fprintf(sum, "%d:%s", len(s), s)
	}
	return hex.EncodeToString(sum.Sum(nil))
}

// Approved reports whether key was approved. A nil Approvals approves
// nothing.
func (a *Approvals) Approved(key string) bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.keys[key]
}

// Approve records keys and writes the file (atomically: a temporary file
// renamed over it).
func (a *Approvals) Approve(keys ...string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range keys {
		a.keys[k] = true
	}
	f := approvalsFile{Approved: make([]string, 0, len(a.keys))}
	for k := range a.keys {
		f.Approved = append(f.Approved, k)
	}
	slices.Sort(f.Approved)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("hook approvals: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(a.path), 0o700); err != nil {
		return fmt.Errorf("hook approvals %s: %w", a.path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(a.path), ".approved-hooks-*")
	if err != nil {
		return fmt.Errorf("hook approvals %s: %w", a.path, err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("hook approvals %s: %w", a.path, err)
	}
	if err := os.Rename(tmp.Name(), a.path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("hook approvals %s: %w", a.path, err)
	}
	return nil
}

// ApproveWorkspace approves every unapproved workspace hook of r and
// returns them.
func (a *Approvals) ApproveWorkspace(r *Runner) ([]config.Hook, error) {
	hs := r.Unapproved()
	keys := make([]string, len(hs))
	for i, h := range hs {
		keys[i] = Key(r.root, h)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	return hs, a.Approve(keys...)
}
