package index

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"

	"github.com/parleyhq/parley/index/extract"
)

// nameTable is a resident copy of the symbol name index ('s' records),
// grouped by distinct name, for SearchSymbols: a search classifies each
// distinct name once instead of scanning every key in Pebble, which on
// GOROOT/src is ~150k names instead of 370k keys and no decoding.
//
// It is built by the first search and kept current lazily: publishing a
// file header marks the file's ID dirty (markDirty, cheap, under s.mu),
// and the next search re-reads the symbols of the dirty files before it
// runs. Many dirty files (an index run) mean a rebuild instead.
type nameTable struct {
	// mu guards everything below; it is never held while waiting for s.mu
	// for writing, so publishLocked (which holds s.mu) only touches dirty.
	mu      sync.Mutex
	built   bool
	entries []nameEntry
	byName  map[string]int32   // spelled name -> entry
	byFile  map[uint32][]int32 // file ID -> entries holding its postings
	free    []int32            // entries emptied by removals, for reuse
	// containers interns container names, which repeat across symbols.
	containers map[string]string
	// arena holds the bytes of every name: one allocation per 64 KiB
	// instead of three per name, and nothing for the collector to scan.
	arena byteArena

	dirtyMu  sync.Mutex
	dirty    map[uint32]struct{}
	dirtyAll bool
}

type nameEntry struct {
	name, lower []byte
	// mask has a bit per byte class present in lower (charMask): a name
	// lacking any of the query's bytes cannot match, and most names are
	// rejected by one AND.
	mask  uint64
	posts []namePost
}

// charMask maps each byte of s to a bit: letters and digits their own,
// '_' and '$' theirs, every other byte (including UTF-8) one shared bit.
func charMask(s []byte) uint64 {
	var m uint64
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z':
			m |= 1 << (c - 'a')
		case '0' <= c && c <= '9':
			m |= 1 << (26 + c - '0')
		case c == '_':
			m |= 1 << 36
		case c == '$':
			m |= 1 << 37
		case 'A' <= c && c <= 'Z':
			m |= 1 << (c - 'A')
		default:
			m |= 1 << 63
		}
	}
	return m
}

type namePost struct {
	id, idx   uint32
	sel       extract.Pos
	kind      extract.SymbolKind
	exported  bool
	container string // interned
}

// rebuildAbove is the number of dirty files beyond which a full rebuild
// (one scan of the name index) is cheaper than per-file updates.
const rebuildAbove = 2000

// markDirty records that file id's symbols changed. Safe to call with
// s.mu held.
func (t *nameTable) markDirty(id uint32) {
	t.dirtyMu.Lock()
	if !t.dirtyAll {
		if t.dirty == nil {
			t.dirty = map[uint32]struct{}{}
		}
		t.dirty[id] = struct{}{}
		if len(t.dirty) > rebuildAbove {
			t.dirtyAll, t.dirty = true, nil
		}
	}
	t.dirtyMu.Unlock()
}

// current brings the table up to date. Precondition: t.mu is held.
func (t *nameTable) current(s *Store) error {
	t.dirtyMu.Lock()
	dirty, all := t.dirty, t.dirtyAll
	t.dirty, t.dirtyAll = nil, false
	t.dirtyMu.Unlock()
	if !t.built || all {
		return t.rebuild(s)
	}
	for id := range dirty {
		if err := t.refresh(s, id); err != nil {
			// Leave the file dirty so the next search retries it.
			t.markDirty(id)
			return err
		}
	}
	return nil
}

func (t *nameTable) rebuild(s *Store) error {
	// Distinct names are about 40% of the symbols (GOROOT/src: 150k of
	// 370k); sizing for that avoids regrowing the table while it loads.
	guess := s.symbolCount() / 2
	t.entries, t.free = make([]nameEntry, 0, guess), nil
	t.byName = make(map[string]int32, guess)
	t.byFile = make(map[uint32][]int32, len(t.byFile))
	t.containers = map[string]string{}
	t.arena = byteArena{}
	err := s.scanSymNames(func(name, lower []byte, id, idx uint32, ref symRef) error {
		t.add(name, lower, namePost{id: id, idx: idx, sel: ref.Sel, kind: ref.Kind, exported: ref.Exported, container: t.intern(ref.Container)})
		return nil
	})
	if err != nil {
		t.built = false
		return fmt.Errorf("load symbol names: %w", err)
	}
	t.built = true
	return nil
}

// add appends a posting; name and lower may alias a scan buffer, so they
// are copied when a new entry is made.
func (t *nameTable) add(name, lower []byte, p namePost) {
	e, ok := t.byName[string(name)]
	if !ok {
		ne := nameEntry{name: t.arena.copy(name), mask: charMask(lower)}
		ne.lower = ne.name
		if !bytes.Equal(name, lower) {
			ne.lower = t.arena.copy(lower)
		}
		if n := len(t.free); n > 0 {
			e, t.free = t.free[n-1], t.free[:n-1]
			t.entries[e] = ne
		} else {
			e = int32(len(t.entries))
			t.entries = append(t.entries, ne)
		}
		t.byName[arenaString(ne.name)] = e
	}
	t.entries[e].posts = append(t.entries[e].posts, p)
	if fe := t.byFile[p.id]; len(fe) == 0 || fe[len(fe)-1] != e {
		t.byFile[p.id] = append(fe, e)
	}
}

func (t *nameTable) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := t.containers[string(b)]; ok {
		return s
	}
	s := string(b)
	t.containers[s] = s
	return s
}

// byteArena hands out immutable copies of byte strings from shared
// chunks. Chunks are dropped with the arena (on a rebuild); bytes of
// removed names stay until then.
type byteArena struct{ cur []byte }

const arenaChunk = 64 << 10

func (a *byteArena) copy(b []byte) []byte {
	if cap(a.cur)-len(a.cur) < len(b) {
		a.cur = make([]byte, 0, max(arenaChunk, len(b)))
	}
	n := len(a.cur)
	a.cur = append(a.cur, b...)
	return a.cur[n:len(a.cur):len(a.cur)]
}

// arenaString views arena bytes as a string without copying; they are
// never written again.
func arenaString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// refresh replaces file id's postings with what the store holds now.
func (t *nameTable) refresh(s *Store, id uint32) error {
	for _, e := range t.byFile[id] {
		ent := &t.entries[e]
		if len(ent.posts) == 0 {
			// Freed earlier in this loop: a file declaring a name
			// twice with another between lists its entry twice (add
			// skips only a repeat of the last one), and freeing it
			// twice would hand it to two new names.
			continue
		}
		posts := ent.posts[:0]
		for _, p := range ent.posts {
			if p.id != id {
				posts = append(posts, p)
			}
		}
		ent.posts = posts
		if len(posts) == 0 {
			delete(t.byName, string(ent.name))
			*ent = nameEntry{}
			t.free = append(t.free, e)
		}
	}
	delete(t.byFile, id)
	s.mu.RLock()
	_, exists := s.byID[id]
	s.mu.RUnlock()
	if !exists {
		return nil
	}
	v, err := s.get(idKey(prefixSymbols, id))
	if err != nil || v == nil {
		return err
	}
	syms, err := decodeSymbols(v)
	if err != nil {
		return fmt.Errorf("symbols of file %d: %w", id, err)
	}
	var lower []byte
	for i := range syms {
		sym := &syms[i]
		lower = appendLower(lower[:0], sym.Name)
		t.add([]byte(sym.Name), lower, namePost{id: id, idx: uint32(i), sel: sym.Selection.Start, kind: sym.Kind, exported: sym.Exported, container: t.intern([]byte(sym.Container))})
	}
	return nil
}
