package agent

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/internal/fakellm"
)

func openTestStore(t *testing.T, dir string) *SessionStore {
	t.Helper()
	st, err := OpenSessions(dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSessionStoreRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	base := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	for i, title := range []string{"first", "second", "third"} {
		s := &Session{ID: NewID(base.Add(time.Duration(i) * time.Second)), Created: base, Updated: base.Add(time.Duration(i) * time.Minute),
			Title: title, Model: "m", Turns: 1, Usage: provider.Usage{InputTokens: i + 1}}
		s.addUserText("question " + title)
		s.Messages = append(s.Messages, provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{
			{Kind: provider.BlockThinking, Text: "hmm", Signature: "sig"},
			use("c1", "read_file", `{"path":"a.go"}`),
		}}, provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{
			{Kind: provider.BlockToolResult, ToolCallID: "c1", Text: "no such file", IsError: true},
		}})
		if err := st.Save(s); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if !sort.StringsAreSorted(ids) {
		t.Errorf("IDs do not sort by time: %v", ids)
	}
	// Real directory: close and reopen.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openTestStore(t, dir)
	defer st.Close()
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Title != "third" || list[2].Title != "first" || list[0].Messages != 3 || list[0].Usage.InputTokens != 3 {
		t.Fatalf("list %+v, want most recent first with counts", list)
	}
	s, err := st.Load(ids[1])
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "second" || len(s.Messages) != 3 || s.Messages[1].Blocks[0].Signature != "sig" ||
		string(s.Messages[1].Blocks[1].Input) != `{"path":"a.go"}` || !s.Messages[2].Blocks[0].IsError {
		t.Errorf("loaded %+v", s)
	}
	if err := st.Delete(ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(ids[1]); !errors.Is(err, ErrSessionNotFound) {
		t.Errorf("Load after Delete: %v", err)
	}
	if err := st.Delete(ids[1]); !errors.Is(err, ErrSessionNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if list, _ := st.List(); len(list) != 2 {
		t.Errorf("list after delete: %+v", list)
	}
}

func TestSessionStoreLocked(t *testing.T) {
	dir := t.TempDir()
	st := openTestStore(t, dir)
	if _, err := OpenSessions(dir); !errors.Is(err, ErrSessionsLocked) {
		t.Errorf("second open: %v, want ErrSessionsLocked", err)
	}
	st.Close()
	openTestStore(t, dir).Close()
}

func TestSessionStoreRefusesOtherSchema(t *testing.T) {
	dir := t.TempDir()
	db, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	db.Set(sessionSchemaKey, binary.AppendUvarint(nil, sessionSchemaVersion+1), pebble.Sync)
	db.Set(sessionKey(prefixInfo, "x"), []byte(`{}`), pebble.Sync)
	db.Close()
	if _, err := OpenSessions(dir); err == nil || !strings.Contains(err.Error(), "schema version") {
		t.Fatalf("open: %v", err)
	}
	// Nothing was wiped.
	db, err = pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, c, err := db.Get(sessionKey(prefixInfo, "x")); err != nil {
		t.Errorf("session record gone: %v", err)
	} else {
		c.Close()
	}
}

// TestSessionNeverHoldsTheKey talks to a fake Anthropic API through the
// real provider, configured with a key the API requires and then echoes
// in an error message, and checks that neither the store's records and
// files nor the turn's error and events contain the key.
func TestSessionNeverHoldsTheKey(t *testing.T) {
	const key = "sk-ant-api03-TESTKEYdoNotPersist0123456789"
	url, _ := fakellm.Start(t, "key "+key+`
tool look {}
---
text done
---
status 400 {"type":"error","error":{"type":"invalid_request_error","message":"request with key `+key+` rejected"}}
`)
	p, err := provider.New(provider.Config{Provider: provider.NameAnthropic, APIURL: url, APIKey: key, Model: "claude-test", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st := openTestStore(t, dir)
	a, rec := newTestAgent(t, p, echo("look", true))
	a.Store = st
	s := NewSession()
	if res, err := a.Run(context.Background(), s, "hello"); err != nil || res.Text != "done" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	_, err = a.Run(context.Background(), s, "again")
	if err == nil || !strings.Contains(err.Error(), "rejected") {
		t.Fatalf("second Run: err %v, want the API's 400", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("the error holds the key: %v", err)
	}
	rec.mu.Lock()
	events := slices.Clone(rec.events)
	rec.mu.Unlock()
	for _, e := range events {
		if strings.Contains(e.Text, key) || (e.Result != nil && strings.Contains(e.Result.Content, key)) {
			t.Errorf("event %s holds the key", e.Kind)
		}
	}
	loaded, err := st.Load(s.ID)
	if err != nil || len(loaded.Messages) != 5 {
		t.Fatalf("Load = %+v, %v; want 5 messages", loaded, err)
	}
	it, err := st.db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	for ok := it.First(); ok; ok = it.Next() {
		if bytes.Contains(it.Key(), []byte(key)) || bytes.Contains(it.Value(), []byte(key)) {
			t.Errorf("record %q holds the key", it.Key())
		}
	}
	it.Close()
	st.Close()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(data, []byte(key)) {
			t.Errorf("%s holds the key", p)
		}
		return nil
	})
}

func TestNewIDSortsByTime(t *testing.T) {
	t0 := time.Date(2025, 12, 31, 23, 59, 59, 998e6, time.UTC)
	var ids []string
	for i := range 5 {
		ids = append(ids, NewID(t0.Add(time.Duration(i)*time.Millisecond)))
	}
	if !slices.IsSorted(ids) || ids[0] == ids[1] || !strings.HasPrefix(ids[0], "20251231-235959.998-") {
		t.Errorf("ids %v", ids)
	}
}

func TestTitles(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fix   the\tbug\nin main.go", "fix the bug"},
		{"\n\n  second line wins  \n", "second line wins"},
		{"", "(empty)"},
		{strings.Repeat("é", 100), strings.Repeat("é", titleLen-1) + "…"},
	}
	for _, tt := range tests {
		if got := Title(tt.in); got != tt.want {
			t.Errorf("Title(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The token calibration a session learns from the provider's usage is
// saved per model, and a new session (another process, the store
// reopened) starts with it: its first request is already sized with the
// calibrated estimate.
func TestCalibrationPersists(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	// The provider reports 10 prompt tokens for a prompt counted at about
	// 1,000: the ratio is clamped to minRatio.
	p := newScripted(say("one"))
	a, _ := newTestAgent(t, p)
	a.Store, a.ContextWindow, a.MaxTokens = st, 8000, -1
	first := NewSession()
	if _, err := a.Run(context.Background(), first, words(1000)); err != nil {
		t.Fatal(err)
	}
	if r := st.Calibration(a.Model); r != minRatio {
		t.Fatalf("saved calibration %v, want %v", r, minRatio)
	}
	st.Close()

	st = openTestStore(t, dir)
	defer st.Close()
	p2 := newScripted(say("two"))
	b, _ := newTestAgent(t, p2)
	b.Store, b.ContextWindow, b.MaxTokens = st, 8000, -1
	if _, err := b.Run(context.Background(), NewSession(), words(4000)); err != nil {
		t.Fatal(err)
	}
	// Uncalibrated, about 4,000 of the 8,000 tokens would be left (less the
	// margin); calibrated at 0.5, about 6,000.
	if got := p2.requests()[0].MaxTokens; got < 5000 {
		t.Errorf("a new session's first request asks for %d tokens: it was not calibrated", got)
	}
}
