package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/provider"
)

func candidates(t *testing.T, e *fakeEditor, p mentionCandidatesParams) mentionCandidatesResult {
	t.Helper()
	var res mentionCandidatesResult
	e.mustCall(methodMentionCandidates, p, &res)
	return res
}

func labels(items []mentions.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, string(it.Mention.Kind)+":"+it.Label)
	}
	return out
}

// The picker lists the special mentions the query starts, the files it
// matches and the symbols, in that order.
func TestMentionCandidates(t *testing.T) {
	e := chatEditor(t, newScriptModel(), "", false)
	for _, tc := range []struct {
		query, uri string
		limit      int
		want       []string
		incomplete bool
	}{
		{query: "", want: []string{"diagnostics:diagnostics", "changes:changes", "selection:selection", "url:url", "file:a.go", "file:b.go", "file:go.mod"}},
		{query: "", limit: 2, want: []string{"diagnostics:diagnostics", "changes:changes"}, incomplete: true},
		{query: "diag", uri: string(e.uri("a.go")), want: []string{"diagnostics:diagnostics", "diagnostics:diagnostics"}},
		{query: "bgo", want: []string{"file:b.go"}},
		{query: "Farew", want: []string{"symbol:Farewell"}},
		{query: "c", want: []string{"changes:changes"}},
	} {
		res := candidates(t, e, mentionCandidatesParams{Query: tc.query, URI: tc.uri, Limit: tc.limit})
		if got := labels(res.Items); strings.Join(got, " ") != strings.Join(tc.want, " ") || res.Incomplete != tc.incomplete {
			t.Errorf("%q: got %v incomplete=%v, want %v incomplete=%v", tc.query, got, res.Incomplete, tc.want, tc.incomplete)
		}
	}
	res := candidates(t, e, mentionCandidatesParams{Query: "diag", URI: string(e.uri("a.go"))})
	if m := res.Items[0].Mention; m.Scope != "file" || m.URI != string(e.uri("a.go")) || m.Text != "@diagnostics" {
		t.Errorf("file diagnostics item: %+v", m)
	}
	res = candidates(t, e, mentionCandidatesParams{Query: "Farewell"})
	sym := res.Items[len(res.Items)-1]
	if m := sym.Mention; m.Location == nil || m.Location.URI != e.uri("b.go") || m.Location.Range.Start.Line != 2 || m.Text != "@Farewell" ||
		sym.Detail != "function · b.go:3" {
		t.Errorf("symbol item: %+v %+v", sym, m.Location)
	}
}

// seen records the user message of each model call.
type seen struct {
	mu   sync.Mutex
	msgs []string
}

func (s *seen) step(next modelStep) modelStep {
	return func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		last := req.Messages[len(req.Messages)-1]
		var b strings.Builder
		for _, bl := range last.Blocks {
			b.WriteString(bl.Text)
		}
		s.mu.Lock()
		s.msgs = append(s.msgs, b.String())
		s.mu.Unlock()
		return next(ctx, req)
	}
}

func (s *seen) first() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.msgs) == 0 {
		return ""
	}
	return s.msgs[0]
}

func mentionReports(evs []ChatEvent) []mentions.Report {
	for _, ev := range evs {
		if ev.Kind == eventMentions {
			return ev.Mentions
		}
	}
	return nil
}

// A file mention puts the file before the model and reports its tokens;
// the read is in the ledger, so the model's own read_file of it answers
// with a stub. The file typed inline and the one picked are both found.
func TestChatMentionFile(t *testing.T) {
	for _, picked := range []bool{false, true} {
		m := newScriptModel()
		e := chatEditor(t, m, "", false)
		var s seen
		m.script("look at @b.go", s.step(calls("read_file", `{"path": "b.go"}`)), reply("ok"))
		p := ChatParams{Message: "look at @b.go"}
		if picked {
			p.Mentions = []mentions.Mention{{Kind: mentions.KindFile, Text: "@b.go", Path: "b.go"}}
		}
		res := awaitChat(t, e.chatCall(context.Background(), p))
		if !strings.Contains(s.first(), "<file path=\"b.go\">") || !strings.Contains(s.first(), "Farewell") {
			t.Fatalf("the model got %q", s.first())
		}
		reps := mentionReports(e.events(res.Session))
		if len(reps) != 1 || reps[0].Label != "b.go" || reps[0].Tokens < 10 || reps[0].Error != "" || reps[0].Kind != mentions.KindFile {
			t.Fatalf("reports %+v", reps)
		}
		if r := toolResults(e.events(res.Session))["read_file"]; len(r) != 1 || !strings.Contains(r[0], "unchanged since your read") {
			t.Errorf("read_file after the mention: %q", r)
		}
	}
}

// @selection quotes the chat's context; a symbol mention brings its
// definition; a word that is nothing stays text.
func TestChatMentionSelectionSymbol(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, "", false)
	var s seen
	m.script("explain @selection and @Farewell, @team", s.step(reply("ok")))
	rng := protocol.Range{Start: pos(3, 0), End: pos(3, 10)}
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{
		Message: "explain @selection and @Farewell, @team",
		Context: &ChatContext{URI: e.uri("a.go"), Range: &rng},
	}))
	got := s.first()
	for _, want := range []string{"<selection label=\"selection a.go:4-4\">", "func Greet\n", "<symbol label=\"Farewell\">", "b.go:3: function Farewell", `return "bye"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the model's message lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "func Greet"); n != 1 {
		t.Errorf("the selection is quoted %d times", n)
	}
	reps := mentionReports(e.events(res.Session))
	if len(reps) != 2 || reps[0].Kind != mentions.KindSelection || reps[1].Kind != mentions.KindSymbol || reps[1].Tokens == 0 {
		t.Errorf("reports %+v", reps)
	}
}

// @diagnostics of the current file asks the editor (parley/diagnostics).
func TestChatMentionDiagnostics(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, "", false)
	e.openText("a.go", mustRead(t, e, "a.go"))
	var s seen
	m.script("fix @diagnostics", s.step(reply("ok")))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "fix @diagnostics", Context: &ChatContext{URI: e.uri("a.go")}}))
	e.agent.mu.Lock()
	reqs := e.agent.diagRequests
	e.agent.mu.Unlock()
	if len(reqs) != 1 || len(reqs[0].URIs) != 1 || reqs[0].URIs[0] != string(e.uri("a.go")) {
		t.Fatalf("parley/diagnostics requests: %+v", reqs)
	}
	if got := s.first(); !strings.Contains(got, "<diagnostics label=\"diagnostics of a.go\">") || !strings.Contains(got, "a.go: no errors or warnings") {
		t.Errorf("the model got %q", got)
	}
	if reps := mentionReports(e.events(res.Session)); len(reps) != 1 || reps[0].Label != "diagnostics of a.go" || reps[0].Tokens == 0 {
		t.Errorf("reports %+v", reps)
	}
}

// @changes is the working tree against HEAD and the untracked files.
func TestChatMentionChanges(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, "", false)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", e.root, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "init")
	writeFile(t, filepath.Join(e.root, "b.go"), strings.Replace(mustRead(t, e, "b.go"), `"bye"`, `"see you"`, 1))
	writeFile(t, filepath.Join(e.root, "new.txt"), "new\n")
	var s seen
	m.script("review @changes", s.step(reply("ok")))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "review @changes"}))
	got := s.first()
	for _, want := range []string{"<changes label=\"changes\">", `-func Farewell() string { return "bye" }`, `+func Farewell() string { return "see you" }`, "Untracked files:\n  new.txt"} {
		if !strings.Contains(got, want) {
			t.Errorf("the model's message lacks %q:\n%s", want, got)
		}
	}
	if reps := mentionReports(e.events(res.Session)); len(reps) != 1 || reps[0].Kind != mentions.KindChanges || reps[0].Tokens == 0 {
		t.Errorf("reports %+v", reps)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
