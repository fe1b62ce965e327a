package mcpserve

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

// rootIndex is the IndexSet of a one-root test workspace.
type rootIndex struct {
	root string
	st   *index.Store
}

func (r rootIndex) StoreFor(abs string) (*index.Store, string, bool) {
	rel, err := filepath.Rel(r.root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, "", false
	}
	return r.st, filepath.ToSlash(rel), true
}

func (r rootIndex) Stores() []tools.RootStore { return []tools.RootStore{{Root: r.root, Store: r.st}} }

// testOptions indexes the shop fixture and returns server options over it
// with a policy of mode and rules.
func testOptions(t *testing.T, mode permission.Mode, rules permission.Rules) (Options, string) {
	t.Helper()
	ws := fixture.Workspace(t, "shop")
	st, err := nav.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), ws, index.Options{}); err != nil {
		t.Fatal(err)
	}
	roots, err := workspace.NewRoots(ws)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := permission.New(mode, rules)
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Roots: roots, Files: pol.GuardFiles(&tools.DiskView{}, roots), Index: rootIndex{ws, st},
		Editor: tools.NewDiskEditor(roots), Policy: pol, Version: "test",
	}, ws
}

// connect serves s over an in-memory transport and returns a client
// session.
// mustNew builds a server from opts or fails the test.
func mustNew(t *testing.T, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func connect(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.(*mcp.TextContent).Text)
	}
	return b.String(), res.IsError
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil || tl.Description == "" {
			t.Errorf("%s: no schema or description", tl.Name)
		}
	}
	return names
}

// TestReadTools lists the default tools and calls each through an MCP
// client: the results are the agent tools' own.
func TestReadTools(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	cs := connect(t, s)
	if got := toolNames(t, cs); !slices.Equal(got, sorted(ReadTools)) {
		t.Errorf("tools = %v, want %v", got, sorted(ReadTools))
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": "cart/fee.go"}, "func Discount()"},
		{"get_symbol", map[string]any{"name": "Cart.Total"}, "sum += price.Of(it)"},
		{"find_definition", map[string]any{"name": "Discount"}, "cart/fee.go:4"},
		{"find_references", map[string]any{"name": "Of"}, "cart/cart.go:"},
		{"outline", map[string]any{"path": "cart/cart.go"}, "Total"},
		{"get_dependencies", map[string]any{"path": "cart/cart.go"}, "price"},
		{"get_dependents", map[string]any{"path": "price"}, "cart/cart.go"},
		{"get_dependents", map[string]any{}, "price"}, // the hubs
	} {
		got, isErr := call(t, cs, tc.tool, tc.args)
		if isErr || !strings.Contains(got, tc.want) {
			t.Errorf("%s %v: isError=%v, want %q in:\n%s", tc.tool, tc.args, isErr, tc.want, got)
		}
	}
}

// TestModelMistakes: bad arguments, escaping paths, unknown tools and
// edits without --allow-edits are answered, and the session goes on.
func TestModelMistakes(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{Deny: []string{"read(price/**)"}})
	s := mustNew(t, opts)
	cs := connect(t, s)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": "../outside"}, "escapes the workspace"},
		{"read_file", map[string]any{"path": "go.mod", "bogus": 1}, `unknown field "bogus"`},
		{"read_file", map[string]any{}, "path"},
		{"read_file", map[string]any{"path": "price/price.go"}, "read(price/**)"},
	} {
		got, isErr := call(t, cs, tc.tool, tc.args)
		if !isErr || !strings.Contains(got, tc.want) {
			t.Errorf("%s: isError=%v, want an error with %q:\n%.300s", tc.tool, isErr, tc.want, got)
		}
	}
	// A huge argument is answered like any other.
	if got, _ := call(t, cs, "find_definition", map[string]any{"name": strings.Repeat("x", 1<<20)}); !strings.HasPrefix(got, "no symbol named xxx") {
		t.Errorf("huge name: %.100s", got)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "edit_file", Arguments: map[string]any{}}); err == nil ||
		!strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("edit_file without AllowEdits: %v, want unknown tool", err)
	}
	if got, isErr := call(t, cs, "read_file", map[string]any{"path": "go.mod"}); isErr || !strings.Contains(got, "module example.com/shop") {
		t.Errorf("after the mistakes: %v %s", isErr, got)
	}
}

// TestAllowEdits serves the edit tools through the policy: an edit the
// rules allow is written, one they deny is refused, and plan mode refuses
// to start.
func TestAllowEdits(t *testing.T) {
	opts, ws := testOptions(t, permission.ModeAcceptEdits, permission.Rules{Deny: []string{"edit(price/**)"}})
	opts.AllowEdits = true
	s := mustNew(t, opts)
	cs := connect(t, s)
	if got, want := toolNames(t, cs), sorted(append(slices.Clone(ReadTools), EditTools...)); !slices.Equal(got, want) {
		t.Errorf("tools = %v, want %v", got, want)
	}
	if got, isErr := call(t, cs, "write_file", map[string]any{"path": "new.go", "content": "package shop\n"}); isErr {
		t.Fatalf("write_file: %s", got)
	}
	if data, err := os.ReadFile(filepath.Join(ws, "new.go")); err != nil || string(data) != "package shop\n" {
		t.Errorf("new.go = %q, %v", data, err)
	}
	got, isErr := call(t, cs, "write_file", map[string]any{"path": "price/x.go", "content": "package price\n"})
	if !isErr || !strings.Contains(got, "edit(price/**)") {
		t.Errorf("denied write: isError=%v %s", isErr, got)
	}
	if _, err := os.Stat(filepath.Join(ws, "price/x.go")); !os.IsNotExist(err) {
		t.Errorf("denied write happened: %v", err)
	}

	// Mode default with nobody to ask: the edit is refused, not run.
	opts, ws = testOptions(t, permission.ModeDefault, permission.Rules{})
	opts.AllowEdits = true
	s = mustNew(t, opts)
	got, isErr = call(t, connect(t, s), "write_file", map[string]any{"path": "new.go", "content": "x"})
	if !isErr || !strings.Contains(got, "approval") {
		t.Errorf("write in mode default: isError=%v %s", isErr, got)
	}
	if _, err := os.Stat(filepath.Join(ws, "new.go")); !os.IsNotExist(err) {
		t.Errorf("unapproved write happened: %v", err)
	}

	opts, _ = testOptions(t, permission.ModePlan, permission.Rules{})
	opts.AllowEdits = true
	if _, err := New(opts); err == nil || !strings.Contains(err.Error(), "plan") {
		t.Errorf("plan mode with AllowEdits: %v, want a refusal", err)
	}
}

// TestSessionEnvs: each session has its own Env, dropped when it ends.
func TestSessionEnvs(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	ctx := context.Background()
	var sessions []*mcp.ServerSession
	for range 2 {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.MCP().Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, ss)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		call(t, cs, "read_file", map[string]any{"path": "go.mod"})
	}
	if s.env(sessions[0]) == s.env(sessions[1]) {
		t.Error("two sessions share an Env")
	}
	if n := s.sessions(); n != 2 {
		t.Errorf("%d session envs, want 2", n)
	}
	dropped := make(chan struct{}, 2)
	s.mu.Lock()
	s.onDrop = func() { dropped <- struct{}{} }
	s.mu.Unlock()
	sessions[0].Close()
	<-dropped
	if n := s.sessions(); n != 1 {
		t.Errorf("%d session envs after one closed, want 1", n)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// read_file keeps a ledger per MCP session: the same file read again in a
// session is a short stub; another session gets the whole file.
func TestReadFileLedgerPerSession(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	a, b := connect(t, s), connect(t, s)
	first, _ := call(t, a, "read_file", map[string]any{"path": "cart/fee.go"})
	again, _ := call(t, a, "read_file", map[string]any{"path": "cart/fee.go"})
	other, _ := call(t, b, "read_file", map[string]any{"path": "cart/fee.go"})
	if !strings.Contains(first, "func Discount()") || !strings.Contains(other, "func Discount()") {
		t.Errorf("first reads: %q / %q", first, other)
	}
	if !strings.Contains(again, "unchanged") || strings.Contains(again, "func Discount()") {
		t.Errorf("re-read in the same session: %q", again)
	}
}
