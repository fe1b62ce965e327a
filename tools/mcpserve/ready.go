package mcpserve

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultIndexWait bounds how long an index tool waits for the first
// index run before answering that indexing is under way: well inside the
// usual client call timeouts (60 s and more).
const DefaultIndexWait = 20 * time.Second

// Readiness tracks the first index run, which `parley mcp` does in the
// background so that it answers clients at once. Until Done, the index
// tools wait for it (a bounded time) and then say how far it got. Safe for
// concurrent use.
type Readiness struct {
	mu         sync.Mutex
	done       chan struct{}
	ended      bool
	files, all int
}

// NewReadiness returns a Readiness whose run is under way.
func NewReadiness() *Readiness { return &Readiness{done: make(chan struct{})} }

// Progress records that done of total files are indexed.
func (r *Readiness) Progress(done, total int) {
	r.mu.Lock()
	r.files, r.all = done, total
	r.mu.Unlock()
}

// Done records that the first run ended (also when it failed: the tools
// then answer from what was indexed).
func (r *Readiness) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		r.ended = true
		close(r.done)
	}
}

// wait waits for the first run until ctx ends; it returns "" once the
// run is over, or how far it got.
func (r *Readiness) wait(ctx context.Context) string {
	if r == nil {
		return ""
	}
	select {
	case <-r.done:
		return ""
	case <-ctx.Done():
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return ""
	}
	if r.all > 0 {
		return fmt.Sprintf("indexing, %d of %d files so far", r.files, r.all)
	}
	return "indexing, listing the workspace's files"
}
