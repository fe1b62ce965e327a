package main

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// envSubst replaces $VAR and ${VAR} in the file args[0] with the script's
// environment: config files that must name $FAKELLM_URL.
func envSubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: envsubst FILE")
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.WriteFile(p, []byte(os.Expand(ts.ReadFile(args[0]), ts.Getenv)), 0o644))
}
