package extract

// CMask is src as tree-sitter-c parses it (cMask: null directives and
// conditionals splitting a declaration blanked, every offset kept), or
// src itself when nothing is masked. index/extract/cscan reads the
// masked bytes so that it sees what tree-sitter sees, and the original
// for names, signatures and docs, as the walker does.
func CMask(src []byte) []byte {
	if len(src) == 0 {
		return src
	}
	return cMask(src)
}
