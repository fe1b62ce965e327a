package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sourcegraph/conc/pool"

	"github.com/parleyhq/parley/index/extract"
	// C, C++, Python, Java, Rust, TypeScript and JavaScript files are
	// extracted by hand-written scanners, registered by their inits;
	// tree-sitter extracts only the files they decline.
	_ "github.com/parleyhq/parley/index/extract/cppscan"
	_ "github.com/parleyhq/parley/index/extract/cscan"
	_ "github.com/parleyhq/parley/index/extract/javascan"
	_ "github.com/parleyhq/parley/index/extract/pyscan"
	_ "github.com/parleyhq/parley/index/extract/rustscan"
	_ "github.com/parleyhq/parley/index/extract/tsscan"
	"github.com/parleyhq/parley/workspace"
)

// Options configure an indexing run.
type Options struct {
	// MaxFileSize: larger files are listed but not read; 0 means 1 MiB.
	MaxFileSize int64
	// Excludes are extra gitignore-style patterns relative to the root.
	Excludes []string
	// Workers bounds parallel extraction; 0 means GOMAXPROCS.
	Workers int
	// Budget is the per-file parse budget; 0 scales it with the file size
	// (extract.BudgetFor).
	Budget time.Duration
	// Progress, if set, is called after each file from a single goroutine.
	Progress func(Progress)
	// EnableLanguages turns on extractors that are off by default (see
	// OptInLanguages).
	EnableLanguages []string
	// Skip, if set, names paths the caller keeps current itself with
	// PutContent (an editor's open documents): the run neither re-extracts
	// nor removes them. Never called concurrently.
	Skip func(rel string) bool
	// MaxFiles bounds how many files the walk may list (changed or not;
	// ignored files do not count); 0 means no limit. It guards against a
	// root that is far bigger than meant (a home directory). A walk that
	// lists more stops the run with a *TooManyFilesError, unless
	// OverLimit is set.
	MaxFiles int
	// OverLimit, if set, is called once per run, from the walk, when the
	// walk lists file MaxFiles+1; the run then goes on.
	OverLimit func(limit int)
}

// OptInLanguages are extracted only when Options.EnableLanguages names
// them, with the reason they are off by default. gotreesitter v0.24's
// Swift grammar takes about 9 s of CPU and 1.2 GB of memory to load, which
// would blow the memory budget of indexing any repository that merely
// contains a Swift file.
var OptInLanguages = map[string]string{
	"swift": "grammar load costs ~9 s and ~1.2 GB",
}

func (o *Options) enabled(lang string) bool {
	if _, optIn := OptInLanguages[lang]; !optIn {
		return true
	}
	return slices.Contains(o.EnableLanguages, lang)
}

// flushEvery bounds how much indexing work a killed process can lose: the
// store has no WAL, so only flushed memtables survive. A variable so tests
// can force frequent flushes.
var flushEvery = 30 * time.Second

// Progress reports how far a run has got. Total and TotalBytes count the
// files that need work this run (changed or new), not the whole workspace.
type Progress struct {
	Done, Total           int
	DoneBytes, TotalBytes int64
	Path                  string
	Elapsed               time.Duration
}

// Skipped names a file that was listed but not (fully) indexed.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Summary describes the store after a run. Files counts every listed
// file; Bytes only those that were read (not skipped).
type Summary struct {
	Files   int   `json:"files"`
	Bytes   int64 `json:"bytes"`
	Symbols int64 `json:"symbols"`
	Refs    int64 `json:"refs"`
	// Changed files were (re)indexed this run; Unchanged were skipped by the
	// size+mtime or hash check; Removed were deleted from the store.
	Changed   int       `json:"changed"`
	Unchanged int       `json:"unchanged"`
	Removed   int       `json:"removed"`
	Skipped   []Skipped `json:"skipped"`
	Partial   []Skipped `json:"partial"`
	Seconds   float64   `json:"seconds"`
	// Rebuilt says why the store was discarded and rebuilt, if it was.
	Rebuilt string `json:"rebuilt,omitempty"`
}

// Index brings the store up to date with the workspace at root: new and
// changed files are extracted, unchanged ones skipped, vanished ones removed.
// A cancelled ctx stops the run; everything committed so far stays valid and
// the next run picks up the rest.
func (s *Store) Index(ctx context.Context, root string, opts Options) (*Summary, error) {
	start := time.Now()
	// An opt-in grammar's resident cost is far above the soft limit, under
	// which the collector would run continuously.
	defer tuneGC(len(opts.EnableLanguages) == 0)()
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	q := newWorkQueue()
	go func() {
		if s.walk(ctx, root, &opts, q); q.err != nil {
			cancel()
		}
	}()
	changed, runErr := s.extractAll(ctx, q, opts, start)
	<-q.done
	if q.err != nil {
		return nil, q.err
	}
	sum := &Summary{Rebuilt: s.Rebuilt, Changed: changed, Unchanged: q.unchanged}
	s.Rebuilt = "" // reported once
	if runErr == nil {
		// Only a finished walk says what is gone; the deletions touch no
		// file the run extracted.
		sum.Removed, runErr = s.removeAll(s.removed(q))
	}
	if err := s.Flush(); err != nil && runErr == nil {
		runErr = fmt.Errorf("flush index: %w", err)
	}
	if runErr != nil {
		return nil, runErr
	}
	if err := s.summarize(sum, q.skips); err != nil {
		return nil, err
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// removeAll deletes the files at paths from the store.
func (s *Store) removeAll(paths []string) (int, error) {
	w := s.NewWriter()
	for _, path := range paths {
		if err := w.Delete(path); err != nil {
			w.Close()
			return 0, err
		}
	}
	return len(paths), w.Close()
}

func optInFlipped(h *FileHeader, opts *Options) bool {
	if _, optIn := OptInLanguages[h.Lang]; !optIn {
		return false
	}
	return opts.enabled(h.Lang) == (h.Status == StatusSkipped)
}

// fileDone is one worker's outcome, handed to the collector.
type fileDone struct {
	entry  workspace.Entry
	header *FileHeader  // nil when ctx was cancelled first
	recs   *fileRecords // records for the bulk loader, or nil if committed
	err    error
}

// extractAll runs extraction on a bounded pool (conc) while the walk
// still fills q. Workers commit changed files themselves; one collector
// goroutine publishes headers, feeds new files to the bulk loader and
// reports progress. Results arrive in completion order: an ordered stream
// made every small file wait behind the largest one in flight, which left a
// core idle much of the time. File IDs are reserved by the walk, in walk
// order, so the store stays deterministic anyway.
func (s *Store) extractAll(ctx context.Context, q *workQueue, opts Options, start time.Time) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan fileDone, 2*opts.Workers)
	var prog Progress
	var firstErr error
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		prog, firstErr = s.collect(results, cancel, opts, start, q)
	}()
	p := pool.New().WithMaxGoroutines(opts.Workers)
	for {
		j, ok := q.next(ctx)
		if !ok {
			break
		}
		p.Go(func() {
			h, recs, err := s.indexFile(ctx, j.entry, j.id, opts)
			results <- fileDone{entry: j.entry, header: h, recs: recs, err: err}
		})
	}
	p.Wait()
	close(results)
	<-collected
	if firstErr != nil {
		return prog.Done, firstErr
	}
	return prog.Done, ctx.Err()
}

// collect consumes worker results until the channel closes. On the first
// error it cancels the run and keeps draining so workers never block.
// Results that arrive while the walk still runs are held and handled once
// it has ended, so every progress report carries the run's final totals;
// after that the small results channel keeps the workers only a few files
// ahead of the reports, so a cancel from a report stops the run promptly.
// A walk refused by the file limit drops the held results: new files
// reach the store only through them, so a refused run on an empty store
// leaves it empty, and a later query cannot answer from an arbitrary part
// of the refused tree.
func (s *Store) collect(results <-chan fileDone, cancel func(), opts Options, start time.Time, q *workQueue) (Progress, error) {
	c := &collector{s: s, cancel: cancel, opts: opts, start: start, lastFlush: time.Now(), bulk: s.newBulkLoader()}
	var held []fileDone
	walking := q.done
	for results != nil || walking != nil {
		in := results
		if walking != nil && len(held) >= maxHeld {
			in = nil // the workers wait for the walk, as before it overlapped
		}
		select {
		case <-walking:
			walking = nil
			c.prog.Total, c.prog.TotalBytes = q.total, q.totalBytes
			if tooMany := (*TooManyFilesError)(nil); errors.As(q.err, &tooMany) {
				c.fail(q.err) // handle skips everything from now on
			}
			for _, r := range held {
				c.handle(r)
			}
			held = nil
		case r, ok := <-in:
			switch {
			case !ok:
				results = nil
			case walking != nil:
				held = append(held, r)
				if testHookHeld != nil {
					testHookHeld(len(held))
				}
			default:
				c.handle(r)
			}
		}
	}
	if err := c.bulk.finish(); err != nil && c.err == nil {
		c.err = err
	}
	return c.prog, c.err
}

// maxHeld bounds the results collect holds while the walk runs (GOROOT/src's
// ~50 ms walk sees ~300 files done; a huge tree's long walk would
// otherwise hold every file's records).
var maxHeld = 1024 // a variable so tests can make the workers wait

// testHookHeld, when set by a test, is called by collect with the number
// of results it holds after holding one more.
var testHookHeld func(n int)

// collector is collect's state.
type collector struct {
	s         *Store
	cancel    func()
	opts      Options
	start     time.Time
	lastFlush time.Time
	bulk      *bulkLoader
	prog      Progress
	err       error // the first
}

func (c *collector) fail(err error) {
	if c.err == nil {
		c.err = err
	}
	c.cancel()
}

// handle publishes one file's result, or hands it to the bulk loader, and
// reports progress.
func (c *collector) handle(r fileDone) {
	switch {
	case r.err != nil:
		c.fail(r.err)
		return
	case c.err != nil || r.header == nil:
		return
	case r.recs != nil:
		if err := c.bulk.add(r.recs, r.header); err != nil {
			c.fail(err)
			return
		}
	default:
		c.s.mu.Lock()
		c.s.publishLocked(r.header.Path, r.header)
		c.s.mu.Unlock()
	}
	if time.Since(c.lastFlush) > flushEvery {
		c.s.db.AsyncFlush()
		c.lastFlush = time.Now()
	}
	c.prog.Done++
	c.prog.DoneBytes += r.entry.Size
	c.prog.Path = r.entry.Rel
	c.prog.Elapsed = time.Since(c.start)
	if c.opts.Progress != nil {
		c.opts.Progress(c.prog)
	}
}

// indexFile extracts one file. A file new to the store comes back as
// records for the bulk loader; a changed one is committed here in one batch
// that also deletes its old records, and only its header is returned. The
// header is nil when ctx was cancelled first. Only one goroutine handles a
// given path per run, so reading the old records here races with nothing.
func (s *Store) indexFile(ctx context.Context, e workspace.Entry, id uint32, opts Options) (*FileHeader, *fileRecords, error) {
	u, touch := s.prepare(ctx, e, opts)
	if u == nil {
		return nil, nil, nil
	}
	u.Header.ID = id
	_, exists := s.Header(e.Rel)
	if !exists {
		recs := newFileRecords(u.Result)
		h := encodeFile(recs, u)
		return &h, recs, nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	var h FileHeader
	if touch {
		h = u.Header
		b.Set(pathKey(h.Path), encodeHeader(&h), nil)
	} else {
		if err := s.deleteRecords(b, id); err != nil {
			return nil, nil, fmt.Errorf("replace %s: %w", e.Rel, err)
		}
		h = encodeFile(b, u)
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return nil, nil, fmt.Errorf("commit %s: %w", e.Rel, err)
	}
	return &h, nil, nil
}

// prepare reads and extracts one file. touch is set when only the header
// changed (same content, new mtime). It returns nil when ctx is done.
func (s *Store) prepare(ctx context.Context, e workspace.Entry, opts Options) (u *FileUpdate, touch bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	h := FileHeader{Path: e.Rel, Size: e.Size, ModTime: e.ModTime}
	u = &FileUpdate{Header: h}
	if limit := sizeLimit(e.Rel, opts.MaxFileSize); e.Size > limit {
		u.Header.Status = StatusSkipped
		u.Header.Lang = workspace.DetectLanguage(e.Rel, nil)
		u.Detail.Reason = fmt.Sprintf("too large: %d bytes > %d", e.Size, limit)
		return u, false
	}
	src, err := readFile(e.Abs, e.Size)
	if err != nil {
		u.Header.Status = StatusSkipped
		u.Detail.Reason = "unreadable: " + err.Error()
		return u, false
	}
	u.Header.Hash = xxhash.Sum64(src)
	if old, ok := s.Header(e.Rel); ok && old.Hash == u.Header.Hash && old.Hash != 0 && !optInFlipped(&old, &opts) {
		old.ModTime, old.Size = e.ModTime, e.Size
		return &FileUpdate{Header: old}, true
	}
	u.Header.Lines = countLines(src)
	u.Header.ASCII = isASCII(src)
	if workspace.IsBinary(src) {
		u.Header.Status = StatusSkipped
		u.Detail.Reason = "binary"
		return u, false
	}
	if !s.extractInto(ctx, u, src, opts) {
		return nil, false
	}
	return u, false
}

// extractInto fills u from the extractor for the file's language. It
// returns false when ctx was cancelled during extraction: the file must
// then not be recorded at all, or the next run would take the cancellation
// for the file's state and skip it as unchanged.
func (s *Store) extractInto(ctx context.Context, u *FileUpdate, src []byte, opts Options) bool {
	lang := workspace.DetectLanguage(u.Header.Path, head(src))
	u.Header.Lang = lang
	ex := extract.For(lang)
	if ex == nil {
		u.Header.Status = StatusText
		return true
	}
	if !opts.enabled(lang) {
		u.Header.Status = StatusSkipped
		u.Detail.Reason = fmt.Sprintf("%s extraction is off by default (%s); enable with --enable-lang %s", lang, OptInLanguages[lang], lang)
		return true
	}
	if avg, ok := minified(src); ok {
		u.Header.Status = StatusSkipped
		u.Detail.Reason = fmt.Sprintf("minified or generated: average line %d bytes", avg)
		return true
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = extract.BudgetFor(len(src))
	}
	res, err := ex.Extract(ctx, u.Header.Path, src, extract.Options{Budget: budget, Describe: s.describe})
	if ctx.Err() != nil {
		return false
	}
	if err != nil {
		u.Header.Status = StatusPartial
		u.Detail.Reason = err.Error()
		return true
	}
	u.Result = res
	u.Detail.Package = res.Package
	u.Detail.Imports = res.Imports
	u.Detail.Todos = res.Todos
	u.Detail.Operands = res.Operands
	u.Header.Build = res.Build
	if res.Partial != "" {
		u.Header.Status = StatusPartial
		u.Detail.Reason = res.Partial
	}
	return true
}

// tuneGC trades memory for speed during a run: extraction allocates many
// short-lived AST nodes, and the default GOGC=100 spent ~15% of cold
// indexing in the collector. A soft memory limit keeps the heap bounded;
// with GOGC=400 the heap grows to it, so it sets the run's peak RSS. At
// 768 MiB the peak was 650-800 MB for GOROOT/src and the Python standard
// library alike, though a collection left 120-215 MB (Go) and, once
// gotreesitter's arena pools are emptied after large files
// (extract.releaseTree), 165-180 MB (Python) live. At 300 MiB the peak is
// 370-380 MB, with the same CPU time for GOROOT/src (4.58 s against
// 4.60-4.69 s, 13 collections instead of 7) and 3% of the Python run in
// the collector. But C++'s parses keep more: on Boost's headers the live
// heap reached 337-354 MB, over a fixed 300 MiB limit, and the collector
// ran continuously (23% of the run, 40% more CPU than at 768 MiB), so the
// limit follows the live heap (followLiveHeap). Nothing changes when the
// user set GOMEMLIMIT or when !bounded. The returned func restores the
// settings.
func tuneGC(bounded bool) (restore func()) {
	oldLimit := debug.SetMemoryLimit(-1)
	if !bounded || oldLimit != math.MaxInt64 {
		return func() {}
	}
	oldPct := debug.SetGCPercent(400)
	debug.SetMemoryLimit(memoryFloor)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go followLiveHeap(stop, stopped)
	return func() {
		close(stop)
		<-stopped
		debug.SetGCPercent(oldPct)
		debug.SetMemoryLimit(oldLimit)
	}
}

// memoryFloor is the indexer's soft memory limit while the live heap is
// under two thirds of it.
const memoryFloor = 300 << 20

// followLiveHeap keeps the soft memory limit at memoryFloor or 1.5 times
// the live heap, whichever is more, until stop is closed: a fixed limit
// under the live heap makes the collector run back to back, while 1.5x
// leaves it half the live heap to allocate between cycles (GOGC=50) and
// bounds the peak. runtime/metrics reads the live heap without stopping
// the world; it changes once per collection, so polling every 50 ms lags a
// cycle at most.
func followLiveHeap(stop <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	limit := int64(memoryFloor)
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		metrics.Read(live)
		if live[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if want := max(memoryFloor, int64(live[0].Value.Uint64())*3/2); want != limit {
			debug.SetMemoryLimit(want)
			limit = want
		}
	}
}

func head(src []byte) []byte {
	if len(src) > 256 {
		return src[:256]
	}
	return src
}

// isASCII tests eight bytes at a time: it runs over every byte of every
// file, and the byte loop alone was ~1% of a cold index of GOROOT/src.
func isASCII(src []byte) bool {
	for len(src) >= 8 {
		if binary.LittleEndian.Uint64(src)&0x8080808080808080 != 0 {
			return false
		}
		src = src[8:]
	}
	for _, c := range src {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func countLines(src []byte) uint32 {
	n := bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return uint32(n)
}

// summarize fills the whole-store figures of sum.
func (s *Store) summarize(sum *Summary, walkSkips []Skipped) error {
	// Empty lists, not nil: JSON consumers get [] rather than null.
	sum.Skipped = append([]Skipped{}, walkSkips...)
	sum.Partial = []Skipped{}
	for _, h := range s.Files() {
		sum.Files++
		if h.Status != StatusSkipped {
			sum.Bytes += h.Size
		}
		sum.Symbols += int64(h.Symbols)
		sum.Refs += int64(h.Refs)
		if h.Status != StatusSkipped && h.Status != StatusPartial {
			continue
		}
		d, err := s.Detail(h.Path)
		if err != nil {
			return err
		}
		sk := Skipped{Path: h.Path, Reason: d.Reason}
		if h.Status == StatusSkipped {
			sum.Skipped = append(sum.Skipped, sk)
		} else {
			sum.Partial = append(sum.Partial, sk)
		}
	}
	sort.Slice(sum.Skipped, func(i, j int) bool { return sum.Skipped[i].Path < sum.Skipped[j].Path })
	return nil
}
