package acp_test

import (
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/uri"
)

// TestResourceLinks: a file:// resource link inside the roots (Zed's
// @-mention of a file) is read into the message through the turn's
// read_file, so the client's buffer is what the model gets and the
// model's own read of it answers with the ledger's stub; a link outside
// the roots is only named, and the client told why; an embedded
// resource still arrives whole.
func TestResourceLinks(t *testing.T) {
	f := newFixture(t, `tool read_file {"path":"a.txt"}
---
text done
`, map[string]string{"a.txt": "on disk\n"})
	c := newFakeClient()
	abs := filepath.Join(f.root, "a.txt")
	c.buffers[abs] = "UNSAVED-BUFFER\n"
	conn := f.connect(t, c, fsCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	prompt := []sdk.ContentBlock{
		sdk.TextBlock("explain"),
		sdk.ResourceLinkBlock("a.txt", string(uri.File(abs))),
		sdk.ResourceLinkBlock("secret.txt", string(uri.File(outside))),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "zed:///notes", Text: "EMBEDDED-NOTE"}}),
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: prompt}); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	first := lastMessage(reqs[0])
	for _, want := range []string{"UNSAVED-BUFFER", `file path=\"a.txt\"`, "EMBEDDED-NOTE", "[secret.txt]("} {
		if !strings.Contains(first, want) {
			t.Errorf("the message lacks %q: %s", want, first)
		}
	}
	if strings.Contains(first, "on disk") {
		t.Errorf("the link was read from the disk, not the client: %s", first)
	}
	if second := lastMessage(reqs[1]); !strings.Contains(second, "unchanged since your read") {
		t.Errorf("the model's read_file did not answer with the stub: %s", second)
	}
	updates, _, _ := c.snapshot()
	if got := agentText(updates); !strings.Contains(got, "secret.txt not read") || !strings.HasSuffix(got, "done") {
		t.Errorf("agent text %q", got)
	}
}
