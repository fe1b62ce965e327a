package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/internal/fakellm"
)

// completionEditor starts an editor on testdata/complete.txtar whose user
// configuration points completion at a fake model; extra is more of the
// "completion" object.
func completionEditor(t *testing.T, script, extra string) (*fakeEditor, *fakellm.Server) {
	t.Helper()
	url, fake := fakellm.Start(t, script)
	user := filepath.Join(t.TempDir(), "config.json")
	cfg := `{"completion": {"provider": "openai-completions", "model": "fake-fim", "api_url": "` + url + `/v1/completions"` + extra + `}}`
	if err := os.WriteFile(user, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	root := loadTxtar(t, "testdata/complete.txtar")
	e := startEditor(t, root, editorConfig{utf8: true, serverOpts: func(o *Options) {
		o.Agent.Config = config.Options{UserFile: user, Getenv: func(string) string { return "" }}
	}})
	e.waitIndexed(1)
	return e, fake
}

// typeAt replaces line (0-based) of rel's open buffer by text and returns
// the position at its end.
func (e *fakeEditor) typeLine(rel string, version int32, line uint32, text string) protocol.Position {
	e.t.Helper()
	e.change(rel, version, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line + 1}},
		Text:  text + "\n",
	})
	return protocol.Position{Line: line, Character: uint32(len(text))}
}

func (e *fakeEditor) inline(method, rel string, pos protocol.Position, kind protocol.InlineCompletionTriggerKind) protocol.InlineCompletionList {
	e.t.Helper()
	var list protocol.InlineCompletionList
	e.mustCall(method, &protocol.InlineCompletionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(rel)}, Position: pos},
		Context:                    protocol.InlineCompletionContext{TriggerKind: kind},
	}, &list)
	return list
}

func insertText(t *testing.T, it protocol.InlineCompletionItem) string {
	t.Helper()
	s, ok := it.InsertText.(protocol.String)
	if !ok {
		t.Fatalf("insertText %T", it.InsertText)
	}
	return string(s)
}

func TestInlineCompletion(t *testing.T) {
	e, fake := completionEditor(t, `fim \t\ts. => Add("pear", 2)`, `, "debounce_ms": 0`)
	const file = "app/main.go"
	e.open(file)
	// Line 13 (0-based) is `		s.Add("apple", 1)`: the user retypes it.
	pos := e.typeLine(file, 2, 13, "\t\ts.")
	list := e.inline(protocol.MethodTextDocumentInlineCompletion, file, pos, protocol.InlineCompletionTriggerKindAutomatic)
	if len(list.Items) != 1 {
		t.Fatalf("items %+v", list.Items)
	}
	it := list.Items[0]
	if got := insertText(t, it); got != `Add("pear", 2)` {
		t.Errorf("insertText %q", got)
	}
	if it.Range == nil || it.Range.Start != pos || it.Range.End != pos {
		t.Errorf("range %+v, want the cursor %+v", it.Range, pos)
	}
	if it.Command.Command != commandCompletionAccepted || len(it.Command.Arguments) != 1 {
		t.Errorf("command %+v", it.Command)
	}
	reqs := fake.FIMRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	// The model saw the members of s's type, from another package.
	for _, want := range []string{"func (s *Store) Add(item string, n int) error", "store/store.go", "\t\ts."} {
		if !strings.Contains(reqs[0].Prefix, want) {
			t.Errorf("the model's prompt lacks %q:\n%s", want, reqs[0].Prefix)
		}
	}
	if !strings.HasPrefix(reqs[0].Suffix, "\n\t}") {
		t.Errorf("suffix %q", reqs[0].Suffix)
	}
	// Typing through the suggestion reuses it: no new model request,
	// over the pre-3.18 method too.
	pos = e.typeLine(file, 3, 13, "\t\ts.Ad")
	list = e.inline(methodInlineCompletion, file, pos, protocol.InlineCompletionTriggerKindAutomatic)
	if len(list.Items) != 1 || insertText(t, list.Items[0]) != `d("pear", 2)` {
		t.Errorf("typed through: %+v", list.Items)
	}
	if n := len(fake.FIMRequests()); n != 1 {
		t.Errorf("%d model requests after typing through, want 1", n)
	}
	// The context of the last completion, as the editors' "show context"
	// command asks for it.
	var rep complete.Report
	e.mustCall(methodCompletionContext, map[string]string{}, &rep)
	if len(rep.Context) == 0 || rep.Context[0].Why != "members of s's type Store" || !strings.HasSuffix(rep.Prefix, "\t\ts.") {
		t.Errorf("completion context %+v", rep)
	}
	// Accepting runs the item's command; the stats log counts it.
	var id struct{ ID string }
	if err := json.Unmarshal(it.Command.Arguments[0], &id); err != nil {
		t.Fatal(err)
	}
	e.mustCall(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: it.Command.Command, Arguments: it.Command.Arguments}, nil)
	e.notify(methodCompletionEvent, map[string]any{"id": id.ID, "event": "shown"})
	dir, _ := e.srv.opts.StoreDir(e.root)
	deadline := time.Now().Add(waitTimeout)
	for {
		stats, err := complete.ReadStats(complete.StatsPath(dir))
		if err == nil && len(stats) == 1 && stats[0].Accepted == 1 && stats[0].Shown == 1 && stats[0].Offered == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, %v", stats, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestInlineCompletionNotConfigured: with no completion model, every
// request gets an empty list and the user one notice.
func TestInlineCompletionNotConfigured(t *testing.T) {
	root := loadTxtar(t, "testdata/complete.txtar")
	e := startEditor(t, root, editorConfig{utf8: true, serverOpts: func(o *Options) {
		o.Agent.Config = config.Options{UserFile: "-", Getenv: func(string) string { return "" }}
	}})
	e.waitIndexed(1)
	const file = "app/main.go"
	e.open(file)
	for range 3 {
		if list := e.inline(protocol.MethodTextDocumentInlineCompletion, file, protocol.Position{Line: 13, Character: 4}, protocol.InlineCompletionTriggerKindAutomatic); len(list.Items) != 0 {
			t.Fatalf("items without a model: %+v", list.Items)
		}
	}
	e.waitNote(0, "the notice", func(n note) bool { return n.method == protocol.MethodWindowShowMessage })
	time.Sleep(50 * time.Millisecond)
	e.mu.Lock()
	defer e.mu.Unlock()
	var shown []string
	for _, n := range e.notes {
		if n.method == protocol.MethodWindowShowMessage {
			shown = append(shown, string(n.params))
		}
	}
	if len(shown) != 1 || !strings.Contains(shown[0], "no completion model is configured") {
		t.Errorf("notices %q, want one", shown)
	}
}

// TestInlineCompletionSuperseded: keystrokes faster than the debounce
// reach the model once, with the last text; a request arriving while the
// model answers aborts that request.
func TestInlineCompletionSuperseded(t *testing.T) {
	e, fake := completionEditor(t, "fim => x\nfimdelay 400", `, "debounce_ms": 600`)
	const file = "app/main.go"
	e.open(file)
	var wg sync.WaitGroup
	lists := make([]protocol.InlineCompletionList, 3)
	for i, typed := range []string{"\t\ts", "\t\ts.", "\t\ts.A"} {
		pos := e.typeLine(file, int32(i+2), 13, typed)
		wg.Add(1)
		go func() {
			defer wg.Done()
			lists[i] = e.inline(protocol.MethodTextDocumentInlineCompletion, file, pos, protocol.InlineCompletionTriggerKindAutomatic)
		}()
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	reqs := fake.FIMRequests()
	if len(reqs) != 1 || !strings.HasSuffix(reqs[0].Prefix, "\t\ts.A") {
		t.Fatalf("%d model requests (%+v), want one with the last prefix", len(reqs), reqs)
	}
	if len(lists[0].Items)+len(lists[1].Items) != 0 || len(lists[2].Items) != 1 {
		t.Errorf("answers %+v", lists)
	}
	// An invoked request (no debounce) in flight, then another keystroke.
	done := make(chan protocol.InlineCompletionList)
	pos := e.typeLine(file, 5, 13, "\t\ts.Ad")
	go func() {
		done <- e.inline(protocol.MethodTextDocumentInlineCompletion, file, pos, protocol.InlineCompletionTriggerKindInvoked)
	}()
	for len(fake.FIMRequests()) < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	pos = e.typeLine(file, 6, 13, "\t\ts.Add")
	last := e.inline(protocol.MethodTextDocumentInlineCompletion, file, pos, protocol.InlineCompletionTriggerKindInvoked)
	if first := <-done; len(first.Items) != 0 {
		t.Errorf("the superseded request answered %+v", first.Items)
	}
	if len(last.Items) != 1 {
		t.Errorf("the last request: %+v", last.Items)
	}
	if fake.FIMCancelled() != 1 {
		t.Errorf("%d model requests aborted, want 1", fake.FIMCancelled())
	}
}
