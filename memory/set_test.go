package memory

import (
	"errors"
	"strings"
	"testing"
)

func openSet(t *testing.T) *Set {
	t.Helper()
	ws, err := Open(t.TempDir(), Workspace)
	if err != nil {
		t.Fatal(err)
	}
	user, err := Open(t.TempDir(), User)
	if err != nil {
		t.Fatal(err)
	}
	s := &Set{Workspace: ws, User: user}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSetRoutesByScope(t *testing.T) {
	s := openSet(t)
	w, err := s.Add(Memory{Content: "workspace builds with make"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.Add(Memory{Content: "user prefers short answers about make", Scope: User, Type: Preference})
	if err != nil {
		t.Fatal(err)
	}
	if Ref(w) != "1" || Ref(u) != "u1" {
		t.Fatalf("refs %q %q", Ref(w), Ref(u))
	}
	if got, err := s.Get("u1"); err != nil || got.Content != u.Content {
		t.Errorf("Get(u1) = %+v, %v", got, err)
	}
	if hits, _ := s.Recall("make", 5); len(hits) != 2 {
		t.Errorf("Recall over both stores: %d hits", len(hits))
	}
	if _, err := s.Forget("u1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("u1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Forget: %v", err)
	}
	for _, bad := range []string{"", "x", "u", "0", "-3"} {
		if _, err := s.Get(bad); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("Get(%q): %v, want a malformed-id error", bad, err)
		}
	}
	if _, err := (&Set{}).Add(Memory{Content: "x"}); err == nil {
		t.Error("Add without a workspace store succeeded")
	}
}

func TestAutoRecall(t *testing.T) {
	s := openSet(t)
	for _, c := range []string{
		"Release builds are made with goreleaser from the release branch",
		"The database migrations live in db/migrate and run with make migrate",
		"Use table tests for parsers",
		"Logging goes through slog with the JSON handler",
		"CI runs on two cores",
	} {
		if _, err := s.Add(Memory{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		msg  string
		want []string // refs
	}{
		{"how do I run the database migrations?", []string{"2"}},
		{"cut a release build please", []string{"1"}},
		{"fix the typo in the README", nil},
		// One shared word with a long message is chance, not relevance.
		{"add a logging call to the parser of the config file format", nil},
	}
	for _, tt := range tests {
		text, hits, err := s.AutoRecall(tt.msg)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, Ref(h.Memory))
			if !strings.Contains(text, "["+Ref(h.Memory)+"]") {
				t.Errorf("%q: prompt text lacks memory %s:\n%s", tt.msg, Ref(h.Memory), text)
			}
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("AutoRecall(%q) = %v, want %v", tt.msg, got, tt.want)
		}
		if len(hits) == 0 && text != "" {
			t.Errorf("AutoRecall(%q) text without hits: %q", tt.msg, text)
		}
	}
	if m, _ := s.Get("2"); m.Used.IsZero() {
		t.Error("auto-recalled memory not marked used")
	}
}

func TestAutoRecallBoundsTokens(t *testing.T) {
	s := openSet(t)
	long := strings.Repeat("deploy pipeline notes ", 60)
	for range 5 {
		if _, err := s.Add(Memory{Content: long}); err != nil {
			t.Fatal(err)
		}
	}
	text, hits, err := s.AutoRecall("deploy pipeline")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || len(text) > AutoRecallTokens*4+200 {
		t.Errorf("AutoRecall kept %d hits, %d bytes", len(hits), len(text))
	}
}
