package extract

import "sync"

// A Scanner extracts a file's records without a syntax tree, as the Go
// path does with its scanner (golang_scan.go): index/extract/pyscan is
// Python's. describe asks for the resolution descriptors the language's
// annotator would write (Options.Describe). A scanner returns an error
// for a file it does not handle with certainty; the tree-sitter path
// then extracts it, or, when the error is a *Regions, only the items
// the scanner declined (scanregions.go). Its result must equal the
// tree-sitter path's, descriptors included.
type Scanner func(src []byte, describe bool) (*Result, error)

var (
	scannersMu sync.RWMutex
	scanners   = map[string]Scanner{}
)

// RegisterScanner installs the scanner tried before tree-sitter for a
// language (a package's init; index/indexer.go imports pyscan for it).
func RegisterScanner(lang string, s Scanner) {
	scannersMu.Lock()
	defer scannersMu.Unlock()
	scanners[lang] = s
}

// ScannerFor returns lang's registered scanner, or nil.
func ScannerFor(lang string) Scanner {
	scannersMu.RLock()
	defer scannersMu.RUnlock()
	return scanners[lang]
}

// scan runs lang's scanner; ok is false when there is none or it
// declined the file, in which case reg, when not nil, holds what it read
// of it (Regions). A panic counts as declining: the scanner's contract
// is not to, and the tree-sitter path is still right. Regions are not
// taken where descriptors are asked for: the describers read the whole
// file's tree.
func scan(lang string, src []byte, opts Options) (res *Result, reg *Regions, ok bool) {
	s := ScannerFor(lang)
	if s == nil || opts.TreeSitter {
		return nil, nil, false
	}
	defer func() {
		if recover() != nil {
			res, reg, ok = nil, nil, false
		}
	}()
	describe := opts.Describe[lang] != nil
	res, err := s(src, describe)
	if err == nil && res != nil {
		return res, nil, true
	}
	if r, isReg := err.(*Regions); isReg && !describe && r.Res != nil && !opts.WholeFiles {
		return nil, r, false
	}
	return nil, nil, false
}
