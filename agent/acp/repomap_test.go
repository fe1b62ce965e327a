package acp_test

import (
	"bytes"
	"context"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/internal/tokcount"
)

// TestRepoMapFollowsMessages: a session's repo map is focused anew on
// each prompt, as in parley chat and the editor: the second prompt names
// b.go, and its request's map shows it.
func TestRepoMapFollowsMessages(t *testing.T) {
	f := newFixture(t, "text hi\n---\ntext bye\n", map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go":   "package m\n\nfunc Greeting() string { return \"hello\" }\n",
		"b.go":   "package m\n\nfunc Farewell() string { return \"bye\" }\n",
	})
	st, err := nav.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), f.root, index.Options{}); err != nil {
		t.Fatal(err)
	}
	mapper := repomap.New(st, f.root)
	f.configure = func(ws *acp.Workspace) {
		ws.RepoMap = func() *repomap.Focus {
			return repomap.NewFocus(mapper, repomap.Options{Tokens: 12, Count: tokcount.Counter("fake-model")})
		}
	}
	conn := f.connect(t, newFakeClient(), fsCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	for _, msg := range []string{"hello", "what does b.go say?"} {
		if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text(msg)}); err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
	}
	reqs := f.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if !bytes.Contains(reqs[0], []byte(`a.go:\n  func Greeting`)) || bytes.Contains(reqs[0], []byte("b.go:")) {
		t.Errorf("first request's map should hold a.go alone:\n%s", reqs[0])
	}
	if !bytes.Contains(reqs[1], []byte(`b.go:\n  func Farewell() string`)) {
		t.Errorf("second request's map lacks b.go, which the message names:\n%s", reqs[1])
	}
}
