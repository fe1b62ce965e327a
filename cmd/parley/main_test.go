package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/parleyhq/parley/index/nav"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"parley": func() { os.Exit(run()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script against the real
// binary (re-executed test binary), each in a fresh work directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PARLEY_DATA_DIR", filepath.Join(env.WorkDir, ".data"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"holdlock": holdLock, "lspframes": lspFrames,
			// chat: a fake model API and session helpers (fakellm_test.go).
			"fakellm": fakeLLM, "lastsession": lastSession, "nofilecontains": noFileContains,
			// loop: background processes (loop_test.go).
			"waitfile": waitFile, "deadpid": deadPID,
			// vector: a PDF written from text (vector_test.go).
			"mkpdf": mkPDF,
			// chat --image: a PNG of a given size (cmd_chat_images_test.go).
			"mkpng": mkPNG,
			// complete: config files naming $FAKELLM_URL (complete_test.go).
			"envsubst": envSubst,
		},
	})
}

// holdLock opens the index store of the workspace root args[0] in the test
// process and keeps it open until the script ends, so a parley command run
// meanwhile finds the store locked.
func holdLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: holdlock ROOT")
	}
	g := &globals{dataDir: ts.Getenv("PARLEY_DATA_DIR"), root: ts.MkAbs(args[0])}
	root, err := g.workspaceRoot()
	ts.Check(err)
	dir, err := g.storeDir(root)
	ts.Check(err)
	st, err := nav.Open(dir)
	ts.Check(err)
	ts.Defer(func() { st.Close() })
}
