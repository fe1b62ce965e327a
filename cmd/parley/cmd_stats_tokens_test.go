package main

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/syncbuf"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
)

// /cost reports the current session: the model's usage and the reads'
// tokens per mechanism, with the share saved.
func TestCostCommand(t *testing.T) {
	l := ledger.NewMemory()
	content := []byte(strings.Repeat("x\n", 10))
	r := ledger.Request{Path: "/w/a", Shown: "a", Content: content, Start: 1, End: 10, Turn: 1}
	for _, tok := range []ledger.Tokens{{Sent: 100, Baseline: 100}, {Sent: 10, Baseline: 100}} {
		if err := l.Record(r, l.Read(r), ledger.Range{Start: 1, End: 10}, tok); err != nil {
			t.Fatal(err)
		}
	}
	s := agent.NewSession()
	s.Usage = provider.Usage{InputTokens: 1200, OutputTokens: 34}
	var out syncbuf.Buffer
	app := &chatApp{g: &globals{stderr: &out}, session: s, agent: &agent.Agent{Env: &tools.Env{Ledger: l}}}
	app.command("/cost")
	for _, want := range []string{
		"session " + s.ID,
		"model:  1200 in (cache read 0, write 0), 34 out",
		"reads:  2, 110 tokens sent for 200 in full: 90 saved (45%)",
		"full         reads    1  sent      100  saved        0",
		"unchanged    reads    1  sent       10  saved       90",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("/cost output lacks %q:\n%s", want, out.String())
		}
	}
}
