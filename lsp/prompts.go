package lsp

import (
	"context"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/prompts"
)

// methodPromptCommands lists the prompt commands (docs/protocol.md).
const methodPromptCommands = "parley/promptCommands"

// PromptCommand is one entry of parley/promptCommands' result.
type PromptCommand struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint,omitempty"`
	Source       string `json:"source"` // "workspace" or "user"
	// Shell says the command runs shell lines; NeedsApproval that they
	// wait for `parley commands approve`, so running it now fails.
	Shell         bool `json:"shell,omitempty"`
	NeedsApproval bool `json:"needsApproval,omitempty"`
}

// promptCommands reads the command files of every folder (the first
// folder's wins a name) and the user's. Read per request: a directory or
// two, and an edited file counts at once.
func (s *Server) promptCommands() *prompts.Set {
	s.mu.RLock()
	roots := s.roots
	s.mu.RUnlock()
	var paths []string
	if roots != nil {
		paths = roots.Paths()
	}
	set := prompts.Load(prompts.Dirs(paths...))
	for _, p := range set.Problems {
		if _, seen := loggedProblems.LoadOrStore(p, true); !seen {
			s.log.Warnf("%s", p)
		}
	}
	return set
}

// loggedProblems are the command file problems already logged: the files
// are read at every request, the log says each once per process.
var loggedProblems sync.Map

func (s *Server) listPromptCommands() []PromptCommand {
	var ap *hooks.Approvals
	if path, err := hooks.DefaultApprovalsFile(); err == nil {
		if ap, err = hooks.OpenApprovals(path); err != nil {
			s.log.Warnf("%s: %v", methodPromptCommands, err)
		}
	}
	out := []PromptCommand{}
	for _, c := range s.promptCommands().List() {
		out = append(out, PromptCommand{
			Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint, Source: string(c.Source),
			Shell: len(c.ShellLines()) > 0, NeedsApproval: c.NeedsApproval(ap),
		})
	}
	return out
}

// pendingCommand is a chat message that names a prompt command: expanded
// once the turn's agent exists (its @files are read as its read_file
// would read them).
type pendingCommand struct {
	c      *prompts.Command
	args   string
	suffix string // the editor context the message came with
}

// commandOf returns the prompt command msg invokes, or nil.
func (s *Server) commandOf(msg string) *prompts.Command {
	name, _, ok := prompts.Invocation(msg)
	if !ok {
		return nil
	}
	return s.promptCommands().Lookup(name)
}

// expand makes the turn's message and agent; a refused command fails the
// request with the reason.
func (pc *pendingCommand) expand(ctx context.Context, s *Server, a *agent.Agent, ls *liveSession) (*agent.Agent, string, error) {
	var dir string
	if a.Env != nil && a.Env.Roots != nil {
		dir = a.Env.Roots.Paths()[0]
	}
	x, err := pc.c.Expand(ctx, prompts.Options{Args: pc.args, Dir: dir, Read: mentions.ToolReader(a, ls.session)})
	if err != nil {
		return nil, "", requestFailed("%v", err)
	}
	turn := x.Agent(a)
	for _, n := range x.Notes {
		// What the user should know (a reference left as text, a shell
		// line that failed) is shown where the editor shows messages.
		s.log.Warnf("%s", n)
		_ = s.client.ShowMessage(context.WithoutCancel(ctx), &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: "parley: " + n})
	}
	return turn, x.Prompt + pc.suffix, nil
}
