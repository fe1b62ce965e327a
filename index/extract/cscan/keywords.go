package cscan

// Word classes as tree-sitter-c types them. Words in none of these are
// identifiers (references); words whose typing is not replicated are
// declined.
const (
	wIdent uint8 = iota
	wPrim        // primitive_type
	wSized       // unsigned, signed, short, long
	wQual        // type qualifiers and storage classes
	wStatic
	wTypedef
	wTag // struct, union, enum
	wAttr
	wExpr // keywords in expressions: sizeof, true, NULL...
	wStmt // statement keywords
	wBranch
	wCase
	wDefault
	wDo
	wGoto
	wDecline
)

var words = map[string]uint8{
	"bool": wPrim, "char": wPrim, "int": wPrim, "float": wPrim, "double": wPrim, "void": wPrim,
	"size_t": wPrim, "ssize_t": wPrim, "ptrdiff_t": wPrim, "intptr_t": wPrim, "uintptr_t": wPrim,
	"char16_t": wPrim, "char32_t": wPrim, "_Bool": wPrim, "__int128": wPrim, "wchar_t": wPrim,
	"int8_t": wPrim, "int16_t": wPrim, "int32_t": wPrim, "int64_t": wPrim,
	"uint8_t": wPrim, "uint16_t": wPrim, "uint32_t": wPrim, "uint64_t": wPrim,
	"unsigned": wSized, "signed": wSized, "short": wSized, "long": wSized,
	"const": wQual, "volatile": wQual, "restrict": wQual, "extern": wQual, "inline": wQual,
	"register": wQual, "auto": wQual, "__inline": wQual, "__inline__": wQual,
	"__restrict": wQual, "__restrict__": wQual, "_Noreturn": wQual, "noreturn": wQual,
	"_Thread_local": wQual, "__thread": wQual, "thread_local": wQual, "constexpr": wQual,
	// __extension__: a type_qualifier, or an extension_expression's
	// prefix, which adds no record.
	"__extension__": wQual,
	"static":        wStatic, "typedef": wTypedef,
	"struct": wTag, "union": wTag, "enum": wTag,
	"__attribute__": wAttr, "__attribute": wAttr,
	"sizeof": wExpr, "true": wExpr, "false": wExpr, "NULL": wExpr, "nullptr": wExpr,
	"return": wStmt, "break": wStmt, "continue": wStmt, "else": wStmt, "switch": wStmt,
	"if": wBranch, "for": wBranch, "while": wBranch,
	"case": wCase, "default": wDefault, "do": wDo, "goto": wGoto,
	// Not replicated: MSVC and GNU extensions and C11 keywords whose
	// nodes differ.
	"_Atomic": wDecline, "_Alignas": wDecline, "alignas": wDecline, "_Alignof": wDecline,
	"alignof": wDecline, "__alignof__": wDecline, "__alignof": wDecline, "_alignof": wDecline,
	"offsetof": wDecline, "_Generic": wDecline, "_Static_assert": wDecline, "static_assert": wDecline,
	"asm": wDecline, "__asm__": wDecline, "__asm": wDecline,
	"typeof": wDecline, "__typeof__": wDecline, "__typeof": wDecline, "typeof_unqual": wDecline,
	"__declspec": wDecline, "__based": wDecline, "__cdecl": wDecline, "__clrcall": wDecline,
	"__stdcall": wDecline, "__fastcall": wDecline, "__thiscall": wDecline, "__vectorcall": wDecline,
	"_unaligned": wDecline, "__unaligned": wDecline, "__ptr32": wDecline, "__ptr64": wDecline,
	"__uptr": wDecline, "__sptr": wDecline, "__forceinline": wDecline, "_Complex": wDecline,
	"__complex__": wDecline, "_Imaginary": wDecline, "__try": wDecline, "__except": wDecline,
	"__finally": wDecline, "__leave": wDecline, "_Nonnull": wDecline, "_Nullable": wDecline,
	"__volatile__": wDecline, "__volatile": wDecline, "__const": wDecline,
	"defined": wDecline, "__builtin_offsetof": wDecline, "__builtin_va_arg": wDecline,
	"_Float16": wDecline, "_Float32": wDecline, "_Float64": wDecline, "_Float128": wDecline,
	// __int8 ... __int64: type names to tree-sitter-c, as anything else
	// not listed.
	"__auto_type": wDecline, "__label__": wDecline, "char8_t": wIdent, "__thread_local": wDecline,
	"_Noreturn_": wDecline, "__restrict_arr": wIdent, "__null": wDecline,
}

func (p *parser) word(t tok) uint8 {
	if t.Kind != tIdent {
		return 255
	}
	return words[string(p.src[t.Start:t.End])]
}
