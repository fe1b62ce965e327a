package lsp

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

// wsPaths are absolute paths for buildWorkspaceEdit tests and the
// replacements that put their URIs and JSON-escaped forms into expected
// JSON ($A is a's URI, $pathA its path).
type wsPaths struct {
	a, b, c string
	repl    *strings.Replacer
}

func newWSPaths(t *testing.T) wsPaths {
	root := t.TempDir()
	p := wsPaths{a: filepath.Join(root, "a.go"), b: filepath.Join(root, "b.go"), c: filepath.Join(root, "c.go")}
	esc := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	p.repl = strings.NewReplacer(
		"$pathA", esc(p.a), "$pathB", esc(p.b), "$pathC", esc(p.c),
		"$A", string(uri.File(p.a)), "$B", string(uri.File(p.b)), "$C", string(uri.File(p.c)),
	)
	return p
}

// marshalEdit encodes edit as the server's codec does.
func marshalEdit(t *testing.T, edit *protocol.WorkspaceEdit) []byte {
	t.Helper()
	raw, err := protocol.Marshal(edit)
	if err != nil {
		t.Fatalf("protocol.Marshal: %v", err)
	}
	return raw
}

// assertJSON compares JSON documents structurally (so `"version": null`
// and a missing version differ).
func assertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expected JSON: %v\n%s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		gi, _ := json.MarshalIndent(g, "", "  ")
		wi, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("JSON\n got %s\nwant %s", gi, wi)
	}
}

func TestBuildWorkspaceEdit(t *testing.T) {
	p := newWSPaths(t)
	full := editCaps{documentChanges: true, create: true, rename: true, delete: true, annotations: true}
	openA := func(abs string) editTarget {
		if abs == p.a {
			return editTarget{open: true, version: 7}
		}
		return editTarget{}
	}
	modA := tools.FileChange{Op: tools.OpModify, Path: p.a, Old: []byte("x := foo\n"), New: []byte("x := bar\n"), Version: 7}
	modADisk := modA
	modADisk.Version = tools.DiskVersion
	modB := tools.FileChange{Op: tools.OpModify, Path: p.b, Old: []byte("b\n"), New: []byte("B\n"), Version: tools.DiskVersion}
	noop := tools.FileChange{Op: tools.OpModify, Path: p.c, Old: []byte("same\n"), New: []byte("same\n"), Version: tools.DiskVersion}
	create := tools.FileChange{Op: tools.OpCreate, Path: p.b, New: []byte("package b\n"), Version: tools.DiskVersion}
	createEmpty := tools.FileChange{Op: tools.OpCreate, Path: p.b, Version: tools.DiskVersion}
	del := tools.FileChange{Op: tools.OpDelete, Path: p.c, Old: []byte("c\n"), Version: tools.DiskVersion}
	rename := tools.FileChange{Op: tools.OpRename, Path: p.c, NewPath: p.b, Old: []byte("c\n"), Version: tools.DiskVersion}

	const editA = `{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":8}},"newText":"bar"}`
	const editB = `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"B"}`

	tests := []struct {
		name    string
		changes []tools.FileChange
		caps    editCaps
		targets func(string) editTarget
		confirm bool
		want    string // JSON with $A/$B/$C for URIs
		wantErr bool   // an errUnsupportedEdit
	}{
		{
			name:    "open document carries its version",
			changes: []tools.FileChange{modA},
			caps:    full, targets: openA,
			want: `{"documentChanges":[{"textDocument":{"uri":"$A","version":7},"edits":[` + editA + `]}]}`,
		},
		{
			name:    "closed document has version null",
			changes: []tools.FileChange{modB},
			caps:    full, targets: openA,
			want: `{"documentChanges":[{"textDocument":{"uri":"$B","version":null},"edits":[` + editB + `]}]}`,
		},
		{
			name:    "nil targets: nothing open",
			changes: []tools.FileChange{modA},
			caps:    full,
			want:    `{"documentChanges":[{"textDocument":{"uri":"$A","version":null},"edits":[` + editA + `]}]}`,
		},
		{
			name:    "read from disk, open now: the open version",
			changes: []tools.FileChange{modADisk},
			caps:    full, targets: openA,
			want: `{"documentChanges":[{"textDocument":{"uri":"$A","version":7},"edits":[` + editA + `]}]}`,
		},
		{
			// The document moved on (version 8) after the change was computed
			// against version 7: send 7 so that the client refuses the edit.
			name:    "stale open version: the version computed against",
			changes: []tools.FileChange{modA},
			caps:    full,
			targets: func(string) editTarget { return editTarget{open: true, version: 8} },
			want:    `{"documentChanges":[{"textDocument":{"uri":"$A","version":7},"edits":[` + editA + `]}]}`,
		},
		{
			name:    "empty modify skipped",
			changes: []tools.FileChange{noop, modB, noop},
			caps:    full, targets: openA,
			want: `{"documentChanges":[{"textDocument":{"uri":"$B","version":null},"edits":[` + editB + `]}]}`,
		},
		{
			name:    "only empty modifies",
			changes: []tools.FileChange{noop},
			caps:    full, targets: openA, confirm: true,
			want: `{}`,
		},
		{
			name:    "create with content",
			changes: []tools.FileChange{create},
			caps:    full,
			want: `{"documentChanges":[
				{"kind":"create","uri":"$B","options":{"overwrite":false,"ignoreIfExists":false}},
				{"textDocument":{"uri":"$B","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"package b\n"}]}]}`,
		},
		{
			name:    "create empty file",
			changes: []tools.FileChange{createEmpty},
			caps:    editCaps{documentChanges: true, create: true},
			want:    `{"documentChanges":[{"kind":"create","uri":"$B","options":{"overwrite":false,"ignoreIfExists":false}}]}`,
		},
		{
			name:    "create without capability",
			changes: []tools.FileChange{modA, create},
			caps:    editCaps{documentChanges: true, rename: true, delete: true},
			wantErr: true,
		},
		{
			name:    "delete",
			changes: []tools.FileChange{del},
			caps:    editCaps{documentChanges: true, delete: true},
			want:    `{"documentChanges":[{"kind":"delete","uri":"$C"}]}`,
		},
		{
			name:    "delete without capability",
			changes: []tools.FileChange{del},
			caps:    editCaps{documentChanges: true, create: true, rename: true},
			wantErr: true,
		},
		{
			name:    "rename",
			changes: []tools.FileChange{rename},
			caps:    editCaps{documentChanges: true, rename: true},
			want:    `{"documentChanges":[{"kind":"rename","oldUri":"$C","newUri":"$B","options":{"overwrite":false}}]}`,
		},
		{
			name:    "rename without capability",
			changes: []tools.FileChange{rename},
			caps:    editCaps{documentChanges: true, create: true, delete: true},
			wantErr: true,
		},
		{
			name:    "no documentChanges: changes map",
			changes: []tools.FileChange{modA, noop, modB},
			caps:    editCaps{annotations: true}, targets: openA, confirm: true,
			want: `{"changes":{"$A":[` + editA + `],"$B":[` + editB + `]}}`,
		},
		{
			name:    "no documentChanges: create",
			changes: []tools.FileChange{modA, create},
			caps:    editCaps{create: true, rename: true, delete: true},
			wantErr: true,
		},
		{
			name:    "no documentChanges: delete",
			changes: []tools.FileChange{del},
			caps:    editCaps{delete: true},
			wantErr: true,
		},
		{
			name:    "no documentChanges: rename",
			changes: []tools.FileChange{rename},
			caps:    editCaps{rename: true},
			wantErr: true,
		},
		{
			name:    "no documentChanges: two changes to one file",
			changes: []tools.FileChange{modB, {Op: tools.OpModify, Path: p.b, Old: []byte("B\n"), New: []byte("C\n"), Version: tools.DiskVersion}},
			caps:    editCaps{},
			wantErr: true,
		},
		{
			name:    "annotations and confirm",
			changes: []tools.FileChange{modA, create, rename, del},
			caps:    full, targets: openA, confirm: true,
			want: `{"documentChanges":[
				{"textDocument":{"uri":"$A","version":7},"edits":[{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":8}},"newText":"bar","annotationId":"parley.edit"}]},
				{"kind":"create","annotationId":"parley.edit","uri":"$B","options":{"overwrite":false,"ignoreIfExists":false}},
				{"textDocument":{"uri":"$B","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"package b\n","annotationId":"parley.edit"}]},
				{"kind":"rename","annotationId":"parley.edit","oldUri":"$C","newUri":"$B","options":{"overwrite":false}},
				{"kind":"delete","annotationId":"parley.edit","uri":"$C"}],
			"changeAnnotations":{"parley.edit":{"label":"Rename foo to bar","needsConfirmation":true,
				"description":"edit $pathA; create $pathB; rename $pathC → $pathB; delete $pathC"}}}`,
		},
		{
			name:    "annotations without confirm",
			changes: []tools.FileChange{modA, del},
			caps:    full, targets: openA,
			want: `{"documentChanges":[{"textDocument":{"uri":"$A","version":7},"edits":[` + editA + `]},{"kind":"delete","uri":"$C"}]}`,
		},
		{
			name:    "confirm without annotation support",
			changes: []tools.FileChange{modA, del},
			caps:    editCaps{documentChanges: true, delete: true}, targets: openA, confirm: true,
			want: `{"documentChanges":[{"textDocument":{"uri":"$A","version":7},"edits":[` + editA + `]},{"kind":"delete","uri":"$C"}]}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edit, err := buildWorkspaceEdit("Rename foo to bar", tc.changes, workspace.UTF16, tc.caps, tc.targets, tc.confirm)
			if tc.wantErr {
				if !errors.Is(err, errUnsupportedEdit) {
					t.Fatalf("err = %v, want an errUnsupportedEdit", err)
				}
				if edit != nil {
					t.Errorf("edit %+v returned with the error", edit)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			raw := marshalEdit(t, edit)
			assertJSON(t, raw, p.repl.Replace(tc.want))

			// The client's view: what we send decodes back to the same edit.
			var back protocol.WorkspaceEdit
			if err := protocol.Unmarshal(raw, &back); err != nil {
				t.Fatalf("protocol.Unmarshal: %v\n%s", err, raw)
			}
			// Compared as values: map keys ("changes") come out in any order.
			assertJSON(t, marshalEdit(t, &back), string(raw))
		})
	}
}

// TestBuildWorkspaceEditNullVersion checks the wire form literally: LSP
// requires `"version": null` for a document that is not open, and the
// protocol package must not drop it as an empty optional.
func TestBuildWorkspaceEditNullVersion(t *testing.T) {
	p := newWSPaths(t)
	changes := []tools.FileChange{
		{Op: tools.OpModify, Path: p.a, Old: []byte("a\n"), New: []byte("A\n"), Version: 3},
		{Op: tools.OpModify, Path: p.b, Old: []byte("b\n"), New: []byte("B\n"), Version: tools.DiskVersion},
	}
	targets := func(abs string) editTarget { return editTarget{open: abs == p.a, version: 3} }
	edit, err := buildWorkspaceEdit("edit", changes, workspace.UTF8, editCaps{documentChanges: true}, targets, false)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(marshalEdit(t, edit))
	for _, want := range []string{
		p.repl.Replace(`"textDocument":{"uri":"$A","version":3}`),
		p.repl.Replace(`"textDocument":{"uri":"$B","version":null}`),
	} {
		if !strings.Contains(raw, want) {
			t.Errorf("JSON lacks %s:\n%s", want, raw)
		}
	}
	if strings.Contains(raw, "changeAnnotations") || strings.Contains(raw, "annotationId") {
		t.Errorf("unconfirmed edit carries annotations:\n%s", raw)
	}
}

func TestBuildWorkspaceEditBadInput(t *testing.T) {
	full := editCaps{documentChanges: true, create: true, rename: true, delete: true}
	abs := filepath.Join(t.TempDir(), "a.go")
	for _, c := range []tools.FileChange{
		{Op: tools.OpModify, Path: "rel/a.go", Old: []byte("a"), New: []byte("b")},
		{Op: tools.OpRename, Path: abs, NewPath: "rel/b.go"},
		{Op: tools.ChangeOp(99), Path: abs},
	} {
		edit, err := buildWorkspaceEdit("x", []tools.FileChange{c}, workspace.UTF16, full, nil, false)
		if err == nil || errors.Is(err, errUnsupportedEdit) {
			t.Errorf("%+v: edit %v, err %v; want a plain error", c, edit, err)
		}
	}
}
