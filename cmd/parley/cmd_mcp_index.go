package main

import (
	"fmt"
	"sync"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/tools/mcpserve"
)

// openMCPIndex opens root's index for parley mcp and keeps it current as
// openLiveIndex does, but brings it up to date in the background: the
// server answers clients at once, and its index tools wait for ready
// (mcpserve.Readiness) a bounded time. st is nil when another process
// holds the index. closers, called last first, stop the run and release
// the store.
func openMCPIndex(g *globals, root, storeDir string, watch bool, warn func(error)) (st *index.Store, live *chatIndex, ready *mcpserve.Readiness, closers []func() error) {
	st, err := nav.Open(storeDir)
	if err != nil {
		fmt.Fprintf(g.stderr, "parley: continuing without the code index: %v\n", err)
		return nil, nil, nil, nil
	}
	ready = mcpserve.NewReadiness()
	live = newChatIndex(root, st, index.Options{}, warn)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer ready.Done()
		err := live.start(watch, func() error {
			opts := index.Options{Progress: func(p index.Progress) { ready.Progress(p.Done, p.Total) }}
			_, err := st.Index(live.ctx, root, opts)
			return err
		})
		if err != nil && live.ctx.Err() == nil {
			warn(fmt.Errorf("the code index may be out of date: index %s: %w", root, err))
		}
	})
	// Called last first: the run ends (cancelled by live.close) before the
	// store closes.
	closers = []func() error{st.Close, func() error { wg.Wait(); return nil }, live.close}
	return st, live, ready, closers
}
