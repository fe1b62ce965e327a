package golang

import (
	"path"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Methods shared through embedding. go/types gives an interface that
// embeds two interfaces with the same method one method object, the
// first one's: in archive/zip's
//
//	type fileInfoDirEntry interface {
//		fs.FileInfo
//		fs.DirEntry
//	}
//
// IsDir is fs.FileInfo's IsDir. gopls's references to fs.DirEntry's
// IsDir search every method corresponding to it, fileInfoDirEntry's
// among them, and so every call of fs.FileInfo's IsDir is one of them
// (and not the other way round: FileInfo's search finds its own object).
// embeddedAlias reports whether u's method named like def is such an
// object for def.

// embeddedAlias reports whether the interface u's method named like def
// is, for gopls, a method def's interface corresponds to: an interface
// that embeds def's interface (and so implements it) embeds u before it,
// or declares no method of that name and takes u's.
func (m *memberFilter) embeddedAlias(u goType) bool {
	if m.defIface == nil || m.def.Kind != extract.KindMethod {
		return false
	}
	if m.aliases == nil {
		m.aliases = m.findAliases()
	}
	return m.aliases[u]
}

// findAliases lists, for each interface X that embeds def's interface
// I, the interface whose method X takes in place of I's: the first
// embedded interface having the method, unless X declares it itself or
// I comes first.
func (m *memberFilter) findAliases() map[goType]bool {
	out := map[goType]bool{}
	self := goType{name: m.def.Container, dir: m.dir}
	sites, err := m.st.DefinitionSites(m.def.Container)
	if err != nil {
		return out
	}
	r := m.resolver()
	for _, h := range sites {
		if h.Kind != extract.KindInterface || h.Container == "" || !strings.HasSuffix(h.Path, ".go") {
			continue
		}
		syms, err := r.symbols(h.Path)
		if err != nil {
			continue
		}
		embeds := false
		for _, s := range syms {
			if s.Container == h.Container && s.Selection == h.Selection {
				embeds = m.embeddedType(r, h.Path, s.Signature) == self
				break
			}
		}
		if !embeds {
			continue // embeds another interface of that name
		}
		for _, s := range syms {
			if s.Container != h.Container {
				continue
			}
			if s.Kind == extract.KindMethod && s.Name == m.def.Name {
				break // X's own method
			}
			if s.Kind != extract.KindInterface {
				continue
			}
			e := m.embeddedType(r, h.Path, s.Signature)
			if e == self {
				break
			}
			if ms := m.interfaceMethods(e); slices.Contains(ms, m.def.Name) {
				out[e] = true
				break
			}
		}
	}
	return out
}

// embeddedType is the interface an embedded-interface symbol of the
// file at p names, with its directory worked out.
func (m *memberFilter) embeddedType(r *goTypeResolver, p, sig string) goType {
	f, ok := parseFieldSig(sig)
	if !ok || len(f.Names) > 0 {
		return goType{}
	}
	t, ok := typeExpr(r.storedFileContext(p), f.Type)
	if !ok {
		return goType{}
	}
	if t.dir == "" {
		t = m.resolveDir(r, t)
	}
	if t.dir == "" {
		t.dir = path.Dir(p)
	}
	return goType{name: t.name, dir: t.dir}
}
