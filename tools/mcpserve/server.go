// Package mcpserve serves parley's code-index and file tools to any agent
// that speaks the Model Context Protocol (`parley mcp`), over stdio or
// streamable HTTP, through the official SDK (github.com/modelcontextprotocol/go-sdk).
//
// The tools are the agent's own tools.Tool implementations, adapted: each
// MCP call is decoded and validated by the tool's Prepare, judged by the
// same permission.Policy as the terminal and editor agents, and run. There
// is nobody to ask on this side (the MCP client asks its own user), so a
// call the policy would ask about is refused with the policy's reason.
//
// Besides the agent's tools it serves repo_map (the ranked map the agent
// has in its system prompt) and, with Options.Memory, the long-term
// memory tools and the vector_db_* tools (see memory.go, vector.go).
//
// Contracts: read-only tools only, unless Options.AllowEdits, which adds
// the edit tools (and is refused for a plan-mode policy, which could never
// allow them), and Options.MemoryWrites, which adds remember,
// forget_memory and the vector_db_* tools that write. The server answers before the first index run is over
// (Options.Ready): an index tool waits for it at most Options.IndexWait,
// then answers (an error result) how far indexing got. Every MCP session
// gets its own tools.Env (per-session state, such as a read ledger, lives
// there), created on its first call and
// dropped when the session ends; the index, file view and editor behind
// them are shared and owned by the caller. Model mistakes (bad arguments,
// a path outside the roots, a denied call) are tool results with IsError;
// an infrastructure failure of a tool is a JSON-RPC error.
package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

// ReadTools are the tools served by default: reading files and the index
// (symbol search, definitions, references, outline, dependencies,
// dependents, which without a path lists the workspace's hubs, and the
// repo map).
var ReadTools = []string{
	"read_file", "get_symbol", "find_definition", "find_references",
	"outline", "get_dependencies", "get_dependents", "repo_map",
}

// indexTools answer from the index, so they wait for the first run.
var indexTools = map[string]bool{
	"get_symbol": true, "find_definition": true, "find_references": true, "outline": true,
	"get_dependencies": true, "get_dependents": true, "repo_map": true,
}

// EditTools are added by Options.AllowEdits. The shell is never served:
// the MCP client has its own.
var EditTools = []string{"write_file", "edit_file", "multi_edit", "delete_file", "move_file"}

// Options configure a Server.
type Options struct {
	Roots *workspace.Roots
	// Files reads files for the tools (typically the policy's guard over a
	// tools.DiskView, so reads honour read deny rules).
	Files tools.FileView
	// Index is the code index; nil makes the index tools say it is
	// unavailable.
	Index tools.IndexSet
	// Editor applies edits; required with AllowEdits.
	Editor tools.Editor
	// Policy judges every call; required.
	Policy *permission.Policy
	// AllowEdits serves the edit tools.
	AllowEdits bool
	// Memory, when set, serves recall_memories and the vector tools that
	// read (and, with MemoryWrites, remember, forget_memory and the
	// vector tools that write) over its stores; the caller closes it.
	Memory       *memory.Set
	MemoryWrites bool
	// Ready, when set, is the first index run under way; index tools wait
	// for it at most IndexWait (zero: DefaultIndexWait).
	Ready     *Readiness
	IndexWait time.Duration
	// Version is reported to clients as the server's version.
	Version string
}

// Server is parley's MCP server. Safe for concurrent use.
type Server struct {
	opts Options
	srv  *mcp.Server

	mu   sync.Mutex
	envs map[*mcp.ServerSession]*tools.Env
	// onDrop, when set (by tests), is called after a session's Env is
	// dropped.
	onDrop func()
}

// New builds the server and its tool list.
func New(opts Options) (*Server, error) {
	if opts.Roots == nil || opts.Files == nil || opts.Policy == nil {
		return nil, errors.New("mcp server: roots, files and policy are required")
	}
	names := slices.Clone(ReadTools)
	if opts.AllowEdits {
		if opts.Editor == nil {
			return nil, errors.New("mcp server: --allow-edits needs an editor")
		}
		if opts.Policy.Mode() == permission.ModePlan {
			return nil, errors.New("mcp server: permission_mode plan forbids every edit, so --allow-edits cannot be honoured; choose another permission_mode")
		}
		names = append(names, EditTools...)
	}
	if opts.MemoryWrites && opts.Memory == nil {
		return nil, errors.New("mcp server: memory writes need the memory stores")
	}
	if opts.Memory != nil {
		names = append(append(names, MemoryReadTools...), VectorReadTools...)
		if opts.MemoryWrites {
			names = append(append(names, MemoryWriteTools...), VectorWriteTools...)
		}
	}
	if opts.IndexWait <= 0 {
		opts.IndexWait = DefaultIndexWait
	}
	all, err := tools.NewRegistry(slices.Concat(tools.FileTools(), tools.MemoryTools(), tools.VectorTools(), []tools.Tool{repoMapTool(&mappers{})})...)
	if err != nil {
		return nil, err
	}
	reg, err := all.Subset(names...)
	if err != nil {
		return nil, fmt.Errorf("mcp server: %w", err)
	}
	s := &Server{opts: opts, envs: make(map[*mcp.ServerSession]*tools.Env)}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "parley", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "parley's code index of this workspace: a ranked map of it (repo_map), find symbols, definitions, " +
			"references, outlines, imports and importers (get_dependents without a path lists the most imported files), " +
			"and read files.",
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	for _, t := range reg.Tools() {
		s.srv.AddTool(&mcp.Tool{
			Name: t.Name(), Description: t.Description(), InputSchema: t.Schema(),
			Annotations: annotations(t),
		}, s.handler(t))
	}
	return s, nil
}

// MCP is the SDK server, for transports.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Run serves one session over t (stdio: &mcp.StdioTransport{}) until the
// client disconnects or ctx is cancelled. A client that breaks the stdio
// stream (see StdioTransport) makes it return a *wire.Error.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.srv.Run(ctx, t)
	if st, ok := t.(*stdioTransport); ok {
		if we := st.broken.Load(); we != nil {
			return fmt.Errorf("mcp stdio: %w", we)
		}
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

func annotations(t tools.Tool) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{ReadOnlyHint: t.ReadOnly()}
	if !t.ReadOnly() {
		destructive := destructiveTools[t.Name()]
		a.DestructiveHint = &destructive
	}
	open := false
	a.OpenWorldHint = &open
	return a
}

// handler adapts one tool: Prepare, the policy, Run; an index tool first
// waits for the first index run, a memory tool opens the memory.
func (s *Server) handler(t tools.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if indexTools[t.Name()] {
			wctx, cancel := context.WithTimeout(ctx, s.opts.IndexWait)
			pending := s.opts.Ready.wait(wctx)
			cancel()
			if pending != "" {
				return errorResult(fmt.Sprintf("%s: the index is not ready yet (%s); call again in a moment", t.Name(), pending)), nil
			}
		}
		env := s.env(req.Session)
		args := req.Params.Arguments
		if len(args) == 0 {
			args = []byte("{}")
		}
		res, err := s.call(ctx, t, env, args)
		if err != nil {
			return nil, err
		}
		text := res.Content
		if text == "" {
			text = "(no output)"
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: res.IsError}, nil
	}
}

// call prepares, judges and runs one call on env; mistakes and refusals
// are error results.
func (s *Server) call(ctx context.Context, t tools.Tool, env *tools.Env, args []byte) (*tools.Result, error) {
	c, err := t.Prepare(env, args)
	if err != nil {
		return tools.Errorf("%s: %v", t.Name(), err), nil
	}
	ok, reason, err := s.opts.Policy.Check(ctx, nil, t.Name(), t.ReadOnly(), c.Access())
	if err != nil {
		return nil, err
	}
	if !ok {
		return tools.Errorf("%s", reason), nil
	}
	res, err := c.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name(), err)
	}
	return res, nil
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// env returns the session's Env, creating it on the session's first call;
// it is dropped when the session ends.
func (s *Server) env(ss *mcp.ServerSession) *tools.Env {
	s.mu.Lock()
	defer s.mu.Unlock()
	if env, ok := s.envs[ss]; ok {
		return env
	}
	// Each session has its own re-read ledger: a client re-reading a file
	// it read in this session gets a stub or a diff, not the file again.
	env := &tools.Env{Roots: s.opts.Roots, Files: s.opts.Files, Index: s.opts.Index, Todos: &tools.TodoList{}, Ledger: ledger.NewMemory(), Memory: s.opts.Memory}
	if s.opts.AllowEdits {
		env.Editor = s.opts.Editor
	}
	if ss == nil {
		return env // not a session (direct calls in tests): nothing to key it by
	}
	s.envs[ss] = env
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.envs, ss)
		onDrop := s.onDrop
		s.mu.Unlock()
		if onDrop != nil {
			onDrop()
		}
	}()
	return env
}

// sessions is the number of live session environments (for tests).
func (s *Server) sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.envs)
}
