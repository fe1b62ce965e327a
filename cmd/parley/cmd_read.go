package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

type readFlags struct {
	session string
	full    bool
	json    bool
}

func newReadCmd(g *globals) *cobra.Command {
	f := &readFlags{}
	cmd := &cobra.Command{
		Use:   "read FILE",
		Short: "Print what the agent's read_file returns to the model, through a session's re-read ledger",
		Long: `read prints exactly what the read_file tool would return to the model of
a session, and records the read in that session's ledger: a second read of
an unchanged file prints the stub the model would get, a file changed in
between (by anything) a diff against the version read before.

Without --session a new session is started; its ID is printed on stderr,
to pass to the next read (or to parley chat --session).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRead(cmd.Context(), g, f, args[0])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.session, "session", "", "the session: its ID, a unique prefix of it, or \"last\" (default: a new session)")
	fs.BoolVar(&f.full, "full", false, "ask for the full text, as read_file's full: true does")
	fs.BoolVar(&f.json, "json", false, "print JSON: the session, the answer's kind and tokens, and the text")
	return cmd
}

// readOutput is parley read --json's output.
type readOutput struct {
	Session string `json:"session"`
	Path    string `json:"path"`
	// Kind is how the ledger answered: full, unchanged, diff, certificate.
	Kind     string `json:"kind,omitempty"`
	Tokens   int    `json:"tokens"`
	Baseline int    `json:"baseline_tokens"`
	IsError  bool   `json:"is_error,omitempty"`
	Content  string `json:"content"`
}

func runRead(ctx context.Context, g *globals, f *readFlags, file string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	root, err := g.workspaceRoot()
	if err != nil {
		return err
	}
	cfg, err := config.Load(config.Options{Workspace: root})
	if err != nil {
		return err
	}
	policy, err := permission.FromConfig(cfg)
	if err != nil {
		return err
	}
	st, err := g.openSessions(root)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := readSession(g, st, f.session)
	if err != nil {
		return err
	}
	l, err := st.OpenLedger(s.ID)
	if err != nil {
		return err
	}
	roots, err := workspace.NewRoots(root)
	if err != nil {
		return err
	}
	env := &tools.Env{Roots: roots, Files: policy.GuardFiles(&tools.DiskView{}, roots), Ledger: l}
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	before := l.Stats()
	// Accounted as the session's agent accounts its reads (its model's
	// tokenizer), so `parley stats --tokens` adds like with like.
	ctx = ledger.WithCounter(ledger.WithTurn(ctx, s.Turns), tokcount.For(cmp.Or(s.Model, cfg.Model)))
	res, err := readAsModel(ctx, policy, env, abs, f.full)
	if err != nil {
		return err
	}
	out := readOutput{Session: s.ID, Path: file, IsError: res.IsError, Content: res.Content}
	for kind, m := range l.Stats().ByKind {
		if b := before.ByKind[kind]; m.Reads > b.Reads {
			out.Kind, out.Tokens, out.Baseline = kind, m.Sent-b.Sent, m.Baseline-b.Baseline
		}
	}
	if f.json {
		return writeJSON(g.stdout, out)
	}
	fmt.Fprint(g.stdout, res.Content)
	if res.IsError {
		return exitCode(1)
	}
	return nil
}

// readAsModel runs read_file on abs as the agent loop would: the
// permission policy first (non-interactive: a question is a denial), then
// the call, with the loop's wording for a refusal.
func readAsModel(ctx context.Context, policy *permission.Policy, env *tools.Env, abs string, full bool) (*tools.Result, error) {
	reg, err := tools.NewRegistry(tools.AgentTools()...)
	if err != nil {
		return nil, err
	}
	tool, ok := reg.Get("read_file")
	if !ok {
		return nil, errors.New("the read_file tool is missing")
	}
	input, err := json.Marshal(map[string]any{"path": abs, "full": full})
	if err != nil {
		return nil, err
	}
	call, err := tool.Prepare(env, input)
	if err != nil {
		return tools.Errorf("invalid call of read_file: %v", err), nil
	}
	allowed, reason, err := policy.Check(ctx, nil, "read_file", true, call.Access())
	if err != nil {
		return nil, fmt.Errorf("permission check for read_file: %w", err)
	}
	if !allowed {
		return tools.Errorf("permission denied: %s. Do not retry this call; choose another approach or ask the user.", reason), nil
	}
	return call.Run(ctx)
}

// readSession is the session named by ref, or a new saved one.
func readSession(g *globals, st *agent.SessionStore, ref string) (*agent.Session, error) {
	if ref != "" {
		id, err := (&chatApp{g: g, sessions: st}).findSession(ref)
		if err != nil {
			return nil, err
		}
		return st.Load(id)
	}
	s := agent.NewSession()
	if err := st.Save(s); err != nil {
		return nil, err
	}
	fmt.Fprintf(g.stderr, "session %s\n", s.ID)
	return s, nil
}
