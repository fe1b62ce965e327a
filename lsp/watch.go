package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/workspace"
)

// startWatching asks the client to watch the workspace when it supports
// dynamic registration of watched files; otherwise the server watches
// each folder itself. Registration is a call to the client, so it must
// not run on the read goroutine (Initialized's).
func (s *Server) startWatching() {
	if s.caps.dynamicWatchedFiles {
		s.goBg(func(ctx context.Context) {
			opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
				Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/*")}},
			})
			if err == nil {
				ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				err = s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
					ID: "parley-watched-files", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
				}}})
			}
			if err != nil {
				s.log.Warnf("register watched files: %v; watching the folders myself", err)
				s.watchAll()
			}
		})
		return
	}
	s.watchAll()
}

func (s *Server) watchAll() {
	for _, f := range s.allFolders() {
		s.watchFolder(f)
	}
}

// watchFolder watches f's directory tree (workspace.Watch, with the
// index's walk rules) until the folder is removed. A no-op when the client
// watches for us or watching is off.
func (s *Server) watchFolder(f *folder) {
	if s.caps.dynamicWatchedFiles || s.opts.NoWatch {
		return
	}
	w, err := workspace.Watch(f.root, workspace.WatchOptions{
		Walk:    workspace.WalkOptions{Excludes: s.opts.Index.Excludes},
		OnBatch: func(b workspace.WatchBatch) { s.watchBatch(f, b) },
		OnError: func(err error) { s.log.Warnf("watch %s: %v", f.root, err) },
	})
	if err != nil {
		s.log.Warnf("%v; file changes outside the editor are seen at the next restart", err)
		return
	}
	s.log.Debugf("watching %d directories under %s", w.Dirs(), f.root)
	f.wg.Add(1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		<-f.ctx.Done()
		w.Close()
	}()
}

// watchBatch turns a batch of disk changes into modifications. When the
// system dropped events, the next incremental run finds what changed.
func (s *Server) watchBatch(f *folder, b workspace.WatchBatch) {
	if b.Overflow {
		s.files.clear()
		f.requestReindex()
	}
	mods := make([]modification, len(b.Events))
	for i, ev := range b.Events {
		m := modification{kind: modChanged, abs: ev.Abs}
		switch ev.Op {
		case workspace.WatchCreated:
			m.kind = modCreated
		case workspace.WatchRemoved:
			m.kind = modDeleted
		}
		mods[i] = m
	}
	s.modify(mods...)
}
