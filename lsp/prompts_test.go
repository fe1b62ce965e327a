package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/provider"
)

// parley/promptCommands lists the workspace's prompt commands, and a chat
// message "/NAME args" runs one: its @file is the editor's unsaved
// buffer, its model and allowed-tools hold for that turn, the editor's
// context follows the prompt; a command whose shell lines are not
// approved fails the request and calls no model.
func TestChatPromptCommands(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := newScriptModel()
	root := loadTxtar(t, "testdata/chat.txtar")
	for name, text := range map[string]string{
		"explain.md":    "---\ndescription: Explain a file\nargument-hint: FILE\nmodel: other-model\nallowed-tools: Read, Grep\n---\nExplain @$1 briefly.\n",
		"git/branch.md": "Branch: !`git branch --show-current`\n",
		"gone.md":       "---\ndescription: Look\n---\nLook at @nope/gone.go\n",
	} {
		p := filepath.Join(root, ".parley", "commands", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := startEditor(t, root, editorConfig{progress: true, agent: true, serverOpts: agentOpts(m, "")})
	e.waitIndexed(1)
	var list []PromptCommand
	if err := e.call(methodPromptCommands, map[string]any{}, &list); err != nil {
		t.Fatal(err)
	}
	want := []PromptCommand{
		{Name: "explain", Description: "Explain a file", ArgumentHint: "FILE", Source: "workspace"},
		{Name: "git:branch", Description: "Branch: !`git branch --show-current`", Source: "workspace", Shell: true, NeedsApproval: true},
	}
	if len(list) != 3 || list[0] != want[0] || list[1] != want[1] {
		t.Errorf("parley/promptCommands = %+v, want %+v", list, want)
	}

	unsaved := strings.Replace(mustRead(t, e, "a.go"), `"hello"`, `"hello, UNSAVED"`, 1)
	e.openText("a.go", unsaved)
	var seen *provider.Request
	m.script("Explain @a.go briefly.", func(_ context.Context, req *provider.Request) (*provider.Response, error) {
		seen = req
		return reply("explained")(context.Background(), req)
	})
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "/explain a.go", Context: &ChatContext{URI: e.uri("a.go")}}))
	if res.Text != "explained" || seen == nil {
		t.Fatalf("result %+v", res)
	}
	msg := seen.Messages[0].Blocks[0].Text
	if !strings.Contains(msg, `<file path="a.go">`) || !strings.Contains(msg, "UNSAVED") || !strings.Contains(msg, "Context: ") {
		t.Errorf("the model got %q", msg)
	}
	var tools []string
	for _, ts := range seen.Tools {
		tools = append(tools, ts.Name)
	}
	if seen.Model != "other-model" || strings.Join(tools, ",") != "read_file,grep" {
		t.Errorf("model %q, tools %q", seen.Model, tools)
	}

	// A reference that names no file is said with window/showMessage.
	m.script("Look at @nope/gone.go", reply("nothing there"))
	awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "/gone"}))
	e.waitNote(0, "the note", func(n note) bool {
		return n.method == protocol.MethodWindowShowMessage && strings.Contains(string(n.params), "@nope/gone.go not attached")
	})

	err := e.call(methodChat, ChatParams{Message: "/git:branch"}, nil)
	if rpcCode(err) != -32803 || !strings.Contains(err.Error(), "parley commands approve") {
		t.Errorf("an unapproved command: %v", err)
	}
}
