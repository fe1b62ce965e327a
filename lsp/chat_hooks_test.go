package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The editor's agent runs the user's hooks: a blocking PreToolUse hook
// keeps the call from running, the model sees its reason, and the editor
// gets a hook event; deleting the session runs SessionEnd.
func TestChatHooks(t *testing.T) {
	m := newScriptModel()
	user := filepath.Join(t.TempDir(), "config.json")
	const cfg = `{"permission_mode": "bypassPermissions", "hooks": {"PreToolUse": [{"matcher": "shell", "hooks": [{"type": "command", "command": "echo 'no shell from the editor' >&2; exit 2"}]}],
		"SessionEnd": [{"hooks": [{"type": "command", "command": "cat >> session-end.json"}]}]}}`
	if err := os.WriteFile(user, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	root := loadTxtar(t, "testdata/chat.txtar")
	opts := agentOpts(m, "")
	e := startEditor(t, root, editorConfig{progress: true, agent: true, serverOpts: func(o *Options) {
		opts(o)
		o.Agent.Config.UserFile = user
	}})
	e.waitIndexed(1)
	m.script("run it", calls("shell", `{"command": "touch ran.txt"}`), reply("ok"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "run it"}))
	if r := toolResults(e.events(res.Session))["shell"]; len(r) != 1 || !strings.Contains(r[0], "blocked by a PreToolUse hook: no shell from the editor") {
		t.Errorf("shell result %q", r)
	}
	if _, err := os.Stat(filepath.Join(root, "ran.txt")); err == nil {
		t.Error("the blocked command ran")
	}
	var hook *ChatEvent
	for _, ev := range e.events(res.Session) {
		if ev.Kind == "hook" {
			hook = &ev
		}
	}
	if hook == nil || hook.Hook == nil || hook.Hook.Outcome != "blocked" || hook.Hook.Event != "PreToolUse" {
		t.Errorf("hook event %+v", hook)
	}
	if _, err := os.Stat(filepath.Join(root, "session-end.json")); err == nil {
		t.Error("SessionEnd ran while the session lives")
	}
	e.mustCall(methodDeleteSession, map[string]string{"session": res.Session}, nil)
	data, err := os.ReadFile(filepath.Join(root, "session-end.json"))
	if err != nil || !strings.Contains(string(data), `"reason":"clear"`) || !strings.Contains(string(data), res.Session) {
		t.Errorf("SessionEnd input %q, %v", data, err)
	}
}
