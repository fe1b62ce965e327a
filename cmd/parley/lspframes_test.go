package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// lspFrames turns a file of JSON-RPC messages, one per line, into the
// Content-Length framed stream an editor writes to `parley serve`, so a
// script can feed it with stdin.
func lspFrames(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: lspframes IN OUT")
	}
	var out bytes.Buffer
	for line := range strings.SplitSeq(ts.ReadFile(args[0]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.ReplaceAll(line, "$WORK", ts.Getenv("WORK"))
		fmt.Fprintf(&out, "Content-Length: %d\r\n\r\n%s", len(line), line)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out.Bytes(), 0o644))
}
