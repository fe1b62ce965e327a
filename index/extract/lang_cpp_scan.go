package extract

// CppMask is src as tree-sitter-cpp parses it (cppMask: cMask's
// directives and Boost-style macros blanked, every offset kept), or src
// itself when nothing is masked. index/extract/cppscan reads the masked
// bytes so that it sees what tree-sitter sees, and the original for
// names, signatures and docs, as the walker does.
func CppMask(src []byte) []byte {
	if len(src) == 0 {
		return src
	}
	return cppMask(src)
}

// CppDropHoisted applies the cpp spec's finish step (cppDropHoisted) to
// a scanner's result for src, as the walker does after its walk.
func CppDropHoisted(src []byte, res *Result) {
	cppDropHoisted(&tsWalker{src: src, res: res})
}
