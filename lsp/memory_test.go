package lsp

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/memory"
)

// The editor's agent has the memory tools and auto-recall: a memory
// written in one turn is recalled, with a memory event, before the next
// one's model call, and a user memory lands in the user-level store.
func TestChatMemory(t *testing.T) {
	m := newScriptModel()
	userDir := t.TempDir()
	root := loadTxtar(t, "testdata/chat.txtar")
	opts := agentOpts(m, "")
	e := startEditor(t, root, editorConfig{progress: true, agent: true, serverOpts: func(o *Options) {
		opts(o)
		o.Agent.UserMemoryDir = userDir
	}})
	e.waitIndexed(1)

	m.script("note it",
		calls("remember", `{"content": "Greetings are built by the hello helper", "type": "code_pattern"}`,
			"remember", `{"content": "Prefers British spelling", "type": "preference", "scope": "user"}`),
		reply("Noted."))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "note it"}))
	if r := toolResults(e.events(res.Session))["remember"]; len(r) != 2 || r[0] != "Remembered as 1." || r[1] != "Remembered as u1." {
		t.Fatalf("remember results %q", r)
	}

	var seen []provider.Block
	answer := reply("The hello helper.")
	m.script("which helper builds greetings?", func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		seen = req.Messages[len(req.Messages)-1].Blocks
		return answer(ctx, req)
	})
	res = awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "which helper builds greetings?"}))
	var got []ChatEvent
	for _, ev := range e.events(res.Session) {
		if ev.Kind == "memory" {
			got = append(got, ev)
		}
	}
	if len(got) != 1 || len(got[0].Memories) != 1 || got[0].Memories[0].ID != "1" || got[0].Text != "recalled 1 memory: 1" {
		t.Fatalf("memory events %+v", got)
	}
	if len(seen) != 2 || !strings.Contains(seen[1].Text, "Greetings are built by the hello helper") {
		t.Errorf("the model did not see the recalled memory: %+v", seen)
	}

	e.srv.agents.close()
	st, err := memory.Open(userDir, memory.User)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if list, _ := st.List(); len(list) != 1 || list[0].Content != "Prefers British spelling" {
		t.Errorf("user store holds %+v", list)
	}
}
