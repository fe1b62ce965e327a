package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/index/extract"
)

// batchLimit is how many bytes a Writer batches before committing. Larger
// batches amortise commit cost; this keeps memory bounded on huge trees.
const batchLimit = 8 << 20

// FileUpdate is everything the store keeps about one file.
type FileUpdate struct {
	Header FileHeader // ID is assigned by the writer
	Detail FileDetail
	// Result is nil for files that were not parsed (text, skipped).
	Result *extract.Result
}

// Writer replaces and deletes files in the store one at a time: the path for
// callers that extract a single file themselves (an editor's unsaved
// buffer) and for the indexer's deletions. Each file's records are
// written in a single batch. Not safe for concurrent use; only one Writer
// may exist per Store at a time. Commit must be called to make the last
// changes durable in the store (there is no rollback: a Writer that is
// dropped simply loses its uncommitted files).
type Writer struct {
	s       *Store
	b       *pebble.Batch
	pending map[string]*FileHeader // path -> new header, nil for deletion
}

// NewWriter starts a writer.
func (s *Store) NewWriter() *Writer {
	return &Writer{s: s, b: s.db.NewBatch(), pending: map[string]*FileHeader{}}
}

// reserveIDs hands out n consecutive unused file IDs. IDs are never stored
// as a counter: load recomputes the next free one from the headers, and an
// ID freed by a deletion may be reused because all its records went with it.
func (s *Store) reserveIDs(n int) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.nextID
	s.nextID += uint32(n)
	return first
}

// Put replaces the records of u.Header.Path.
func (w *Writer) Put(u *FileUpdate) error {
	path := u.Header.Path
	if err := w.settle(path); err != nil {
		return err
	}
	if old, ok := w.s.Header(path); ok {
		u.Header.ID = old.ID
		if err := w.s.deleteRecords(w.b, old.ID); err != nil {
			return fmt.Errorf("replace %s: %w", path, err)
		}
	} else {
		u.Header.ID = w.s.reserveIDs(1)
	}
	h := encodeFile(w.b, u)
	w.pending[path] = &h
	return w.maybeCommit()
}

// encodeFile adds every record of u (whose Header.ID is set) to b and
// returns the header as stored. It reads nothing, so workers can run it in
// parallel on sinks of their own.
func encodeFile(b recordSink, u *FileUpdate) FileHeader {
	h := u.Header
	d := u.Detail
	d.Path = h.Path
	b.Set(idKey(prefixDetail, h.ID), encodeDetail(&d), nil) // 'f'
	r := u.Result
	if r == nil {
		b.Set(pathKey(h.Path), encodeHeader(&h), nil) // 'p'
		return h
	}
	h.Symbols = uint32(len(r.Symbols))
	h.Refs = uint32(len(r.Refs))
	g := groupers.Get().(*refGrouper)
	defer g.release()
	names, groups := g.group(r.Refs)
	// Set copies, so one key and one value buffer serve every record.
	key, val := g.key[:0], g.val[:0]
	val = encodeNames(val, names)
	b.Set(idKey(prefixNames, h.ID), val, nil)     // 'n'
	b.Set(pathKey(h.Path), encodeHeader(&h), nil) // 'p'
	for i, name := range names {                  // 'r'
		val = encodeOccurrences(val[:0], groups[i])
		key = appendRefKey(key[:0], name, h.ID)
		b.Set(key, val, nil)
	}
	for i := range r.Symbols { // 's'
		sym := &r.Symbols[i]
		key = appendSymNameKey(key[:0], sym.Name, h.ID, uint32(i))
		lower, _, _, _ := parseSymNameKey(key)
		val = encodeSymRef(val[:0], sym, string(lower) != sym.Name)
		b.Set(key, val, nil)
	}
	val = encodeSymbols(val[:0], r.Symbols)
	b.Set(idKey(prefixSymbols, h.ID), val, nil) // 'y'
	g.key, g.val = key, val
	return h
}

// refGrouper groups a file's occurrences by name: the distinct names in
// first-seen order and, for each, its positions in file order. Grouping is
// a counting sort over first-seen names; comparison-sorting millions of
// refs by string was a tenth of cold indexing time. Its buffers are reused
// across files (groupers), because allocating them afresh for each file was
// a tenth of the indexer's allocation volume.
type refGrouper struct {
	slot                      map[string]int32
	seen                      seenNames
	names                     []string
	counts, ids, starts, fill []int32
	occ                       []Occurrence
	groups                    [][]Occurrence
	// key and val are the buffers encodeFile builds records in (growing
	// fresh ones for every file was 1% of a cold index).
	key, val []byte
}

// groupers holds idle refGroupers; encodeFile runs on every worker.
var groupers = sync.Pool{New: func() any { return &refGrouper{slot: map[string]int32{}} }}

// maxPooledNames bounds the name map a pooled grouper keeps: clearing a map
// costs its capacity, so one huge file must not tax every later one.
const maxPooledNames = 4096

// maxPooledRecord bounds the value buffer a pooled grouper keeps.
const maxPooledRecord = 1 << 20

// release returns g to the pool; what group returned is then invalid.
func (g *refGrouper) release() {
	if len(g.slot) > maxPooledNames {
		g.slot = map[string]int32{}
	} else {
		clear(g.slot)
	}
	clear(g.names) // drop the strings
	g.names = g.names[:0]
	if cap(g.val) > maxPooledRecord {
		g.val = nil
	}
	groupers.Put(g)
}

// group returns the distinct names of refs and their occurrences. Both stay
// valid until release.
func (g *refGrouper) group(refs []extract.Ref) (names []string, groups [][]Occurrence) {
	if len(refs) == 0 {
		return nil, nil
	}
	names, counts := g.names[:0], g.counts[:0]
	ids := resize(g.ids, len(refs))
	g.seen.reset()
	for i := range refs {
		name := refs[i].Name
		n, ok := g.seen.get(name)
		if !ok {
			if n, ok = g.slot[name]; !ok {
				n = int32(len(names))
				g.slot[name] = n
				names = append(names, name)
				counts = append(counts, 0)
			}
			g.seen.put(name, n)
		}
		ids[i] = n
		counts[n]++
	}
	starts := resize(g.starts, len(names)+1)
	starts[0] = 0
	for n, c := range counts {
		starts[n+1] = starts[n] + c
	}
	occ := resize(g.occ, len(refs))
	fill := append(g.fill[:0], starts[:len(names)]...)
	for i := range refs {
		n := ids[i]
		occ[fill[n]] = Occurrence{Pos: refs[i].Pos, Call: refs[i].Call, Sel: refs[i].Sel, Import: refs[i].Import, Operand: refs[i].Operand}
		fill[n]++
	}
	groups = resize(g.groups, len(names))
	for n := range names {
		o := occ[starts[n]:starts[n+1]]
		if !occurrencesSorted(o) {
			slices.SortFunc(o, cmpOccurrence)
		}
		groups[n] = o
	}
	g.names, g.counts, g.ids, g.starts, g.fill, g.occ, g.groups = names, counts, ids, starts, fill, occ, groups
	return names, groups
}

// seenNames remembers the slots of recently grouped names by the address
// of their bytes. The Go extractor interns its names, so a name's
// occurrences share one string, and this direct-mapped table answers most
// lookups without hashing the name (map lookups were two fifths of
// grouping). Equal address and length mean equal content, so a hit is
// never wrong; a string stored elsewhere merely misses.
type seenNames struct {
	gen  uint32
	ents [256]seenName
}

type seenName struct {
	p   *byte
	len int32
	gen uint32
	n   int32
}

// reset forgets every entry; slots are numbered per file.
func (t *seenNames) reset() {
	t.gen++
	if t.gen == 0 { // wrapped: stale entries could carry the new generation
		t.ents = [256]seenName{}
		t.gen = 1
	}
}

func (t *seenNames) at(s string) *seenName {
	p := unsafe.StringData(s)
	return &t.ents[(uintptr(unsafe.Pointer(p))>>3^uintptr(len(s)))&255]
}

func (t *seenNames) get(s string) (int32, bool) {
	e := t.at(s)
	if e.gen == t.gen && e.p == unsafe.StringData(s) && int(e.len) == len(s) && s != "" {
		return e.n, true
	}
	return 0, false
}

func (t *seenNames) put(s string, n int32) {
	if len(s) > math.MaxInt32 {
		return
	}
	*t.at(s) = seenName{p: unsafe.StringData(s), len: int32(len(s)), gen: t.gen, n: n}
}

// resize returns a slice of length n, reusing s's array when it is large
// enough. The contents are unspecified.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// occurrencesSorted is slices.IsSortedFunc(o, cmpOccurrence) on packed
// positions: extractors emit references in file order, so this check runs
// on every group and the generic comparison was most of its cost.
func occurrencesSorted(o []Occurrence) bool {
	for i := 1; i < len(o); i++ {
		a, b := o[i-1].Pos, o[i].Pos
		if uint64(a.Line)<<32|uint64(a.Col) > uint64(b.Line)<<32|uint64(b.Col) {
			return false
		}
	}
	return true
}

func cmpOccurrence(a, b Occurrence) int {
	return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
}

// Delete removes every record of path; unknown paths are ignored.
func (w *Writer) Delete(path string) error {
	if err := w.settle(path); err != nil {
		return err
	}
	old, ok := w.s.Header(path)
	if !ok {
		return nil
	}
	if err := w.s.deleteRecords(w.b, old.ID); err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	w.b.Delete(idKey(prefixDetail, old.ID), nil)
	w.b.Delete(pathKey(path), nil)
	w.pending[path] = nil
	return w.maybeCommit()
}

// settle commits the batch if it already holds changes to path: deletion
// reads the committed records, so a second change to the same file in one
// batch would otherwise miss the first one's keys.
func (w *Writer) settle(path string) error {
	if _, ok := w.pending[path]; ok {
		return w.Commit()
	}
	return nil
}

// deleteRecords deletes the symbol, name-index and reference records of a
// file, reading the old names from its 'y' and 'n' records. A corrupt old
// record is deleted without its index keys, which at worst leaves stale
// index entries that queries skip because their file ID no longer resolves.
func (s *Store) deleteRecords(b *pebble.Batch, id uint32) error {
	symsKey := idKey(prefixSymbols, id)
	v, err := s.get(symsKey)
	if err != nil {
		return err
	}
	if v != nil {
		if syms, err := decodeSymbols(v); err == nil {
			for i := range syms {
				b.Delete(symNameKey(syms[i].Name, id, uint32(i)), nil)
			}
		}
		b.Delete(symsKey, nil)
	}
	namesKey := idKey(prefixNames, id)
	if v, err = s.get(namesKey); err != nil {
		return err
	}
	if v != nil {
		if names, err := decodeNames(v); err == nil {
			for _, n := range names {
				b.Delete(refKey(n, id), nil)
			}
		}
		b.Delete(namesKey, nil)
	}
	return nil
}

func (w *Writer) maybeCommit() error {
	if w.b.Len() < batchLimit {
		return nil
	}
	return w.Commit()
}

// Commit writes the batch and publishes the new headers to readers.
func (w *Writer) Commit() error {
	if len(w.pending) == 0 {
		return nil
	}
	if err := w.b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("commit index batch: %w", err)
	}
	s := w.s
	s.mu.Lock()
	for path, h := range w.pending {
		s.publishLocked(path, h)
	}
	s.mu.Unlock()
	w.b.Close()
	w.b = s.db.NewBatch()
	clear(w.pending)
	return nil
}

// publishLocked makes a committed header visible to readers; nil removes
// the path. Precondition: s.mu is held for writing.
func (s *Store) publishLocked(path string, h *FileHeader) {
	s.writeGen.Add(1)
	old, had := s.files[path]
	if had {
		delete(s.byID, old.ID)
		s.names.markDirty(old.ID)
	}
	if had != (h != nil) {
		s.pathGen.Add(1)
	}
	if h == nil {
		delete(s.files, path)
		return
	}
	s.files[path] = h
	s.byID[h.ID] = h
	s.names.markDirty(h.ID)
}

// Close commits outstanding changes and releases the batch.
func (w *Writer) Close() error {
	err := w.Commit()
	w.b.Close()
	return err
}

// Flush persists memtables to disk (there is no WAL, so unflushed data is
// lost at exit) and compacts when reads have become too amplified. Flushing
// an empty memtable writes nothing.
func (s *Store) Flush() error {
	if err := s.db.Flush(); err != nil {
		return err
	}
	return s.maybeCompact(context.Background())
}
