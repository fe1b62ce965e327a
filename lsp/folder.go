package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// folder is one workspace folder: its root, its index store and the state
// of the work that keeps the store current.
type folder struct {
	root  string // absolute, symlink-free
	uri   uri.URI
	store *index.Store
	// private is the temporary directory of a store the server created
	// because the shared one was held by another process; removed on close.
	private string

	// reindex asks the folder's indexing loop for an incremental run.
	reindex chan struct{}
	// ctx scopes the folder's goroutines (wg); cancel stops them.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// slot admits one query-time resolution at a time (slot.go).
	slot resolveSlot

	// overLimit warns, once per session, that the folder has more files
	// than Options.Index.MaxFiles (see indexing.go).
	overLimit sync.Once

	mu       sync.Mutex
	indexing bool
	progress index.Progress
	runs     int       // completed runs
	lastRun  time.Time // end of the last completed run
	lastErr  string
	// Updater state (update.go): the buffer generation wanted in the
	// store for each open document, the generation stored, and how to
	// cancel a write in flight.
	gen      uint64
	want     map[string]uint64
	wantAt   map[string]time.Time // when want was last raised, for latency stats
	stored   map[string]uint64
	inflight map[string]context.CancelFunc
	wake     chan struct{}
	changed  chan struct{} // closed and replaced whenever stored changes
}

// openFolder opens (or creates) root's store. When another process holds
// it (a second editor on the same project), the folder gets a private
// store in a temporary directory instead of no index at all.
func openFolder(root string, storeDir func(string) (string, error), log *logSink) (*folder, error) {
	f := &folder{
		root:     root,
		uri:      uri.File(root),
		reindex:  make(chan struct{}, 1),
		want:     map[string]uint64{},
		wantAt:   map[string]time.Time{},
		stored:   map[string]uint64{},
		inflight: map[string]context.CancelFunc{},
		wake:     make(chan struct{}, 1),
		changed:  make(chan struct{}),
	}
	dir, err := storeDir(root)
	if err != nil {
		return nil, err
	}
	f.store, err = nav.Open(dir)
	if errors.Is(err, index.ErrLocked) {
		tmp, terr := os.MkdirTemp("", "parley-index-")
		if terr != nil {
			return nil, fmt.Errorf("%w (and no temporary store: %v)", err, terr)
		}
		log.Warnf("%v; using a private temporary index for %s", err, root)
		f.private = tmp
		f.store, err = nav.Open(filepath.Join(tmp, "index"))
	}
	if err != nil {
		if f.private != "" {
			os.RemoveAll(f.private)
		}
		return nil, fmt.Errorf("open index of %s: %w", root, err)
	}
	if f.store.Rebuilt != "" {
		log.Infof("index of %s rebuilt: %s", root, f.store.Rebuilt)
	}
	return f, nil
}

func (f *folder) close(log *logSink) {
	if err := f.store.Close(); err != nil {
		log.Errorf("close index of %s: %v", f.root, err)
	}
	if f.private != "" {
		os.RemoveAll(f.private)
	}
}

// rel returns abs relative to the folder root, slash-separated, and
// whether abs lies inside it.
func (f *folder) rel(abs string) (string, bool) {
	r, err := filepath.Rel(f.root, abs)
	if err != nil || r == ".." || len(r) > 2 && r[:3] == ".."+string(filepath.Separator) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// requestReindex asks for an incremental run; requests made while one is
// pending coalesce.
func (f *folder) requestReindex() {
	select {
	case f.reindex <- struct{}{}:
	default:
	}
}

func (f *folder) setErr(err error) {
	f.mu.Lock()
	if err == nil {
		f.lastErr = ""
	} else {
		f.lastErr = err.Error()
	}
	f.mu.Unlock()
}
