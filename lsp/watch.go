package lsp

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.lsp.dev/protocol"
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

// watchFolder watches f's directory tree with fsnotify until the folder
// is removed. A no-op when the client watches for us or watching is off.
func (s *Server) watchFolder(f *folder) {
	if s.caps.dynamicWatchedFiles || s.opts.NoWatch {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.log.Warnf("watch %s: %v; file changes outside the editor are seen at the next restart", f.root, err)
		return
	}
	n := addTree(w, f.root)
	s.log.Debugf("watching %d directories under %s", n, f.root)
	f.wg.Add(1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		defer w.Close()
		for {
			select {
			case <-f.ctx.Done():
				return
			case err := <-w.Errors:
				s.log.Warnf("watch %s: %v", f.root, err)
			case ev := <-w.Events:
				s.watchEvent(w, ev)
			}
		}
	}()
}

func (s *Server) watchEvent(w *fsnotify.Watcher, ev fsnotify.Event) {
	m := modification{kind: modChanged, abs: ev.Name}
	switch {
	case ev.Has(fsnotify.Create):
		m.kind = modCreated
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && !skipWatchDir(filepath.Base(ev.Name)) {
			addTree(w, ev.Name)
		}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		m.kind = modDeleted
	case ev.Has(fsnotify.Write):
	default:
		return // chmod
	}
	s.modify(m)
}

// addTree watches dir and its subdirectories, except version-control and
// dependency directories; it returns how many directories it added.
func addTree(w *fsnotify.Watcher, dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && skipWatchDir(d.Name()) {
			return filepath.SkipDir
		}
		if err := w.Add(p); err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return filepath.SkipDir
			}
			return filepath.SkipAll // out of inotify watches: keep what we have
		}
		n++
		return nil
	})
	return n
}

func skipWatchDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__"
}
