package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/memory"
)

// AnchorHasher hashes what memory anchors name as the user sees it: a
// file's content through env.Files (an editor buffer if one is open), a
// symbol's lines (its range in the index) within it. The symbol is found
// by name or Container.Name; without an index, symbol anchors are not
// judged (an error, which memory.Set treats as unknown, never as stale).
// Comparing hashes at recall time instead of hooking the indexer costs a
// file read per anchor of each recalled memory, and stays correct for
// changes made while no parley was running.
func AnchorHasher(env *Env) memory.AnchorHasher {
	return func(a memory.Anchor) (string, bool, error) {
		abs, _, err := env.Resolve(a.Path)
		if err != nil {
			return "", false, nil
		}
		content, _, err := env.Files.Read(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		if a.Symbol == "" {
			return contentHash(content), true, nil
		}
		if env.Index == nil {
			return "", false, errors.New("no index to find symbols in")
		}
		st, rel, ok := env.Index.StoreFor(abs)
		if !ok {
			return "", false, errors.New("no index covers " + a.Path)
		}
		syms, err := st.Symbols(rel)
		if errors.Is(err, index.ErrNotIndexed) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		for _, sym := range syms {
			if sym.Name != a.Symbol && qualified(sym) != a.Symbol {
				continue
			}
			lines := bytes.SplitAfter(content, []byte("\n"))
			first := int(sym.Range.Start.Line)
			last := int(endLine(sym.Range.Start.Line, sym.Range.End.Line, sym.Range.End.Col))
			if first >= len(lines) {
				return "", false, nil
			}
			return contentHash(bytes.Join(lines[first:min(last+1, len(lines))], nil)), true, nil
		}
		return "", false, nil
	}
}

func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
