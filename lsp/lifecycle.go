package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/workspace"
)

// initOptions is what clients may pass as initializationOptions. null,
// {} and [] (an empty Lua table) are no options; [] also stands for {}
// in its object members (see luaObjects).
type initOptions struct {
	LogLevel string `json:"logLevel"`
	// EditConfirmation "annotations" says the client shows edits marked
	// needsConfirmation for the user to accept (the default, "ask", asks
	// with window/showMessageRequest instead).
	EditConfirmation string `json:"editConfirmation"`
	// Agent is a configuration layer for the agent, in the shape of
	// .parley/config.json.
	Agent json.RawMessage `json:"agent"`
	Index struct {
		Exclude         []string `json:"exclude"`
		MaxFileSize     int64    `json:"maxFileSize"`
		EnableLanguages []string `json:"enableLanguages"`
		// MaxFiles above 0 replaces the server's limit (a warning, see
		// warnOverLimit); -1 removes it.
		MaxFiles int `json:"maxFiles"`
	} `json:"index"`
}

func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.state.Store(stateInitializing)
	if err := s.applyInitOptions(p.InitializationOptions); err != nil {
		s.state.Store(stateNew)
		return nil, invalidParams("initializationOptions: %v", err)
	}
	s.enc = negotiateEncoding(p.Capabilities.General)
	s.caps = readClientCaps(&p.Capabilities)
	roots, err := s.initialRoots(p)
	if err != nil {
		s.state.Store(stateNew)
		return nil, invalidParams("%v", err)
	}
	s.primary = roots[0]
	for _, root := range roots {
		if _, err := s.addFolder(root); err != nil {
			s.log.Errorf("workspace folder %s: %v", root, err)
		}
	}
	s.state.Store(stateRunning)
	return &protocol.InitializeResult{
		Capabilities: s.capabilities(),
		ServerInfo:   protocol.ServerInfo{Name: "parley", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

func (s *Server) applyInitOptions(raw protocol.LSPAny) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var o initOptions
	if err := json.Unmarshal(luaObjectsFor[initOptions](raw), &o); err != nil {
		return err
	}
	// Everything is checked before anything is applied: a client may
	// retry initialize after an error.
	level := s.opts.LogLevel
	if o.LogLevel != "" {
		var err error
		if level, err = ParseLevel(o.LogLevel); err != nil {
			return err
		}
	}
	switch o.EditConfirmation {
	case "", "ask", "annotations":
	default:
		return fmt.Errorf("editConfirmation %q: want \"ask\" or \"annotations\"", o.EditConfirmation)
	}
	layer, err := parseAgentLayer(o.Agent)
	if err != nil {
		return err
	}
	s.log.setLevel(level)
	s.editConfirmation = o.EditConfirmation
	s.opts.Index.Excludes = append(s.opts.Index.Excludes, o.Index.Exclude...)
	if o.Index.MaxFileSize > 0 {
		s.opts.Index.MaxFileSize = o.Index.MaxFileSize
	}
	s.opts.Index.EnableLanguages = append(s.opts.Index.EnableLanguages, o.Index.EnableLanguages...)
	if o.Index.MaxFiles != 0 {
		s.opts.Index.MaxFiles = max(o.Index.MaxFiles, 0)
	}
	s.agents.setLayer(layer)
	return nil
}

// negotiateEncoding picks UTF-8 when the client offers it (no conversion
// at all: the index counts bytes), else the mandatory UTF-16.
func negotiateEncoding(g *protocol.GeneralClientCapabilities) workspace.Encoding {
	if g != nil && slices.Contains(g.PositionEncodings, protocol.PositionEncodingKindUTF8) {
		return workspace.UTF8
	}
	return workspace.UTF16
}

func readClientCaps(c *protocol.ClientCapabilities) clientCaps {
	var caps clientCaps
	if c.Window != nil && c.Window.WorkDoneProgress != nil {
		caps.workDoneProgress = *c.Window.WorkDoneProgress
	}
	caps.showMessageRequest = c.Window != nil && c.Window.ShowMessage != nil
	if td := c.TextDocument; td != nil {
		if ds := td.DocumentSymbol; ds != nil && ds.HierarchicalDocumentSymbolSupport != nil {
			caps.hierarchicalSymbols = *ds.HierarchicalDocumentSymbolSupport
		}
		if h := td.Hover; h != nil {
			caps.markdownHover = slices.Contains(h.ContentFormat, protocol.MarkupKindMarkdown)
		}
	}
	if w := c.Workspace; w != nil {
		if w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
			caps.dynamicWatchedFiles = *w.DidChangeWatchedFiles.DynamicRegistration
		}
		if w.WorkspaceFolders != nil {
			caps.workspaceFolders = *w.WorkspaceFolders
		}
		caps.applyEdit = w.ApplyEdit != nil && *w.ApplyEdit
		if we := w.WorkspaceEdit; we != nil {
			caps.edits = editCaps{
				// The spec allows documentChanges when the client lists
				// resource operations even without the documentChanges
				// flag; Neovim 0.7 does that, and handles versions.
				documentChanges: (we.DocumentChanges != nil && *we.DocumentChanges) || len(we.ResourceOperations) > 0,
				create:          slices.Contains(we.ResourceOperations, protocol.ResourceOperationKindCreate),
				rename:          slices.Contains(we.ResourceOperations, protocol.ResourceOperationKindRename),
				delete:          slices.Contains(we.ResourceOperations, protocol.ResourceOperationKindDelete),
				annotations:     we.ChangeAnnotationSupport != nil,
			}
		}
	}
	return caps
}

// initialRoots lists the folders to serve: workspaceFolders, else rootUri,
// else the configured default.
func (s *Server) initialRoots(p *protocol.InitializeParams) ([]string, error) {
	var uris []uri.URI
	if folders, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			uris = append(uris, f.URI)
		}
	} else {
		//lint:ignore SA1019 clients without workspaceFolders still send rootUri
		if root := p.RootURI; root != nil && !root.IsZero() {
			uris = append(uris, *root)
		}
	}
	var roots []string
	for _, u := range uris {
		root, err := folderPath(u)
		if err != nil {
			return nil, err
		}
		roots = append(roots, root)
	}
	if len(roots) == 0 && s.opts.DefaultRoot != "" {
		roots = append(roots, s.opts.DefaultRoot)
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("no workspace folder: send workspaceFolders or rootUri")
	}
	return roots, nil
}

// folderPath turns a folder URI into an absolute, symlink-free directory.
func folderPath(u uri.URI) (string, error) {
	if u.Scheme() != "file" {
		return "", fmt.Errorf("workspace folder %s: only file: URIs are supported", u)
	}
	p := u.FsPath()
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("workspace folder %s: %w", p, err)
	}
	return real, nil
}

func (s *Server) capabilities() protocol.ServerCapabilities {
	enc := protocol.PositionEncodingKindUTF16
	if s.enc == workspace.UTF8 {
		enc = protocol.PositionEncodingKindUTF8
	}
	change := protocol.TextDocumentSyncKindIncremental
	return protocol.ServerCapabilities{
		PositionEncoding: enc,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: ptr(true),
			Change:    &change,
			Save:      &protocol.SaveOptions{IncludeText: ptr(false)},
		},
		DocumentSymbolProvider:    protocol.Boolean(true),
		WorkspaceSymbolProvider:   protocol.Boolean(true),
		DefinitionProvider:        protocol.Boolean(true),
		ReferencesProvider:        protocol.Boolean(true),
		HoverProvider:             protocol.Boolean(true),
		DocumentHighlightProvider: protocol.Boolean(true),
		CodeActionProvider:        protocol.Boolean(true),
		InlineCompletionProvider:  protocol.Boolean(true),
		ExecuteCommandProvider:    protocol.ExecuteCommandOptions{Commands: append(commandNames(), commandCompletionAccepted, commandNextEditAccepted)},
		Workspace: &protocol.WorkspaceOptions{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported:           ptr(true),
				ChangeNotifications: protocol.Boolean(true),
			},
		},
	}
}

func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.RLock()
	folders := slices.Clone(s.folders)
	s.mu.RUnlock()
	for _, f := range folders {
		s.startFolder(f)
	}
	s.startWatching()
	return nil
}

// shutdownGrace bounds how long shutdown lets requests already running
// finish before it cancels them.
const shutdownGrace = 3 * time.Second

// Shutdown refuses new requests, lets those already running finish
// (bounded by shutdownGrace; a long chat turn is cancelled) and then stops
// background work and closes the stores.
func (s *Server) Shutdown(ctx context.Context) error {
	s.state.Store(stateShutdown)
	s.awaitRequests(shutdownGrace)
	s.teardown()
	return nil
}

// awaitRequests waits until no request but the caller (shutdown) is
// running, or until d has passed.
func (s *Server) awaitRequests(d time.Duration) {
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	for {
		ring := s.requestBell.next()
		s.inflightMu.Lock()
		n := len(s.inflight)
		s.inflightMu.Unlock()
		if n <= 1 {
			return
		}
		select {
		case <-ring:
		case <-timeout.C:
			return
		}
	}
}

func ptr[T any](v T) *T { return &v }
