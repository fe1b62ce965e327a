package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/fakellm"
)

// /compact summarises the session through the model and prints the
// compaction; with nothing to compact it says so.
func TestCompactCommand(t *testing.T) {
	url, llm := fakellm.Start(t, "summarize summarise a coding session\n")
	prov, err := provider.New(provider.Config{Provider: provider.NameOpenAICompatible, APIURL: url + "/v1", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	p := newChatPrinter(&out, &errb)
	app := &chatApp{g: &globals{stdout: &out, stderr: &errb}, out: p, session: agent.NewSession(),
		agent: &agent.Agent{Provider: prov, Model: "fake-model", Sink: p.sink}}

	app.command("/compact")
	if got := errb.String(); got != "nothing to compact yet\n" {
		t.Errorf("empty session: %q", got)
	}
	errb.Reset()
	text := func(role provider.Role, s string) provider.Message {
		return provider.Message{Role: role, Blocks: []provider.Block{{Kind: provider.BlockText, Text: s}}}
	}
	app.session.Messages = []provider.Message{
		text(provider.RoleUser, "#keep rename Foo"), text(provider.RoleAssistant, "renamed"),
		text(provider.RoleUser, "now the tests"), text(provider.RoleAssistant, "done"),
	}
	app.command("/compact the tests")
	if got := errb.String(); !strings.HasPrefix(got, "⟳ compacted the conversation (manual): ") || !strings.HasSuffix(got, "3 messages summarised\n") {
		t.Errorf("stderr %q", got)
	}
	reqs := llm.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0]), "focus on: the tests") {
		t.Fatalf("requests %q", reqs)
	}
	if s := app.session.Messages[0].Blocks[0].Text; !strings.Contains(s, "#keep rename Foo") || len(app.session.Messages) != 2 {
		t.Errorf("session after /compact: %+v", app.session.Messages)
	}
}
