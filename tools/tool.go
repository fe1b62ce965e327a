// Package tools holds the agent's tools: one file per tool plus its
// model-facing description (an embedded .md), and the Env through which
// every tool reaches the outside world. The same tools serve the terminal,
// the language server and the MCP server; only the Env differs.
//
// Every tool is built by New from a params struct: its schema is derived
// from the struct, and each call's input is decoded and validated once, in
// Prepare, whose Call then serves both the permission check (Access) and
// the run (Run).
//
// Contracts: a Tool is stateless and safe for concurrent use; per-session
// state lives in the Env. Prepare has no side effects; Run performs the
// call. A model mistake (bad arguments, no match, path outside the roots)
// is an error from Prepare or a Result with IsError set, never a Go error
// from Run; a Go error from Run means the infrastructure failed (the loop
// reports it and stops the turn). Every path a tool receives goes through
// Env.Resolve, which rejects "..", NUL bytes and symlink escapes.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/internal/jsonschema"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

// Tool is one capability offered to the model.
type Tool interface {
	Name() string
	// Description is the model-facing text (from the tool's embedded .md).
	Description() string
	// Schema is the JSON Schema of the input object, derived from the
	// tool's params struct.
	Schema() json.RawMessage
	// ReadOnly tools have no side effects: the loop may run several at once
	// and plan mode allows them.
	ReadOnly() bool
	// Prepare decodes and validates input once and returns the call, ready
	// for the permission check and to run. It must not change anything. An
	// error is the model's mistake (bad arguments, a path outside the
	// roots), which the loop reports to the model as an invalid call.
	Prepare(env *Env, input json.RawMessage) (Call, error)
}

// Call is one prepared call of a tool: its input decoded and validated.
type Call interface {
	// Access says what the call would touch, for the permission policy.
	Access() access.Access
	// Run performs the call.
	Run(ctx context.Context) (*Result, error)
}

// Result is what the model sees.
type Result struct {
	Content string
	IsError bool
	// Changes lists file changes the call applied (for the event sink).
	Changes []FileChange
}

// inputErrorf reports a model mistake in a call's input, worded like the
// decoding errors ("invalid input: ...").
func inputErrorf(format string, args ...any) error {
	return &jsonschema.InputError{Msg: fmt.Sprintf(format, args...)}
}

// Errorf builds a model-facing error result.
func Errorf(format string, args ...any) *Result {
	return &Result{Content: fmt.Sprintf(format, args...), IsError: true}
}

// ChangeOp is the kind of a FileChange.
type ChangeOp uint8

const (
	OpModify ChangeOp = iota
	OpCreate
	OpDelete
	OpRename
)

// FileChange is one file-level change computed by an edit tool.
type FileChange struct {
	Op      ChangeOp
	Path    string // absolute, resolved through Env.Resolve
	NewPath string // OpRename only: absolute target
	// Old is the exact content the change was computed against (as
	// FileView.Read returned it) and Version its version; the Editor refuses
	// the change when the file has moved on since.
	Old     []byte
	Version int32
	New     []byte // OpModify, OpCreate
}

// ApplyResult is the Editor's verdict. Applied false is an outcome for the
// model (the user rejected the edit, or the file changed), not an error.
type ApplyResult struct {
	Applied bool
	Reason  string
}

// Editor applies file changes: in the terminal by atomic writes with an
// undo stack, in the editor through workspace/applyEdit.
type Editor interface {
	Apply(ctx context.Context, label string, changes []FileChange) (ApplyResult, error)
}

// DiskVersion is the version FileView reports for content read from disk.
const DiskVersion int32 = -1

// FileView reads files as the user sees them: an open editor buffer's
// unsaved content if there is one, else the file on disk.
type FileView interface {
	// Read returns the content of an absolute, resolved path and its
	// version (DiskVersion when it came from disk).
	Read(abs string) (content []byte, version int32, err error)
}

// IndexSet finds the index store covering a path. Stores are owned by the
// caller of the agent; tools never close them.
type IndexSet interface {
	// StoreFor returns the store whose root contains abs, and abs relative
	// to that root (slash-separated).
	StoreFor(abs string) (store *index.Store, rel string, ok bool)
	// Stores lists every root's store.
	Stores() []RootStore
}

// RootStore pairs a workspace root with its index.
type RootStore struct {
	Root  string
	Store *index.Store
}

// SubAgentFunc runs a sub-agent with its own context and the named tools
// (a subset of the caller's) and returns its final answer.
type SubAgentFunc func(ctx context.Context, prompt string, tools []string) (string, error)

// Env is everything a tool may use. Fields other than Roots and Files may
// be nil/zero, in which case the tools that need them report that they are
// unavailable.
type Env struct {
	Roots  *workspace.Roots
	Files  FileView
	Editor Editor
	Index  IndexSet
	Todos  *TodoList
	// Ledger, when set, is the session's re-read ledger: read_file answers
	// a re-read with a stub, a diff or an edit certificate, and the edit
	// tools report what they changed to it.
	Ledger *ledger.Ledger
	// Memory backs the long-term memory tools (nil: unavailable). The
	// caller owns and closes its stores.
	Memory *memory.Set
	// SubAgent backs the task tool.
	SubAgent SubAgentFunc
	// HTTPClient backs fetch_url (nil: a default client with a timeout).
	HTTPClient *http.Client
	// ShellTimeout caps a shell command (zero: 120 s; never above 300 s).
	ShellTimeout time.Duration
	// Unsaved, when set, lists absolute paths whose editor content differs
	// from the disk; shell results name them, since commands only see the
	// disk.
	Unsaved func() []string
	// Shell, when set, runs the shell tool's commands (an editor's
	// terminal) instead of a local process group.
	Shell ShellRunner
	// Output, when set, receives streamed output of long-running tools
	// (shell) as it arrives, for display; the Result still holds it all.
	Output func(tool, chunk string)
	// Diagnostics, when set, reports what each applied edit changed in
	// the touched files' errors and warnings, and backs get_diagnostics.
	Diagnostics *Diagnostics
	// CommitTrailers are added to every commit git_commit makes ("Token:
	// value" lines, e.g. parley loop's Co-authored-by credit).
	CommitTrailers []string
}

// Resolve checks p against the workspace roots and returns the absolute,
// symlink-free path and its root-relative form.
func (e *Env) Resolve(p string) (abs, rel string, err error) {
	abs, _, rel, err = e.Roots.Resolve(p)
	return abs, rel, err
}
