package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

// cacheCase is a sequence of reads of files a, b, c, d (of the sizes
// given, against a budget) and whether each read is served from the
// cache: "a+" a hit, "a-" a miss.
type cacheCase struct {
	name  string
	sizes map[string]int
	reads string
}

// The files are about 10 KB against a 25 KB budget: two fit.
var cacheCases = []cacheCase{
	{"within the budget", map[string]int{"a": 10_000, "b": 10_000}, "a- b- a+ b+"},
	{"least recently used goes", map[string]int{"a": 10_000, "b": 10_000, "c": 10_000}, "a- b- a+ c- a+ b-"},
	{"as many as needed", map[string]int{"a": 5_000, "b": 5_000, "c": 5_000, "d": 20_000}, "a- b- c- d- d+ a- b- c-"},
	{"larger than the budget", map[string]int{"a": 10_000, "d": 30_000}, "a- d- d- a+"},
}

const cacheBudget = 25_000

// runCacheCase writes the case's files (made by content) and replays the
// reads through get, which returns the entry (a hit returns the same one).
func runCacheCase[T comparable](t *testing.T, tc cacheCase, content func(n int) []byte, get func(abs string, data []byte) T) {
	t.Helper()
	dir := t.TempDir()
	data := map[string][]byte{}
	for name, n := range tc.sizes {
		data[name] = content(n)
		if err := os.WriteFile(filepath.Join(dir, name), data[name], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	last := map[string]T{}
	for _, r := range strings.Fields(tc.reads) {
		name, wantHit := r[:1], r[1:] == "+"
		got := get(filepath.Join(dir, name), data[name])
		prev, seen := last[name]
		if hit := seen && got == prev; hit != wantHit {
			t.Errorf("read %s (of %q): hit %v, want %v", r, tc.reads, hit, wantHit)
		}
		last[name] = got
	}
}

// TestFileCacheEviction: the file cache is bounded by bytes, least
// recently used first; a file larger than the budget is not kept.
func TestFileCacheEviction(t *testing.T) {
	for _, tc := range cacheCases {
		t.Run(tc.name, func(t *testing.T) {
			c := newFileCache(cacheBudget)
			runCacheCase(t, tc, func(n int) []byte { return bytes.Repeat([]byte("x"), n) },
				func(abs string, _ []byte) *fileText {
					f, err := c.get(abs)
					if err != nil {
						t.Fatal(err)
					}
					return f
				})
		})
	}
}

// TestWideCacheEviction: the same for the non-ASCII lines cache.
func TestWideCacheEviction(t *testing.T) {
	for _, tc := range cacheCases {
		t.Run(tc.name, func(t *testing.T) {
			c := newWideCache(cacheBudget)
			runCacheCase(t, tc, func(n int) []byte { return append([]byte("é"), bytes.Repeat([]byte("x"), n)...) },
				func(abs string, data []byte) *wideLines {
					w, ok := c.get(abs, xxhash.Sum64(data))
					if !ok {
						t.Fatalf("%s not served", abs)
					}
					return w
				})
		})
	}
}

// TestPendingDropped: content the agent applied to closed files is kept
// within a budget; past it the oldest is dropped but its path stays
// marked, so the agent is told to have the file saved instead of reading
// a disk that differs from the editor's buffer.
func TestPendingDropped(t *testing.T) {
	s := New(Options{})
	s.pending.max = 25_000
	dir := t.TempDir()
	abs := func(name string) string { return filepath.Join(dir, name) }
	for _, name := range []string{"a", "b"} {
		if err := os.WriteFile(abs(name), []byte("on disk\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := bytes.Repeat([]byte("x"), 10_000)
	s.pending.set(abs("a"), pendingFile{content: big})
	s.pending.set(abs("b"), pendingFile{deleted: true})
	s.pending.set(abs("c"), pendingFile{content: big})
	s.pending.set(abs("d"), pendingFile{content: big}) // a goes
	s.pending.set(abs("e"), pendingFile{content: bytes.Repeat(big, 3)})

	view := agentView{s}
	for _, name := range []string{"a", "e"} {
		if _, _, err := view.Read(abs(name)); err == nil || !strings.Contains(err.Error(), "save") {
			t.Errorf("read %s after its content was dropped: %v, want to be told to save", name, err)
		}
	}
	if _, _, err := view.Read(abs("b")); !os.IsNotExist(err) {
		t.Errorf("read of a file the agent deleted: %v", err)
	}
	for _, name := range []string{"c", "d"} {
		if got, _, err := view.Read(abs(name)); err != nil || !bytes.Equal(got, big) {
			t.Errorf("read %s: %d bytes, %v", name, len(got), err)
		}
	}
	if got := strings.Join(relNames(dir, s.unsaved()), " "); got != "a b c d e" {
		t.Errorf("unsaved %q, want every path the agent changed", got)
	}
	s.pending.forget(abs("a")) // the client reported it
	if got, _, err := view.Read(abs("a")); err != nil || string(got) != "on disk\n" {
		t.Errorf("read a after the client reported it: %q, %v", got, err)
	}
}

func relNames(dir string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i], _ = filepath.Rel(dir, p)
	}
	return out
}

// TestSessionEviction: idle sessions go least recently used first when
// the sessions in memory exceed their budget; running ones and the one
// just used stay. Without a store, an evicted session is logged.
func TestSessionEviction(t *testing.T) {
	for _, tc := range []struct {
		name    string
		use     string // sessions in order of use; "*" marks a running one
		left    string // the sessions left, most recently used first
		dropped string // sessions logged as dropped (no store)
	}{
		{"within the budget", "a b", "b a", ""},
		{"least recently used goes", "a b c", "c b", "a"},
		{"used again", "a b a c", "c a", "b"},
		{"running stays", "a* b c", "c a", "b"},
		{"all running", "a* b* c", "c b a", ""},
		{"the one just used stays", "a* b* big", "big b a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			s := New(Options{LogFile: &syncWriter{w: &log}})
			h := s.agents
			h.opened = true // no store: memory only
			h.live.max = 25_000
			sessions := map[string]*liveSession{}
			for _, u := range strings.Fields(tc.use) {
				id := strings.TrimSuffix(u, "*")
				ls := sessions[id]
				if ls == nil {
					ls = testSession(id, map[bool]int{true: 30_000, false: 10_000}[id == "big"])
					sessions[id] = ls
					h.mu.Lock()
					h.live.add(id, ls, sessionFootprint(ls.session))
					h.mu.Unlock()
				}
				h.touch(ls, sessionFootprint(ls.session))
				if strings.HasSuffix(u, "*") {
					ls.turn.Lock()
				}
			}
			var left []string
			h.live.each(func(id string, _ *liveSession) { left = append(left, id) })
			if got := strings.Join(left, " "); got != tc.left {
				t.Errorf("sessions left %q, want %q", got, tc.left)
			}
			for _, id := range strings.Fields(tc.dropped) {
				if !strings.Contains(log.String(), "session "+id+" dropped from memory") {
					t.Errorf("no log of session %s dropped:\n%s", id, log.String())
				}
			}
		})
	}
}

// testSession is a session whose one message holds n bytes of text.
func testSession(id string, n int) *liveSession {
	s := agent.NewSession()
	s.ID = id
	s.Messages = []provider.Message{{Role: provider.RoleUser, Blocks: []provider.Block{{Kind: provider.BlockText, Text: strings.Repeat("x", n)}}}}
	return &liveSession{session: s, todos: &tools.TodoList{}}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// TestEvictedSessionReloads: a session evicted from memory comes back
// from the store with its history.
func TestEvictedSessionReloads(t *testing.T) {
	m := newScriptModel()
	m.script("first", reply("one"), reply("two"))
	m.script("other", reply("three"))
	e := chatEditor(t, m, "", false)
	h := e.srv.agents
	h.mu.Lock()
	h.live.max = 1 // only the session just used stays
	h.mu.Unlock()
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "first"}))
	awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "other"}))
	h.mu.Lock()
	_, inMemory := h.live.peek(res.Session)
	h.mu.Unlock()
	if inMemory {
		t.Fatal("the idle session stayed in memory past the budget")
	}
	var stored json.RawMessage
	e.mustCall(methodSession, sessionParams{Session: res.Session}, &stored)
	if !strings.Contains(string(stored), "first") || !strings.Contains(string(stored), "one") {
		t.Errorf("parley/session after eviction: %s", stored)
	}
	// The model is scripted by the session's first message: "two" means
	// it got the history.
	res2 := awaitChat(t, e.chatCall(context.Background(), ChatParams{Session: res.Session, Message: "again"}))
	if res2.Text != "two" || res2.Turn != 2 {
		t.Errorf("second turn after eviction: %+v", res2)
	}
}
