package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultWatchDelay is how long a Watcher gathers events before it
// reports them, when WatchOptions.Delay is 0: long enough to turn a save
// (write, rename, chmod) or a git checkout into one batch, short enough
// that the index catches up before the user's next question.
const DefaultWatchDelay = 100 * time.Millisecond

// WatchOp says what happened to a path within a batch.
type WatchOp uint8

const (
	WatchChanged WatchOp = iota // written
	WatchCreated                // created, or moved here
	WatchRemoved                // removed, or moved away
)

var watchOpNames = [...]string{"changed", "created", "removed"}

func (o WatchOp) String() string { return watchOpNames[o] }

// WatchEvent is the net change of one path within a batch.
type WatchEvent struct {
	Abs string // Root joined with Rel
	Rel string // slash-separated, relative to the root
	Op  WatchOp
}

// WatchBatch is what a Watcher reports after a quiet period.
type WatchBatch struct {
	// Events holds one event per path, sorted by Rel. Paths the walk rules
	// exclude never appear.
	Events []WatchEvent
	// Overflow says the operating system dropped events: anything under
	// the root may have changed, so a full (incremental) rescan is due.
	Overflow bool
}

// WatchOptions configure Watch.
type WatchOptions struct {
	// Walk holds the rules that decide what belongs to the workspace
	// (Excludes, NoBuiltinExcludes), the same as the index's walk: an
	// excluded directory is not watched and an excluded path not reported.
	Walk WalkOptions
	// Delay is how long events gather before a batch is reported, counted
	// from the first event of the batch (0: DefaultWatchDelay).
	Delay time.Duration
	// OnBatch receives the batches; required. It runs on the watcher's own
	// goroutine, one batch at a time; events that arrive meanwhile gather
	// into the next batch. It must not call Close.
	OnBatch func(WatchBatch)
	// OnError, if set, receives problems that do not stop the watcher: an
	// error from the operating system, or a directory that could not be
	// watched (the inotify limit). Called from the watcher's goroutines.
	OnError func(error)
}

// Watcher watches the directory tree of a workspace root with fsnotify and
// reports changed paths in debounced batches. New directories are watched
// as they appear, and the files already in them are reported as created
// (they may have been written before the watch was in place). When an
// ignore file changes, the tree is walked again so that directories it no
// longer excludes are watched too. Symlinks are not followed, as in Walk.
//
// Contracts: whoever calls Watch must call Close, which stops the
// goroutines and waits for a running OnBatch to return; no callback runs
// after Close returns. Close is safe to call more than once and from any
// goroutine except OnBatch's. Events still gathering when Close is called
// are dropped.
type Watcher struct {
	root string // absolute, as given (like Entry.Abs)
	opts WatchOptions
	fsw  *fsnotify.Watcher

	ctx    context.Context // cancelled by Close; stops a running walk
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// ready holds the batch waiting for OnBatch; kick says it is there.
	mu    sync.Mutex
	ready batchBuilder
	kick  chan struct{}

	closeOnce sync.Once
	closeErr  error
}

// Watch starts watching root. The tree is in place when Watch returns, so
// every change made after that is reported.
func Watch(root string, opts WatchOptions) (*Watcher, error) {
	if opts.OnBatch == nil {
		return nil, errors.New("watch: OnBatch is required")
	}
	if opts.Delay <= 0 {
		opts.Delay = DefaultWatchDelay
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	w := &Watcher{root: abs, opts: opts, fsw: fsw, kick: make(chan struct{}, 1)}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	if err := w.addTree("", nil); err != nil {
		w.cancel()
		fsw.Close()
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	w.wg.Add(2)
	go w.collect()
	go w.deliver()
	return w, nil
}

// Dirs is the number of directories watched now.
func (w *Watcher) Dirs() int { return len(w.fsw.WatchList()) }

// Close stops watching and waits for the goroutines (and a running
// OnBatch) to finish.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		w.cancel()
		w.closeErr = w.fsw.Close()
		w.wg.Wait()
	})
	return w.closeErr
}

// collect reads fsnotify's channels, gathers a batch for Delay after its
// first event, then hands it to deliver.
func (w *Watcher) collect() {
	defer w.wg.Done()
	var pending batchBuilder
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	armed := false
	arm := func() {
		if !armed && !pending.empty() {
			timer.Reset(w.opts.Delay)
			armed = true
		}
	}
	for {
		select {
		case <-w.ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.event(ev, &pending)
			arm()
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				pending.overflow = true
				arm()
			} else {
				w.report(err)
			}
		case <-timer.C:
			armed = false
			w.mu.Lock()
			w.ready.merge(&pending)
			w.mu.Unlock()
			pending = batchBuilder{}
			select {
			case w.kick <- struct{}{}:
			default:
			}
		}
	}
}

// deliver calls OnBatch with each batch collect hands over.
func (w *Watcher) deliver() {
	defer w.wg.Done()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-w.kick:
		}
		w.mu.Lock()
		b := w.ready.batch()
		w.ready = batchBuilder{}
		w.mu.Unlock()
		// Paths are checked here, once per path of the batch rather than
		// once per event (a checkout writes each file several times), each
		// directory's ignore files read once.
		if ds, err := newDirStacks(w.root, w.opts.Walk); err == nil {
			b.Events = slices.DeleteFunc(b.Events, func(ev WatchEvent) bool { return ds.ignored(ev.Rel, false) })
		}
		if w.ctx.Err() != nil {
			return
		}
		if len(b.Events) > 0 || b.Overflow {
			w.opts.OnBatch(b)
		}
	}
}

// event adds one fsnotify event to pending, watching a new directory's
// tree and walking the whole tree again after an ignore file changed.
func (w *Watcher) event(ev fsnotify.Event, pending *batchBuilder) {
	rel, ok := w.rel(ev.Name)
	if !ok {
		return
	}
	var op WatchOp
	switch {
	case ev.Has(fsnotify.Create):
		op = WatchCreated
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		op = WatchRemoved
	case ev.Has(fsnotify.Write):
		op = WatchChanged
	default:
		return // chmod: the content is the same
	}
	if op == WatchCreated {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if ignored, err := Ignored(w.root, rel, true, w.opts.Walk); err != nil || ignored {
				return
			}
			pending.add(ev.Name, rel, op)
			w.addTreeReporting(rel, pending)
			return
		}
	}
	pending.add(ev.Name, rel, op)
	if slices.Contains(ignoreFileNames[:], filepath.Base(ev.Name)) {
		// Directories the old rules excluded may be in now (fsnotify's Add
		// is a no-op for those already watched).
		w.addTreeReporting("", nil)
	}
}

func (w *Watcher) addTreeReporting(rel string, pending *batchBuilder) {
	if err := w.addTree(rel, pending); err != nil && w.ctx.Err() == nil {
		w.report(err)
	}
}

// rel returns abs relative to the root, slash-separated.
func (w *Watcher) rel(abs string) (string, bool) {
	r, err := filepath.Rel(w.root, abs)
	if err != nil || r == "." || !filepath.IsLocal(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// addTree watches the directory rel and every directory below it that the
// walk rules include. With pending set, the files found are added to it as
// created. Running out of inotify watches keeps what was added and is
// reported to OnError; unreadable directories are skipped. The error is
// the walk's (the root is not a directory, or Close was called).
func (w *Watcher) addTree(rel string, pending *batchBuilder) error {
	var files func(Entry) error
	if pending != nil {
		files = func(e Entry) error {
			pending.add(e.Abs, e.Rel, WatchCreated)
			return nil
		}
	}
	var full error
	err := walkTree(w.ctx, w.root, rel, w.opts.Walk, func(abs, _ string) error {
		if full != nil {
			return nil
		}
		if err := w.fsw.Add(abs); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				full = fmt.Errorf("watch %s: %w; changes below it and further directories are not seen (raise fs.inotify.max_user_watches)", abs, err)
			}
			return nil // vanished or unreadable: nothing to watch there
		}
		return nil
	}, files)
	if full != nil {
		w.report(full)
	}
	return err
}

func (w *Watcher) report(err error) {
	if w.opts.OnError != nil {
		w.opts.OnError(err)
	}
}

// batchBuilder merges events per path.
type batchBuilder struct {
	events   map[string]WatchEvent // by Rel
	overflow bool
}

func (b *batchBuilder) empty() bool { return len(b.events) == 0 && !b.overflow }

// add records op for a path, merged with what the batch holds for it: a
// file created and then written is still created; one removed and
// created again (a save by rename) has changed.
func (b *batchBuilder) add(abs, rel string, op WatchOp) {
	if b.events == nil {
		b.events = map[string]WatchEvent{}
	}
	if prev, ok := b.events[rel]; ok {
		switch {
		case prev.Op == WatchCreated && op == WatchChanged:
			op = WatchCreated
		case prev.Op == WatchRemoved && op == WatchCreated:
			op = WatchChanged
		}
	}
	b.events[rel] = WatchEvent{Abs: abs, Rel: rel, Op: op}
}

func (b *batchBuilder) merge(o *batchBuilder) {
	for _, ev := range o.events {
		b.add(ev.Abs, ev.Rel, ev.Op)
	}
	b.overflow = b.overflow || o.overflow
}

func (b *batchBuilder) batch() WatchBatch {
	out := WatchBatch{Overflow: b.overflow, Events: make([]WatchEvent, 0, len(b.events))}
	for _, ev := range b.events {
		out.Events = append(out.Events, ev)
	}
	slices.SortFunc(out.Events, func(x, y WatchEvent) int { return strings.Compare(x.Rel, y.Rel) })
	return out
}
