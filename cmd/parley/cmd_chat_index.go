package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/workspace"
)

// chatIndex keeps a chat's code index current while the chat runs: the
// files the agent writes are re-indexed right after the write (written,
// the DiskEditor's hook), and everything else changed under the root (by
// the user in another window, by a shell command) is seen through a
// watcher, as the language server sees it.
//
// Every run is an incremental Store.Index over the whole root: its change
// check (size and mtime against the stored headers) finds what changed
// without a list of paths, and it also notices what the watcher cannot
// (a change made while the watcher was being set up). Runs are
// serialised, since a Store takes one writer at a time.
type chatIndex struct {
	root string
	st   *index.Store
	opts index.Options
	warn func(error) // reports a failed run; the chat goes on
	// afterRun, when set (by tests), is called after every run.
	afterRun func(*index.Summary, error)

	ctx    context.Context // cancelled by close, stopping a run
	cancel context.CancelFunc
	mu     sync.Mutex // one run at a time
	watch  *workspace.Watcher
}

func newChatIndex(root string, st *index.Store, opts index.Options, warn func(error)) *chatIndex {
	ci := &chatIndex{root: root, st: st, opts: opts, warn: warn}
	ci.ctx, ci.cancel = context.WithCancel(context.Background())
	return ci
}

// start brings the index up to date with the initial run (the caller's,
// which shows progress) and, with watch, watches the root from before
// that run, so nothing changed meanwhile is missed. A watcher that cannot
// start is reported through warn; the chat goes on without it.
func (ci *chatIndex) start(watch bool, initial func() error) error {
	ci.mu.Lock()
	defer ci.mu.Unlock()
	if watch {
		if err := ci.startWatching(); err != nil {
			ci.warn(fmt.Errorf("%w; changes made outside this chat reach the index at the next start", err))
		}
	}
	return initial()
}

// startWatching watches the root; every batch of changes starts a run.
func (ci *chatIndex) startWatching() error {
	w, err := workspace.Watch(ci.root, workspace.WatchOptions{
		Walk: workspace.WalkOptions{Excludes: ci.opts.Excludes},
		OnBatch: func(workspace.WatchBatch) {
			if err := ci.refresh(ci.ctx); err != nil {
				ci.warn(err)
			}
		},
		OnError: ci.warn,
	})
	if err != nil {
		return err
	}
	ci.watch = w
	return nil
}

// refresh runs an incremental index run now, after the one in progress.
// A cancelled run is not an error: the next one catches up.
func (ci *chatIndex) refresh(ctx context.Context) error {
	ci.mu.Lock()
	defer ci.mu.Unlock()
	if ci.ctx.Err() != nil {
		return nil // closing
	}
	sum, err := ci.st.Index(ctx, ci.root, ci.opts)
	switch {
	case err != nil && ctx.Err() != nil:
		err = nil
	case limitError(err) != nil:
		err = fmt.Errorf("the code index may be out of date: %w", limitError(err))
	case err != nil:
		err = fmt.Errorf("the code index may be out of date: index %s: %w", ci.root, err)
	}
	if ci.afterRun != nil {
		ci.afterRun(sum, err)
	}
	return err
}

// written is the DiskEditor's hook: the agent's edit is in the index
// before its tool call returns.
func (ci *chatIndex) written(ctx context.Context, _ []string) {
	if err := ci.refresh(ctx); err != nil {
		ci.warn(err)
	}
}

// close stops the watcher and any run; the store stays open (its owner
// closes it).
func (ci *chatIndex) close() error {
	ci.cancel()
	if ci.watch != nil {
		return ci.watch.Close()
	}
	return nil
}

// openLiveIndex opens root's index in storeDir, brings it up to date
// (showing progress on stderr) and keeps it current (chatIndex): edits
// through live.written, other changes through a watcher unless watch is
// false. The index is optional: when it cannot be opened (another process
// holds it) st is nil and the caller goes on without it. closers release
// what was opened, in order.
func openLiveIndex(g *globals, root, storeDir string, watch bool, warn func(error)) (st *index.Store, live *chatIndex, closers []func() error) {
	st, err := nav.Open(storeDir)
	if err != nil {
		fmt.Fprintf(g.stderr, "parley: continuing without the code index: %v\n", err)
		return nil, nil, nil
	}
	// Later runs keep the initial run's file limit.
	live = newChatIndex(root, st, index.Options{MaxFiles: g.indexLimit()}, warn)
	closers = []func() error{st.Close, live.close}
	ctx, stop := signalContext()
	defer stop()
	err = live.start(watch, func() error {
		_, err := runIndex(ctx, g, st, root, index.Options{}, true)
		return err
	})
	if err != nil {
		fmt.Fprintf(g.stderr, "parley: the code index may be out of date: %v\n", err)
	}
	return st, live, closers
}
