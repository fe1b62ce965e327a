package index

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/parleyhq/parley/workspace"
)

// Planning runs beside extraction. The walk of GOROOT/src takes ~50 ms on
// one core; waiting for it before extracting anything left the other core
// idle for that long, a few percent of a cold index. So the walk runs on its
// own goroutine and hands each file that needs work to the extraction loop
// through a workQueue as soon as it is found. File IDs are still reserved
// in walk order, one at a time on the walking goroutine, so the store is
// the same as when the whole walk came first.

// job is one file that needs work, with the ID its records get.
type job struct {
	entry workspace.Entry
	id    uint32
}

// workQueue is an unbounded FIFO from the walk to the extraction loop: the
// walk never waits for extraction, so the totals are known as early as
// possible (progress reports them). One producer, one consumer.
type workQueue struct {
	mu    sync.Mutex
	jobs  []job
	head  int
	ready chan struct{} // signalled on push and close; capacity 1
	done  chan struct{} // closed when the walk ended
	// Set before done is closed; read only after it is.
	err         error
	total       int
	totalBytes  int64
	unchanged   int
	skips       []Skipped
	seen        map[string]struct{}
	callerKeeps func(string) bool // Options.Skip
}

func newWorkQueue() *workQueue {
	return &workQueue{ready: make(chan struct{}, 1), done: make(chan struct{})}
}

func (q *workQueue) push(j job) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	q.mu.Unlock()
	q.signal()
}

func (q *workQueue) signal() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// close ends the queue; err is the walk's error, if any.
func (q *workQueue) close(err error) {
	q.err = err
	close(q.done)
	q.signal()
}

// next returns the next job, waiting for the walk to find one. ok is false
// once the walk ended and every job was handed out, or when ctx is done.
func (q *workQueue) next(ctx context.Context) (j job, ok bool) {
	for {
		q.mu.Lock()
		if q.head < len(q.jobs) {
			j = q.jobs[q.head]
			q.jobs[q.head] = job{} // drop the strings
			q.head++
			q.mu.Unlock()
			return j, true
		}
		q.mu.Unlock()
		select {
		case <-q.done:
			q.mu.Lock()
			more := q.head < len(q.jobs)
			q.mu.Unlock()
			if !more {
				return job{}, false
			}
		case <-q.ready:
		case <-ctx.Done():
			return job{}, false
		}
	}
}

// walk lists the workspace at root into q and closes it. A file needs work
// when the store does not have it at its size and modification time (or an
// opt-in language was turned on or off since it was indexed). Known files
// keep their IDs; new ones get the next free IDs in walk order.
func (s *Store) walk(ctx context.Context, root string, opts *Options, q *workQueue) {
	q.seen = map[string]struct{}{}
	q.callerKeeps = opts.Skip
	err := workspace.Walk(ctx, root, workspace.WalkOptions{MaxFileSize: opts.MaxFileSize, Excludes: opts.Excludes},
		func(e workspace.Entry) error {
			q.seen[e.Rel] = struct{}{}
			if opts.MaxFiles > 0 && len(q.seen) == opts.MaxFiles+1 {
				if opts.OverLimit == nil {
					return &TooManyFilesError{Root: root, Limit: opts.MaxFiles}
				}
				opts.OverLimit(opts.MaxFiles)
			}
			if opts.Skip != nil && opts.Skip(e.Rel) {
				return nil
			}
			h, known := s.Header(e.Rel)
			if known && h.Size == e.Size && h.ModTime == e.ModTime && !optInFlipped(&h, opts) {
				q.unchanged++
				return nil
			}
			id := h.ID
			if !known {
				id = s.reserveIDs(1)
			}
			q.total++
			q.totalBytes += e.Size
			q.push(job{entry: e, id: id})
			return nil
		},
		func(sk workspace.Skip) { q.skips = append(q.skips, Skipped{Path: sk.Rel, Reason: sk.Reason}) })
	q.close(err)
}

// TooManyFilesError stops a run whose walk listed more than
// Options.MaxFiles files.
type TooManyFilesError struct {
	Root  string
	Limit int
}

func (e *TooManyFilesError) Error() string {
	return fmt.Sprintf("%s has more than %d files", e.Root, e.Limit)
}

// removed lists the stored paths the finished walk did not find, except
// those the caller keeps current itself. Files published since the walk
// started were all found by it.
func (s *Store) removed(q *workQueue) []string {
	var out []string
	s.mu.RLock()
	for path := range s.files {
		if _, ok := q.seen[path]; !ok && (q.callerKeeps == nil || !q.callerKeeps(path)) {
			out = append(out, path)
		}
	}
	s.mu.RUnlock()
	sort.Strings(out)
	return out
}
