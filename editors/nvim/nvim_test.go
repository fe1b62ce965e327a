// Package nvim_test runs the Neovim plugin in editors/nvim in headless
// Neovim against a real `parley serve` (built once per test binary run) and
// a scripted model API (internal/fakellm). Each test runs one Lua script
// of tests/, which writes "ok" or "FAIL: ..." to a result file. Without
// nvim the tests are skipped, or fail under CI.
package nvim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/nvimtest"
)

func TestSetup(t *testing.T) {
	run(t, nvimRun{script: "setup.lua"})
}

// TestChat: :ParleyChat streams the answer into the chat buffer with the
// cursor's file as context and keeps the session; :ParleyNew starts
// another; :ParleySessions resumes the first with its history; a code
// action runs as a turn shown in the chat buffer (tests/chat.lua). Here:
// what the model received.
func TestChat(t *testing.T) {
	r := run(t, nvimRun{script: "chat.lua", llm: `
text Discount lowers the fee by one.
---
text Yes, it calls Fee.
---
text Fresh start.
---
text Back in the first session.
---
text It returns the fee minus one.
`})
	reqs := r.llm.Requests()
	if len(reqs) != 5 {
		t.Fatalf("the model got %d requests, want 5\n%s", len(reqs), modelRequests(reqs))
	}
	want := []struct {
		has, hasNot []string
	}{
		{has: []string{"What does Discount do?", "fee.go", "// Discount lowers the fee.", "Discount() int"}},
		{has: []string{"What does Discount do?", "Discount lowers the fee by one.", "Does it call Fee?"}},
		{has: []string{"Start over."}, hasNot: []string{"What does Discount do?"}},
		{has: []string{"What does Discount do?", "Yes, it calls Fee.", "And now?"}, hasNot: []string{"Start over."}},
		{has: []string{"Explain what this code does", "Discount() int"}, hasNot: []string{"What does Discount do?"}},
	}
	for i, w := range want {
		conv := conversation(reqs[i])
		for _, s := range w.has {
			if !strings.Contains(conv, s) {
				t.Errorf("model request %d lacks %q:\n%s", i+1, s, conv)
			}
		}
		for _, s := range w.hasNot {
			if strings.Contains(conv, s) {
				t.Errorf("model request %d has %q:\n%s", i+1, s, conv)
			}
		}
	}
}

// editScript is the fake model of the edit tests: an edit_file call on
// cart/fee.go, then a text answer.
func editScript(answer string) string {
	input, _ := json.Marshal(map[string]string{"path": "cart/fee.go", "old_string": oldExpr, "new_string": newExpr})
	return fmt.Sprintf("tool edit_file %s\n---\ntext %s\n", input, answer)
}

// feeGo is the fixture's cart/fee.go.
func feeGo(t *testing.T) string { return fixture.File(t, workspace, "cart/fee.go") }

// line4 is line 4 of the fixture's cart/fee.go before and after the edit.
func line4(t *testing.T) (before, after string) {
	before = strings.Split(feeGo(t), "\n")[3]
	return before, strings.Replace(before, oldExpr, newExpr, 1)
}

// TestAppliedEditUndo: with permission mode acceptEdits the agent's edit
// lands in the open buffer, the chat lists it, and one `u` undoes it
// (tests/edit.lua). Here: the disk is untouched and the model was told
// the edit succeeded.
func TestAppliedEditUndo(t *testing.T) {
	before, after := line4(t)
	r := run(t, nvimRun{script: "edit.lua", llm: editScript("done"), mode: "acceptEdits",
		env: []string{"PARLEY_TEST_OLD_LINE=" + before, "PARLEY_TEST_NEW_LINE=" + after}})
	disk, err := os.ReadFile(filepath.Join(r.root, "cart", "fee.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(disk) != feeGo(t) {
		t.Errorf("cart/fee.go changed on disk:\n%s", disk)
	}
	reqs := r.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2\n%s", len(reqs), modelRequests(reqs))
	}
	if res := toolResult(reqs[1], "edit_file"); !strings.Contains(res, "Edited cart/fee.go") || !strings.Contains(res, newExpr) {
		t.Errorf("edit_file result: %s", res)
	}
	if strings.Contains(nvimtest.ServerLog(r.data), "did not report the change") {
		t.Errorf("Neovim did not report the applied edit with didChange:\n%s", nvimtest.ServerLog(r.data))
	}
}

// TestDiagnosticsAfterEdit: the plugin answers parley/diagnostics from
// vim.diagnostic.get once the buffer's diagnostics changed after the
// agent's edit (tests/diagnostics.lua sets them as a linter would). Here:
// the model was told the new error, not the warning that was there before.
func TestDiagnosticsAfterEdit(t *testing.T) {
	r := run(t, nvimRun{script: "diagnostics.lua", llm: editScript("done"), mode: "acceptEdits"})
	reqs := r.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2\n%s", len(reqs), modelRequests(reqs))
	}
	res := toolResult(reqs[1], "edit_file")
	// toolResult is the JSON-encoded result: its newlines are \n.
	if !strings.Contains(res, `cart/fee.go: 1 new problem (the editor)\n  cart/fee.go:4:1 error [testlint] type mismatch`) {
		t.Errorf("edit_file result: %s", res)
	}
	if strings.Contains(res, "package comment missing") {
		t.Errorf("the warning from before the edit was reported as new: %s", res)
	}
}

// TestRejectedEdit: in permission mode default the edit is asked about
// through vim.ui.select; "Deny" leaves the buffer alone and the chat
// shows the denial; after set_agent switches to acceptEdits the edit
// applies unasked (tests/deny.lua). Here: the model was told.
func TestRejectedEdit(t *testing.T) {
	r := run(t, nvimRun{script: "deny.lua", llm: editScript("I left it unchanged.") + "---\n" + editScript("done"), mode: "default"})
	reqs := r.llm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the model got %d requests, want 4\n%s", len(reqs), modelRequests(reqs))
	}
	if res := toolResult(reqs[1], "edit_file"); !strings.Contains(res, "permission denied") {
		t.Errorf("edit_file result: %s", res)
	}
	if res := toolResult(reqs[3], "edit_file"); !strings.Contains(res, "Edited cart/fee.go") {
		t.Errorf("edit_file result after set_agent: %s", res)
	}
	disk, err := os.ReadFile(filepath.Join(r.root, "cart", "fee.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(disk) != feeGo(t) {
		t.Errorf("cart/fee.go changed on disk:\n%s", disk)
	}
}

// TestHooks: a blocking PreToolUse hook of the user config and an
// unapproved one of the workspace are "⚑" lines in the chat buffer
// (tests/hooks.lua). Here: the model was told the hook's reason, and
// the unapproved hook did not run.
func TestHooks(t *testing.T) {
	user := `{"hooks": {"PreToolUse": [{"matcher": "edit_file", "hooks": [{"type": "command", "command": "echo no edits today >&2; exit 2"}]}]}}`
	ws := `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "touch ran"}]}]}}`
	r := run(t, nvimRun{
		script: "hooks.lua", llm: editScript("I left it unchanged."),
		userConfig:     user,
		workspaceFiles: map[string]string{".parley/config.json": ws},
	})
	reqs := r.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2\n%s", len(reqs), modelRequests(reqs))
	}
	if res := toolResult(reqs[1], "edit_file"); !strings.Contains(res, "no edits today") {
		t.Errorf("edit_file result lacks the hook's reason: %s", res)
	}
	if _, err := os.Stat(filepath.Join(r.root, "ran")); err == nil {
		t.Error("the unapproved workspace hook ran")
	}
	disk, err := os.ReadFile(filepath.Join(r.root, "cart", "fee.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(disk) != feeGo(t) {
		t.Errorf("cart/fee.go changed on disk:\n%s", disk)
	}
}

// TestMCPEvents: an MCP server of the user config that cannot start is
// a "✗" line in the chat buffer and a notification, and the turn goes on
// (tests/mcp.lua).
func TestMCPEvents(t *testing.T) {
	r := run(t, nvimRun{
		script: "mcp.lua", llm: "text Hi there.\n",
		userConfig: `{"mcpServers": {"down": {"command": "/nonexistent/no-such-mcp-server"}}}`,
	})
	if reqs := r.llm.Requests(); len(reqs) != 1 {
		t.Errorf("the model got %d requests, want 1\n%s", len(reqs), modelRequests(reqs))
	}
}

// TestHelpTags: :helptags accepts doc/parley.txt (no duplicate or bad
// tags) and the tags of the sections are there.
func TestHelpTags(t *testing.T) {
	nvim := nvimtest.Path(t)
	dir := t.TempDir()
	doc, err := os.ReadFile(filepath.Join("doc", "parley.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "parley.txt"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// An error in :helptags ends Neovim with exit code 1.
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n",
		"-c", "try | helptags "+dir+" | catch | cquit 1 | endtry", "-c", "if v:errmsg != '' | cquit 1 | endif", "-c", "qall!")
	cmd.Env = nvimtest.CleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf(":helptags: %v\n%s", err, out)
	}
	tags, err := os.ReadFile(filepath.Join(dir, "tags"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range []string{"parley.txt", "parley-setup", "parley-options", "parley-commands", ":ParleyChat",
		":ParleyStop", ":ParleySessions", ":ParleyIndexStatus", "parley-statusline", "parley-approvals",
		"parley-undo", "parley-troubleshooting", ":ParleyCompact", "parley-compaction", ":ParleyMemory", "parley-memory",
		"parley-completion", "parley-completion-tab", ":ParleyCompletionToggle", "parley-opt-completion",
		"parley-next-edit", "parley-opt-next_edit", "parley.nextedit.accept()"} {
		if !strings.Contains(string(tags), tag+"\tparley.txt\t") {
			t.Errorf("no help tag %s", tag)
		}
	}
}

// TestCancel: :ParleyStop cancels a turn whose model response is held
// open; it ends with stop reason "cancelled" and the session continues
// (tests/cancel.lua).
func TestCancel(t *testing.T) {
	r := run(t, nvimRun{script: "cancel.lua", llm: `
text Thinking hard about it
wait
---
text Back again.
`})
	reqs := r.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2\n%s", len(reqs), modelRequests(reqs))
	}
	if conv := conversation(reqs[1]); !strings.Contains(conv, "Take your time.") || !strings.Contains(conv, "Are you there?") {
		t.Errorf("the turn after the cancel lacks the session's history:\n%s", conv)
	}
}

// TestMemory: :ParleyMemory lists, searches, shows, adds, edits and
// forgets memories through parley/memory*, with vim.ui questions, the
// listing buffer's keys, and a memory going stale when the buffer it is
// anchored to changes (tests/memory.lua). Here: the memories are in the
// workspace's store on disk, where `parley memory` finds them; memory 2
// was confirmed against the buffer's unsaved text, which Neovim dropped
// at exit, so against the disk it is stale.
func TestMemory(t *testing.T) {
	r := run(t, nvimRun{script: "memory.lua"})
	out, err := exec.Command(parleyBinary(t), "memory", "list", "--root", r.root, "--data-dir", r.data).CombinedOutput()
	if err != nil {
		t.Fatalf("parley memory list: %v\n%s", err, out)
	}
	want := "[1] decision (importance 9): Releases are cut on Fridays\n[2] fact (importance 5): Discount lives in fee.go [STALE: cart/fee.go changed since it was written]\n"
	if string(out) != want {
		t.Errorf("parley memory list:\n%s\nwant:\n%s", out, want)
	}
}

// minimalSetup is the user's init.lua of TestMinimalSetup: `filetype on`
// and the Neovim setup of docs/editors.md (the first Lua block of its
// Neovim section), which the README's editor setup repeats, with the
// plugin's path filled in.
func minimalSetup(t *testing.T, plugin string) string {
	t.Helper()
	const placeholder = "/path/to/parley/editors/nvim"
	setup := func(file, heading string) string {
		text, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(text), heading)
		_, block, ok2 := strings.Cut(section, "```lua\n")
		block, _, ok3 := strings.Cut(block, "```")
		if !ok || !ok2 || !ok3 || !strings.Contains(block, placeholder) {
			t.Fatalf("%s has no Neovim setup block naming %s", file, placeholder)
		}
		return block
	}
	block := setup("docs/editors.md", "\n## Neovim\n")
	if readme := setup("README.md", "\n**Neovim**"); readme != block {
		t.Fatalf("the README's Neovim setup is not docs/editors.md's:\n%s\nwant:\n%s", readme, block)
	}
	return "vim.cmd('filetype on')\n" + strings.ReplaceAll(block, placeholder, plugin)
}

// TestMinimalSetup: the minimal setup of the README and docs/editors.md, as a user's init.lua,
// with parley on $PATH and the model configured in the environment,
// attaches the file given on the command line and runs a chat turn;
// set_agent({}) is accepted and :ParleyMemory adds and lists a memory
// (tests/minimal.lua). Neovim encodes an empty
// Lua table as [], which initialize used to refuse.
func TestMinimalSetup(t *testing.T) {
	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	init := minimalSetup(t, plugin)
	if strings.Contains(init, "init_options") {
		t.Fatalf("the README's Neovim setup is not the minimal one:\n%s", init)
	}
	r := run(t, nvimRun{script: "minimal.lua", init: init, files: []string{"cart/fee.go"}, userEnv: true,
		llm: "text Discount lowers the fee by one.\n---\ntext Still the same.\n"})
	log := nvimtest.ServerLog(r.data)
	if !strings.Contains(log, "agent settings changed") || strings.Contains(log, "didChangeConfiguration:") {
		t.Errorf("set_agent({}) was not taken:\n%s", log)
	}
	if n := len(r.llm.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2", n)
	}
}

// TestCompact: :ParleyCompact with a focus compacts the chat's session
// and the chat buffer shows the "⟳" line; the resumed session shows it
// and the summary (tests/compact.lua). Here: the summary request carried
// the focus, and the turn after it was sent the summary instead of the
// summarised messages.
func TestCompact(t *testing.T) {
	const marker = "summarise a coding session"
	r := run(t, nvimRun{script: "compact.lua", llm: "summarize " + marker + `
text Discount lowers the fee by one.
---
text Yes, it calls Fee.
---
text Still about the fee.
`})
	reqs := r.llm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the model got %d requests, want 4\n%s", len(reqs), modelRequests(reqs))
	}
	if s := string(reqs[2]); !strings.Contains(s, marker) || !strings.Contains(s, "focus on: the fee") {
		t.Errorf("request 3 is not the summary request with the focus:\n%.2000s", s)
	}
	conv := conversation(reqs[3])
	for _, s := range []string{"[Compacted history]", "Summary:", "What does Discount do? #keep", "Yes, it calls Fee.", "And now?"} {
		if !strings.Contains(conv, s) {
			t.Errorf("the turn after compacting lacks %q:\n%s", s, conv)
		}
	}
	if strings.Contains(conv, "Discount lowers the fee by one.") {
		t.Errorf("the turn after compacting still has the summarised answer:\n%s", conv)
	}
}

// TestOverflowCompaction: a request refused as too long is compacted
// (reason "overflow") and sent again within the turn; the chat buffer
// shows the compaction inside the turn (tests/overflow.lua). Here: the
// retried request carries the summary.
func TestOverflowCompaction(t *testing.T) {
	const marker = "summarise a coding session"
	r := run(t, nvimRun{script: "overflow.lua", llm: "summarize " + marker + `
text Discount lowers the fee by one.
---
text Yes, it calls Fee.
---
status 400 {"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}
---
text Answered after compacting.
`})
	reqs := r.llm.Requests()
	if len(reqs) != 5 {
		t.Fatalf("the model got %d requests, want 5\n%s", len(reqs), modelRequests(reqs))
	}
	if conv := conversation(reqs[4]); !strings.Contains(conv, "[Compacted history]") || !strings.Contains(conv, "And the tax?") {
		t.Errorf("the retried request:\n%s", conv)
	}
}

// TestPromptCommands: the workspace's prompt commands complete after
// :ParleyChat, :ParleyCommands lists them, and :ParleyChat /review ...
// runs one (tests/prompts.lua). Here: the model got the expanded prompt.
func TestPromptCommands(t *testing.T) {
	r := run(t, nvimRun{
		script: "prompts.lua", llm: "text Reviewed.\n",
		workspaceFiles: map[string]string{
			".parley/commands/review.md":     "---\ndescription: Review a change\nargument-hint: [focus]\n---\nReview the code for $ARGUMENTS.\n",
			".parley/commands/explain.md":    "Explain @$1\n",
			".parley/commands/git/branch.md": "---\ndescription: Say the branch\n---\n!`git branch --show-current`\n",
		},
	})
	reqs := r.llm.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model got %d requests, want 1\n%s", len(reqs), modelRequests(reqs))
	}
	if conv := conversation(reqs[0]); !strings.Contains(conv, "Review the code for error handling.") {
		t.Errorf("the model did not get the expanded prompt:\n%s", conv)
	}
}
