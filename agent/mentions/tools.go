package mentions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

// Reader reads a file a mention or an @reference names: shown is the
// path as the model sees it, text what it gets. An error means the
// reference stays plain text.
type Reader func(ctx context.Context, path string) (shown, text string, err error)

// Tools runs the agent's tools on the user's behalf, as the model's call
// would run: judged by the agent's permission policy (a rule that asks
// asks), in the turn's environment, and with the ledger's turn set to
// the one Session is about to run. The zero Session counts as turn 1.
type Tools struct {
	Agent   *agent.Agent
	Session *agent.Session
}

// errNoTool is wrapped by Run's error when the registry lacks the tool
// (a prompt command's allowed-tools, a front end without it).
var errNoTool = errors.New("no such tool here")

// Run runs tool name with input (JSON-encoded). A tool error (a model
// mistake, for the model) is returned as an error holding its text.
func (t Tools) Run(ctx context.Context, name string, input any) (string, error) {
	a := t.Agent
	if a == nil || a.Env == nil || a.Registry == nil {
		return "", fmt.Errorf("%s: %w", name, errNoTool)
	}
	tool, ok := a.Registry.Get(name)
	if !ok || tool == nil {
		return "", fmt.Errorf("%s: %w", name, errNoTool)
	}
	in, err := json.Marshal(input)
	if err != nil {
		return "", fmt.Errorf("%s input: %w", name, err)
	}
	call, err := tool.Prepare(a.Env, in)
	if err != nil {
		return "", err
	}
	// A mention could name a file the rules keep from the model or ask
	// about: the policy judges it as the model's call.
	if a.Policy != nil {
		ok, why, err := a.Policy.Check(ctx, a.Approver, tool.Name(), true, call.Access())
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("not allowed: %s", why)
		}
	}
	turn := 1
	if t.Session != nil {
		turn = t.Session.Turns + 1
	}
	ctx = ledger.WithCounter(ledger.WithTurn(ctx, turn), tokcount.For(a.Model))
	res, err := call.Run(ctx)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	if res.IsError {
		return "", errors.New(strings.TrimSpace(res.Content))
	}
	return res.Content, nil
}

// ReadFile reads p with read_file (the whole file, even if seen before,
// within maxTokens; 0 is read_file's default) and returns its
// root-relative path and the tool's text.
func (t Tools) ReadFile(ctx context.Context, p string, maxTokens int) (string, string, error) {
	_, _, rel, err := t.Agent.Env.Roots.Resolve(p)
	if err != nil {
		return "", "", err
	}
	in := map[string]any{"path": p, "full": true}
	if maxTokens > 0 {
		in["max_tokens"] = maxTokens
	}
	text, err := t.Run(ctx, "read_file", in)
	if err != nil {
		return "", "", firstLineErr(err)
	}
	return filepath.ToSlash(rel), text, nil
}

// ToolReader reads references with a's read_file tool, as the model
// would (see Tools), so the read is recorded in s's re-read ledger for
// the turn s is about to run. Without a read_file tool it falls back to
// DiskReader; without roots it is nil.
func ToolReader(a *agent.Agent, s *agent.Session) Reader {
	if a.Env == nil || a.Env.Roots == nil {
		return nil
	}
	if a.Registry == nil {
		return DiskReader(a.Env.Roots)
	}
	if rf, _ := a.Registry.Get("read_file"); rf == nil {
		return DiskReader(a.Env.Roots)
	}
	t := Tools{Agent: a, Session: s}
	return func(ctx context.Context, p string) (string, string, error) {
		return t.ReadFile(ctx, p, 0)
	}
}

// MaxFileSize bounds a file DiskReader inlines.
const MaxFileSize = 256 << 10

// DiskReader reads references from the disk: paths inside roots only,
// symlinks resolved (workspace.Roots.Resolve), regular files up to
// MaxFileSize, inlined as they are. Front ends with the agent's tools use
// ToolReader instead.
func DiskReader(roots *workspace.Roots) Reader {
	return func(_ context.Context, p string) (string, string, error) {
		abs, _, rel, err := roots.Resolve(p)
		if err != nil {
			return "", "", err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", "", cleanErr(err)
		}
		if !fi.Mode().IsRegular() {
			return "", "", errors.New("not a regular file")
		}
		data, err := ReadCapped(abs, MaxFileSize)
		if err != nil {
			return "", "", cleanErr(err)
		}
		if len(data) > MaxFileSize {
			return "", "", fmt.Errorf("larger than %d bytes", MaxFileSize)
		}
		return filepath.ToSlash(rel), string(data), nil
	}
}

// ReadCapped reads at most limit+1 bytes of path: a longer file is seen
// to be too long without reading it whole.
func ReadCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// cleanErr drops the absolute path from a file error: the note names the
// reference already.
func cleanErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such file")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// firstLineErr keeps the first line of a tool's error: a reference's
// note is one line.
func firstLineErr(err error) error {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return errors.New(s)
}

// FileBlock is how a read file is put before the model, after the
// message: the same for prompt commands' @file references and file
// mentions.
func FileBlock(shown, body string) string {
	return fmt.Sprintf("\n\n<file path=%q>\n%s\n</file>", shown, strings.TrimRight(body, "\n"))
}
