package cppscan

// Word classes as tree-sitter-cpp types them. Words in none of these
// are identifiers (references); words whose typing is not replicated
// are declined.
const (
	wIdent uint8 = iota
	wPrim        // primitive_type
	wSized       // unsigned, signed, short, long
	wSpec        // specifiers and qualifiers: no reference
	wStatic
	wTypedef
	wTag // class, struct, union
	wEnum
	wExpr // keywords in expressions: sizeof, true, this...
	wStmt // statement keywords
	wBranch
	wCase
	wDefault
	wDo
	wGoto
	wTemplate
	wTypename
	wOperator
	wUsing
	wNamespace
	wAccess
	wFriend
	wNew
	wDecltype
	wVirtSpec // override, final
	wNoexcept
	wAssert // static_assert
	wDecline
)

var words = map[string]uint8{
	"bool": wPrim, "char": wPrim, "int": wPrim, "float": wPrim, "double": wPrim, "void": wPrim,
	"size_t": wPrim, "ssize_t": wPrim, "ptrdiff_t": wPrim, "intptr_t": wPrim, "uintptr_t": wPrim,
	"char16_t": wPrim, "char32_t": wPrim, "wchar_t": wPrim,
	"int8_t": wPrim, "int16_t": wPrim, "int32_t": wPrim, "int64_t": wPrim,
	"uint8_t": wPrim, "uint16_t": wPrim, "uint32_t": wPrim, "uint64_t": wPrim,
	"unsigned": wSized, "signed": wSized, "short": wSized, "long": wSized,
	"const": wSpec, "volatile": wSpec, "extern": wSpec, "inline": wSpec, "register": wSpec,
	"auto": wSpec, "constexpr": wSpec, "thread_local": wSpec, "mutable": wSpec,
	"virtual": wSpec, "explicit": wSpec,
	"static": wStatic, "typedef": wTypedef,
	"class": wTag, "struct": wTag, "union": wTag, "enum": wEnum,
	"sizeof": wExpr, "true": wExpr, "false": wExpr, "NULL": wExpr, "nullptr": wExpr, "this": wExpr,
	"throw": wExpr, "delete": wExpr, "alignof": wExpr,
	"return": wStmt, "break": wStmt, "continue": wStmt, "else": wStmt, "switch": wStmt, "try": wStmt,
	"if": wBranch, "for": wBranch, "while": wBranch, "catch": wBranch,
	"case": wCase, "default": wDefault, "do": wDo, "goto": wGoto,
	"template": wTemplate, "typename": wTypename, "operator": wOperator, "using": wUsing,
	"namespace": wNamespace, "public": wAccess, "private": wAccess, "protected": wAccess,
	"friend": wFriend, "new": wNew, "decltype": wDecltype, "override": wVirtSpec, "final": wVirtSpec,
	"noexcept": wNoexcept,
	// Not replicated: extensions, attributes, coroutines, concepts and
	// keywords whose nodes differ.
	"__attribute__": wDecline, "__attribute": wDecline, "__declspec": wDecline, "alignas": wDecline,
	"_Alignas": wDecline, "_Alignof": wDecline, "__alignof__": wDecline, "static_assert": wAssert,
	"_Static_assert": wDecline, "asm": wDecline, "__asm__": wDecline, "__asm": wDecline,
	"__extension__": wDecline, "typeof": wDecline, "__typeof__": wDecline, "__typeof": wDecline,
	"__cdecl": wDecline, "__stdcall": wDecline, "__fastcall": wDecline, "__thiscall": wDecline,
	"__forceinline": wDecline, "__inline": wDecline, "__inline__": wDecline, "restrict": wDecline,
	"__restrict": wDecline, "__restrict__": wDecline, "_Atomic": wDecline, "_Noreturn": wDecline,
	"noreturn": wDecline, "__thread": wDecline, "__int128": wDecline, "_Bool": wDecline,
	"char8_t": wDecline, "concept": wDecline, "requires": wDecline, "co_await": wDecline,
	"co_yield": wDecline, "co_return": wDecline, "consteval": wDecline, "constinit": wDecline,
	"typeid": wDecline, "defined": wDecline, "export": wDecline, "module": wDecline, "import": wDecline,
	"and": wDecline, "or": wDecline, "not": wDecline, "xor": wDecline, "bitand": wDecline,
	"bitor": wDecline, "compl": wDecline, "and_eq": wDecline, "or_eq": wDecline, "not_eq": wDecline,
	"xor_eq": wDecline, "__try": wDecline, "__except": wDecline, "__finally": wDecline,
	"__leave": wDecline, "offsetof": wDecline, "va_arg": wIdent, "_Complex": wDecline,
	"__based": wDecline, "__ptr32": wDecline, "__ptr64": wDecline, "__unaligned": wDecline,
	"_unaligned": wDecline, "__null": wDecline, "__volatile__": wDecline, "__const": wDecline,
	"__signed__": wDecline, "__int64": wDecline, "__int32": wDecline, "__int16": wDecline, "__int8": wDecline,
}

func (p *parser) word(t tok) uint8 {
	if t.Kind != tIdent {
		return 255
	}
	return words[string(p.m[t.Start:t.End])]
}

// isName reports whether t is an identifier tree-sitter types as a name.
func (p *parser) isName(t tok) bool { return t.Kind == tIdent && p.word(t) == wIdent }
