package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/workspace"
)

// addFolder opens root's store and makes it visible to requests. Its
// background work starts with startFolder. It returns nil, without error,
// for a folder that is already served.
func (s *Server) addFolder(root string) (*folder, error) {
	s.mu.RLock()
	for _, f := range s.folders {
		if f.root == root {
			s.mu.RUnlock()
			return nil, nil
		}
	}
	s.mu.RUnlock()
	f, err := openFolder(root, s.opts.StoreDir, s.log)
	if err != nil {
		return nil, err
	}
	f.ctx, f.cancel = context.WithCancel(s.bg)
	s.mu.Lock()
	s.folders = append(s.folders, f)
	// Longest root first, so nested folders win lookups.
	slices.SortFunc(s.folders, func(a, b *folder) int { return len(b.root) - len(a.root) })
	s.rebuildRootsLocked()
	s.mu.Unlock()
	s.log.Infof("serving %s", root)
	return f, nil
}

// removeFolder stops root's background work and closes its store.
func (s *Server) removeFolder(root string) {
	s.mu.Lock()
	i := slices.IndexFunc(s.folders, func(f *folder) bool { return f.root == root })
	if i < 0 {
		s.mu.Unlock()
		return
	}
	f := s.folders[i]
	s.folders = slices.Delete(s.folders, i, i+1)
	s.rebuildRootsLocked()
	s.mu.Unlock()
	s.maps.Delete(f)
	f.cancel()
	f.wg.Wait()
	f.close(s.log)
	s.log.Infof("stopped serving %s", root)
}

func (s *Server) rebuildRootsLocked() {
	paths := make([]string, len(s.folders))
	for i, f := range s.folders {
		paths[i] = f.root
	}
	s.roots = nil
	if len(paths) > 0 {
		if r, err := workspace.NewRoots(paths...); err == nil {
			s.roots = r
		} else {
			s.log.Errorf("workspace roots: %v", err)
		}
	}
}

// startFolder starts the folder's indexing loop and document updater.
func (s *Server) startFolder(f *folder) {
	f.wg.Add(2)
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		s.indexLoop(f)
	}()
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		s.updateLoop(f)
	}()
}

// folderOf returns the folder containing abs (an absolute, clean path).
func (s *Server) folderOf(abs string) (*folder, string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, f := range s.folders {
		if abs == f.root || strings.HasPrefix(abs, f.root+string(filepath.Separator)) {
			rel, ok := f.rel(abs)
			return f, rel, ok
		}
	}
	return nil, "", false
}

// allFolders snapshots the folder list.
func (s *Server) allFolders() []*folder {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.folders)
}

func (s *Server) DidChangeWorkspaceFolders(ctx context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	for _, wf := range p.Event.Removed {
		root, err := folderPath(wf.URI)
		if err != nil {
			s.log.Warnf("%v", err)
			continue
		}
		s.removeFolder(root)
	}
	for _, wf := range p.Event.Added {
		root, err := folderPath(wf.URI)
		if err != nil {
			s.log.Warnf("%v", err)
			continue
		}
		f, err := s.addFolder(root)
		if err != nil {
			s.log.Errorf("workspace folder %s: %v", root, err)
			continue
		}
		if f != nil {
			s.startFolder(f)
			s.watchFolder(f)
		}
	}
	return nil
}
