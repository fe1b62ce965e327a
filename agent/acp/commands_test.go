package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/prompts"
)

// commandLists returns the available_commands_update notifications'
// command names, in order.
func commandLists(updates []sdk.SessionNotification) [][]string {
	var out [][]string
	for _, n := range updates {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			names := []string{}
			for _, c := range u.AvailableCommands {
				name := c.Name
				if c.Input != nil && c.Input.Unstructured != nil {
					name += " " + c.Input.Unstructured.Hint
				}
				names = append(names, name+": "+c.Description)
			}
			out = append(out, names)
		}
	}
	return out
}

// Prompt commands over ACP: advertised after session/new with their input
// hints and again when the files change; "/NAME args" runs one, its
// @file read through the client (the unsaved buffer); a workspace
// command's shell line waits for approval and nothing reaches the model.
func TestPromptCommands(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := newFixture(t, "text reviewed\n---\ntext on main\n", map[string]string{
		"a.txt":                      "on disk\n",
		".parley/commands/review.md": "---\ndescription: Review a file\nargument-hint: FILE\n---\nReview @$1 for $2.\n",
		".parley/commands/branch.md": "---\ndescription: Say the branch\n---\nOn !`echo branch-$1`.\n",
	})
	c := newFakeClient()
	c.buffers[filepath.Join(f.root, "a.txt")] = "unsaved buffer\n"
	conn := f.connect(t, c, fsCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	c.waitFor(t, "the prompt commands", func(u []sdk.SessionNotification) bool { return len(commandLists(u)) == 1 })
	updates, _, _ := c.snapshot()
	if got := strings.Join(commandLists(updates)[0], "|"); got != "branch: Say the branch|review FILE: Review a file" {
		t.Errorf("advertised %q", got)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("/review a.txt typos")}); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0]), "Review @a.txt for typos.") || !strings.Contains(string(reqs[0]), "unsaved buffer") {
		t.Fatalf("requests: %d, last %.400s", len(reqs), lastMessage(reqs[len(reqs)-1]))
	}

	// Unapproved shell: the user is told, the model is not called.
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("/branch main")}); err != nil {
		t.Fatal(err)
	}
	updates, _, _ = c.snapshot()
	if got := agentText(updates); !strings.Contains(got, "/branch runs shell lines") || !strings.Contains(got, "parley commands approve") {
		t.Errorf("agent text %q", got)
	}
	if n := len(f.llm.Requests()); n != 1 {
		t.Errorf("%d model requests after a refused command, want 1", n)
	}
	path, _ := hooks.DefaultApprovalsFile()
	ap, err := hooks.OpenApprovals(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := prompts.Load(prompts.Dirs(f.root)).Lookup("branch")
	if err := ap.Approve(cmd.Key()); err != nil {
		t.Fatal(err)
	}
	// A new file is advertised at the next prompt.
	if err := os.WriteFile(filepath.Join(f.root, ".parley/commands/new.md"), []byte("A new one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("/branch main")}); err != nil {
		t.Fatal(err)
	}
	if reqs := f.llm.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1]), "On branch-main.") {
		t.Errorf("approved shell line: %d requests, last %.300s", len(reqs), lastMessage(reqs[len(reqs)-1]))
	}
	updates, _, _ = c.snapshot()
	if lists := commandLists(updates); len(lists) != 2 || len(lists[1]) != 3 {
		t.Errorf("command lists %q, want a second one with the new command", lists)
	}
}
