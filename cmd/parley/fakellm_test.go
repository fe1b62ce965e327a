package main

import (
	"bytes"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/internal/fakellm"
)

// fakeLLM starts a fake model API (internal/fakellm) in the test process
// for `parley chat` to talk to, serving the script file args[0]. It sets
// $FAKELLM_URL, writes every chat request body to fakellm/req-N.json and
// every fill-in-the-middle request body to fakellm/fim-N.json (N from 1)
// in the current directory, and stops when the script ends. The script's
// fim lines configure completion answers (see internal/fakellm).
func fakeLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fakellm SCRIPT")
	}
	f, err := fakellm.New([]byte(ts.ReadFile(args[0])), ts.MkAbs("fakellm"))
	ts.Check(err)
	srv := httptest.NewServer(f)
	ts.Setenv("FAKELLM_URL", srv.URL)
	ts.Defer(func() { f.Close(); srv.Close() })
}

// lastSession sets $SESSION to the most recent chat session of the
// workspace root args[0].
func lastSession(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: lastsession ROOT")
	}
	g := &globals{dataDir: ts.Getenv("PARLEY_DATA_DIR"), root: ts.MkAbs(args[0])}
	root, err := g.workspaceRoot()
	ts.Check(err)
	dir, err := g.storeDir(root)
	ts.Check(err)
	st, err := agent.OpenSessions(filepath.Join(filepath.Dir(dir), "sessions"))
	ts.Check(err)
	defer st.Close()
	list, err := st.List()
	ts.Check(err)
	if len(list) == 0 {
		ts.Fatalf("no sessions")
	}
	ts.Setenv("SESSION", list[0].ID)
}

// noFileContains fails if any file under args[0] contains args[1].
func noFileContains(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: nofilecontains DIR STRING")
	}
	err := filepath.WalkDir(ts.MkAbs(args[0]), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(data, []byte(args[1])) {
			ts.Fatalf("%s contains %q", p, args[1])
		}
		return nil
	})
	ts.Check(err)
}
