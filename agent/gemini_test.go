package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
)

// A turn on the Gemini provider against the fake Gemini API: parallel tool
// calls (the real todo_write among them, whose schema the API would refuse
// unconverted) run and their results go back as functionResponse parts
// with the calls' thought signature, the answer streams as text deltas,
// and a second turn builds on the first. The fake refuses, as the API
// does, a request that breaks any of that.
func TestGeminiTurnsOverHTTP(t *testing.T) {
	script := `key test-key-123
text Reading it.
tool read_file {"path":"a.go"}
tool todo_write {"todos":[{"content":"read a.go","status":"in_progress"}]}
---
tool edit_file {"path":"a.go"}
---
text Done: a.go read and edited.
---
text Second turn.
`
	a, srv := httpAgent(t, provider.NameGemini, script, 1_000_000)
	rec := &recorder{}
	a.Sink = rec.sink
	s := NewSession()
	res, err := a.Run(context.Background(), s, "look at a.go")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Done: a.go read and edited." {
		t.Errorf("answer %q", res.Text)
	}
	var streamed strings.Builder
	for _, e := range rec.of(EventText) {
		streamed.WriteString(e.Text)
	}
	if got := streamed.String(); got != "Reading it.Done: a.go read and edited." || len(rec.of(EventText)) < 4 {
		t.Errorf("streamed %q in %d deltas", got, len(rec.of(EventText)))
	}
	var names []string
	for _, e := range rec.of(EventToolResult) {
		names = append(names, e.ToolName)
		if e.Result == nil || e.Result.IsError {
			t.Errorf("%s failed: %+v", e.ToolName, e.Result)
		}
	}
	slices.Sort(names) // calls of one answer run concurrently
	if !slices.Equal(names, []string{"edit_file", "read_file", "todo_write"}) {
		t.Errorf("tool results %v", names)
	}
	checkConsistent(t, s.Messages)

	if res, err := a.Run(context.Background(), s, "and now?"); err != nil || res.Text != "Second turn." {
		t.Fatalf("second turn: %+v, %v", res, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	var second struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string `json:"text"`
				ThoughtSignature string `json:"thoughtSignature"`
				FunctionCall     *struct {
					Name string `json:"name"`
				} `json:"functionCall"`
				FunctionResponse *struct {
					Name     string            `json:"name"`
					Response map[string]string `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		t.Fatal(err)
	}
	c := second.Contents
	if len(c) != 3 || c[1].Role != "model" || len(c[1].Parts) != 3 || c[1].Parts[1].ThoughtSignature == "" ||
		c[2].Parts[0].FunctionResponse == nil || c[2].Parts[0].FunctionResponse.Name != "read_file" ||
		!strings.HasPrefix(c[2].Parts[0].FunctionResponse.Response["output"], "// a.go") {
		t.Errorf("second request: %s", reqs[1])
	}
	for _, r := range reqs {
		if bytes.Contains(r, []byte("additionalProperties")) || bytes.Contains(r, []byte("test-key-123")) {
			t.Errorf("request holds additionalProperties or the key: %s", r)
		}
	}
}

// Gemini's own overflow error (the window is set too high) makes the
// agent compact and retry, as for the other wire formats.
func TestGeminiOverflowRecoveryOverHTTP(t *testing.T) {
	script := fmt.Sprintf("window 2600\nsummarize %s\n", summaryMarker)
	for i := range 6 {
		script += fmt.Sprintf("tool read_file {\"path\":\"f%d.go\"}\n---\ntext read %d\n---\n", i, i)
	}
	a, srv := httpAgent(t, provider.NameGemini, script, 30_000, fileTools()...)
	a.MaxTokens = 100
	s := NewSession()
	for i := range 6 {
		if _, err := a.Run(context.Background(), s, fmt.Sprintf("#keep read file %d", i)); err != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
	}
	if len(srv.Refused()) == 0 || len(s.Compactions) == 0 || s.Compactions[0].Reason != CompactOverflow {
		t.Fatalf("refused %v, compactions %+v", srv.Refused(), s.Compactions)
	}
	if sum := s.Messages[0].Blocks[0].Text; !strings.Contains(sum, "#keep read file 0") {
		t.Errorf("summary %q", sum)
	}
	checkConsistent(t, s.Messages)
}
