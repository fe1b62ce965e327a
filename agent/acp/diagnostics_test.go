package acp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/lspclient"
	"github.com/parleyhq/parley/internal/testenv"
)

// TestDiagnosticsAfterEdits: over ACP, edits land in the client's buffers
// (the disk never sees them), and parley's own gopls is told the agent's
// text: the request after a bad write carries gopls's error, the one
// after the fix says it is gone.
func TestDiagnosticsAfterEdits(t *testing.T) {
	gopls, err := exec.LookPath("gopls")
	if err != nil {
		out, _ := exec.Command("go", "env", "GOPATH").Output()
		gopls = filepath.Join(strings.TrimSpace(string(out)), "bin", "gopls")
		if _, err := os.Stat(gopls); err != nil {
			testenv.Need(t, "gopls is not installed (go install golang.org/x/tools/gopls)")
		}
	}
	f := newFixture(t, `tool write_file {"path":"a.go","content":"package a\n\n// F answers.\nfunc F() int { return \"x\" }\n"}
---
tool edit_file {"path":"a.go","old_string":"return \"x\"","new_string":"return 1"}
---
text done
`, map[string]string{"go.mod": "module example.com/a\n\ngo 1.22\n", "a.go": "package a\n"})
	f.mode = "acceptEdits"
	m := lspclient.New(lspclient.Options{
		Servers: []config.LSPEntry{{Name: "go", Command: []string{"gopls"}, Languages: []string{"go"}, Path: gopls}},
		Timeout: 30 * time.Second,
	})
	defer m.Close()
	f.configure = func(ws *acp.Workspace) { ws.Diagnostics = m }
	c := newFakeClient()
	conn := f.connect(t, c, fsCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("add F")}); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := lastMessage(reqs[1]); !strings.Contains(got, "a.go:4:23 error [compiler] cannot use") {
		t.Errorf("after the bad write the model saw %.600s", got)
	}
	if got := lastMessage(reqs[2]); !strings.Contains(got, "a.go: 1 problem fixed, none new (gopls)") {
		t.Errorf("after the fix the model saw %.600s", got)
	}
	if data, _ := os.ReadFile(filepath.Join(f.root, "a.go")); string(data) != "package a\n" {
		t.Errorf("the disk changed: %q", data)
	}
}
