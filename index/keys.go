package index

import (
	"encoding/binary"
	"strings"
)

// Key layout of the index store. One prefix byte per record kind; integers
// are big-endian so keys sort numerically; names end in 0x00, which no
// identifier contains (extractors never emit NUL).
//
//	0x01 "schema"                          -> uvarint schemaVersion, str describer set
//	'p'  path                              -> fileHeader (hot per-file data,
//	                                          a Go file's //go:build line)
//	'f'  fileID(4)                         -> fileDetail (path, reason, package,
//	                                          imports with their local names,
//	                                          todos, operand descriptors)
//	'y'  fileID(4)                         -> symbols of the file, in extractor order
//	'n'  fileID(4)                         -> distinct reference names of the file
//	's'  lower(name) 0x00 fileID(4) idx(4) -> symRef: kind, flags, name
//	                                          position, container, original
//	                                          spelling
//	'r'  name 0x00 fileID(4)               -> occurrences of name in the file:
//	                                          position, call, selector, the
//	                                          import a qualifier names, the
//	                                          operand descriptor of x in x.F
//	                                          (an index into the file's
//	                                          table in 'f')
//
// Operand descriptors (schema 5) are what lets references to a Go method
// or field be told apart by the type of x in x.F. Two designs were
// measured on GOROOT/src: parsing the candidate files with go/parser at
// query time means parsing every file that mentions the name (String:
// 1270 files, 24 MB, 3.3 s here; Pos: 461 files, 12.9 MB, 2.0 s; both
// under load), far over a 50 ms budget, and caching the trees would cost
// gigabytes. Writing a descriptor from the scan pass's tokens cost 9%
// more indexing CPU and 3% more store (a table of short strings per file
// in 'f', one uvarint per selector in 'r'; two paired runs), and leaves a
// query a few thousand small evaluations, whose types are cached across
// queries until the next write.
//
// Python files (schema 7) use the same two places for resolution
// descriptors (index/resolve_pydesc.go): what each occurrence binds to
// from its file's syntax (a binding's position, an import, a class's
// member through self or an instance), in the 'f' table with facts about
// the file (star imports, values of module-level bindings, bases), and
// the occurrence's index in 'r'. A references query then evaluates them
// against the index instead of parsing every file that spells the name
// within the language server's 50 ms budget.
//
// The 's' value carries what ranking, declaration checks and workspace
// symbol answers need, so SearchNames never decodes 'y' records and
// SearchSymbols decodes them only for the hits it returns.
//
// A file's 'p', 'f', 'y', 'n', 's' and 'r' records are always written and
// deleted together in one batch, so readers never see half a file. Deleting
// a file needs its old names, which is what 'y' and 'n' provide.
//
// The schema version changes whenever any encoding or layout changes; Open
// rebuilds a store whose version differs instead of misreading it.
const schemaVersion = 18 // 18: C and C++ files the scanners read all but some items of keep their records, tree-sitter reading only those items (extract.Regions); 17: C and C++ read by hand-written scanners (cscan, cppscan: headers' macros read as the compiler reads them where tree-sitter's tree had an error); 16: a Go constant repeating its group's type names it in its signature; 15: C++ locals the grammar read out of a function body it lost are no symbols; 14: Go descriptors of calls of local function literals and func-typed parameters, of map values and nested elements; 13: Go composite literal keys carry their literal type's descriptor; 12: C and C++ sources masked before parsing (null directives, Doxygen conditionals, `const T &f()`, C++ attribute and export macros, pure virtual specifiers); 11: Go fields of anonymous struct types (under "Type.field" or the variable), descriptors of (*T)(p) conversions and parenthesized literals; 10: Go descriptors of make([]T, n) and of calls and selectors after a type assertion; 9: TypeScript and JavaScript parameters typed by their default value; 8: TypeScript and JavaScript resolution descriptors in 'f' and 'r'; 7: Python resolution descriptors in 'f' and 'r', Go descriptors of type switch variables (per clause) and of locals declared after a case or label; 6: //go:build expression in 'p'; 5: operand descriptors in 'f' and 'r'; 4: import names in 'f', selector and import flags in 'r'; 3: container in the name index, ASCII flag in headers

const (
	prefixSchema  = 0x01
	prefixPath    = 'p'
	prefixDetail  = 'f'
	prefixSymbols = 'y'
	prefixNames   = 'n'
	prefixSymName = 's'
	prefixRef     = 'r'
)

var schemaKey = []byte{prefixSchema, 's', 'c', 'h', 'e', 'm', 'a'}

func pathKey(path string) []byte { return append([]byte{prefixPath}, path...) }

func idKey(prefix byte, id uint32) []byte {
	k := make([]byte, 5)
	k[0] = prefix
	binary.BigEndian.PutUint32(k[1:], id)
	return k
}

func symNameKey(name string, id uint32, idx uint32) []byte {
	return appendSymNameKey(make([]byte, 0, 1+len(name)+1+8), name, id, idx)
}

// appendSymNameKey appends the 's' key of a symbol to k.
func appendSymNameKey(k []byte, name string, id uint32, idx uint32) []byte {
	k = append(k, prefixSymName)
	k = appendLower(k, name)
	k = append(k, 0)
	k = binary.BigEndian.AppendUint32(k, id)
	return binary.BigEndian.AppendUint32(k, idx)
}

// parseSymNameKey splits a 's' key into its lower-cased name, file ID and
// symbol index; ok is false for a malformed key.
func parseSymNameKey(k []byte) (lower []byte, id, idx uint32, ok bool) {
	if len(k) < 1+1+8 || k[0] != prefixSymName || k[len(k)-9] != 0 {
		return nil, 0, 0, false
	}
	n := len(k)
	return k[1 : n-9], binary.BigEndian.Uint32(k[n-8:]), binary.BigEndian.Uint32(k[n-4:]), true
}

func refKey(name string, id uint32) []byte {
	return appendRefKey(make([]byte, 0, 1+len(name)+1+4), name, id)
}

// appendRefKey appends the 'r' key of name in file id to k.
func appendRefKey(k []byte, name string, id uint32) []byte {
	k = append(k, prefixRef)
	k = append(k, name...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint32(k, id)
}

func parseRefKey(k []byte) (name []byte, id uint32, ok bool) {
	if len(k) < 1+1+4 || k[0] != prefixRef || k[len(k)-5] != 0 {
		return nil, 0, false
	}
	return k[1 : len(k)-5], binary.BigEndian.Uint32(k[len(k)-4:]), true
}

// namePrefix is the scan prefix for every key of a kind whose name part
// equals name exactly ("s"+lower+0x00, "r"+name+0x00).
func namePrefix(prefix byte, name string, lower bool) []byte {
	k := []byte{prefix}
	if lower {
		k = appendLower(k, name)
	} else {
		k = append(k, name...)
	}
	return append(k, 0)
}

// appendLower appends the lower-case form of s. ASCII is handled inline
// because identifiers are overwhelmingly ASCII.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return append(dst, strings.ToLower(s[i:])...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
