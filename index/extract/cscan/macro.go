package cscan

// The macros headers use where C has none: macros before a type, macro
// types, macro calls and names as statements, read as tree-sitter-c
// reads them where its tree is sound, or right where it is not
// (TestScanWhereTreeSitterIsWrong).

// specifierMacro reports whether the name at p.i, where a declaration's
// type may be, is a macro before the type (X11's `_Xconst char *`,
// OpenSSL's `OSSL_DEPRECATEDIN_3_0 const BIO_METHOD *f(void);`, `extern
// _X_EXPORT int`): a primitive, sized or tag type after it, past
// qualifiers, or, for a name spelled as a macro, a type name followed
// by a declarator. Tree-sitter reads it as the type and the real one as
// an error; its records are unchanged when the error stays in the
// declaration, and garbage when its recovery reaches further
// (TestScanWhereTreeSitterIsWrong). The scanner reads it as a reference
// in the specifiers, as __attribute__ is read.
func (p *parser) specifierMacro() bool {
	for k := p.skipQuals(1); ; {
		switch t := p.at(k); p.word(t) {
		case wPrim, wSized, wTag:
			return true
		case wIdent:
			next := p.at(p.skipQuals(k + 1))
			if k == 1 && next.Kind == tIdent && p.word(next) == wIdent && !p.macroAt(2) && p.is(p.at(3), ";") {
				// X11's `externalref WidgetClass coreWidgetClass;`:
				// three names are no C, the first a macro however
				// spelled; tree-sitter reads a variable WidgetClass
				// and an error (TestScanWhereTreeSitterIsWrong). A
				// last name spelled as a macro is one after the
				// declarator (`mp_limb_t base PACK;`, trailingMacros).
				return true
			}
			if p.is(next, "*") || next.Kind == tIdent && p.word(next) == wIdent || p.macroTypeAt(k) > 0 {
				return p.macroAt(0) // t is the type
			}
			if !p.macroAt(k) {
				return false
			}
			k = p.skipQuals(k + 1) // EXTERN CONST86 char *, SQLITE_API SQLITE_EXTERN const
		default:
			return false
		}
	}
}

// skipQuals returns the offset from p.i of the first token at or after
// offset k that is not a qualifier or storage class.
func (p *parser) skipQuals(k int) int {
	for w := p.word(p.at(k)); w == wQual || w == wStatic; w = p.word(p.at(k)) {
		k++
	}
	return k
}

// macroAt reports whether the token at offset k is a name spelled as a
// macro.
func (p *parser) macroAt(k int) bool {
	t := p.at(k)
	return t.Kind == tIdent && macroName(p.src[t.Start:t.End])
}

// macroType returns the length of a macro type specifier at p.i, 0 if
// there is none: tree-sitter-c's macro_type_specifier, a name and a type
// in parentheses (OpenSSL's `STACK_OF(X509) *`, glibc's `ElfW(Addr)
// r_brk;`) before a declarator, whose names are references.
func (p *parser) macroType() int { return p.macroTypeAt(0) }

// macroTypeAt is macroType for the name at offset b.
func (p *parser) macroTypeAt(b int) int {
	if !p.is(p.at(b+1), "(") || p.word(p.at(b)) != wIdent || p.at(b).Kind != tIdent {
		return 0
	}
	k := p.skipQuals(b + 2)
	typey := k > b+2 // a type, not a name alone: YAML_DECLARE(const char *)
	switch p.word(p.at(k)) {
	case wTag:
		if p.word(p.at(k+1)) != wIdent || p.at(k+1).Kind != tIdent {
			return 0
		}
		k += 2
		typey = true
	case wIdent:
		if p.at(k).Kind != tIdent {
			return 0
		}
		k++
	case wPrim, wSized:
		for w := p.word(p.at(k)); w == wPrim || w == wSized; w = p.word(p.at(k)) {
			k++
		}
	default:
		return 0
	}
	if p.word(p.at(k-1)) != wIdent {
		typey = true
	}
	for k = p.skipQuals(k); p.is(p.at(k), "*"); k = p.skipQuals(k + 1) {
		typey = true
	}
	if !p.is(p.at(k), ")") {
		return 0
	}
	if next := p.at(k + 1); next.Line != p.at(k).Line && !typey && !p.is(next, "*") || !p.is(next, "*") && (next.Kind != tIdent || p.word(next) != wIdent) {
		return 0 // a line of macro calls without semicolons
	}
	return k + 1 - b
}

// macroStatement reads what tree-sitter-c reads as an expression
// statement at the top level: a macro call with a semicolon
// (DEFINE_TYPE(x);), or a name alone on its line before a declaration
// or directive (X11's _XFUNCPROTOBEGIN), whose missing ";" tree-sitter
// supplies.
func (p *parser) macroStatement(name tok) bool {
	next := p.at(1)
	if next.Line > name.Line || next.Kind == 0 {
		switch w := p.word(next); {
		case next.Kind == tDir, next.Kind == 0, w == wTypedef:
		case macroName(p.src[name.Start:name.End]) && (w == wQual || w == wStatic || w == wPrim || w == wSized || w == wTag ||
			w == wIdent && next.Kind == tIdent && (p.is(p.at(2), "*") || p.at(2).Kind == tIdent && p.word(p.at(2)) == wIdent)):
			// glibc's __BEGIN_DECLS, X11's _XFUNCPROTOBEGIN: tree-sitter
			// reads the name as the next declaration's type and builds
			// an error tree (TestScanBeatsTreeSitter); the scanner reads
			// it as the macro it is, an expression statement.
		default:
			return false
		}
		p.ref(name, false)
		p.i++
		return true
	}
	if !p.is(next, "(") {
		return false
	}
	depth, typed, comma := 0, false, false
	for k := 1; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir || t.Kind == tEOL:
			return false
		case t.Kind == tIdent && p.word(t) != wIdent && p.word(t) != wExpr:
			typed = true // a type among the arguments
		case p.is(t, "(") || p.is(t, "[") || p.is(t, "{"):
			depth++
		case p.is(t, ")") || p.is(t, "]") || p.is(t, "}"):
			depth--
			if depth > 0 && p.at(k+1).Kind == tIdent {
				fail("a name after ) in a call's arguments at %d", t.Start) // A(A(B) c);: a declaration to tree-sitter
			}
		case depth == 1 && p.is(t, ","):
			comma = true
		}
		if depth == 0 {
			next := p.at(k + 1)
			lineEnd := next.Kind == 0 || next.Line > t.Line
			// One argument: before a directive or the end of the file
			// only; before more code tree-sitter may read a
			// declaration.
			call := lineEnd && (comma || p.macroAt(0) && (next.Kind == 0 || next.Kind == tDir))
			if !call && p.declaratorArgs() {
				fail("a call or a declaration at %d", name.Start) // A(B[]); declares, A(*B); calls
			}
			return p.macroCall(name, k, typed, comma, call)
		}
	}
}

// macroCall reads a top-level macro call whose ")" is at offset k as an
// expression statement: with a semicolon (DEFINE_TYPE(x);), or, when
// lineCall, without one, ending its line: with two arguments or more
// (OpenSSL's SKM_DEFINE_STACK_OF_INTERNAL(X, X, X), glibc's
// __LDBL_REDIR1_DECL (a, b)), as tree-sitter reads it, a ";" missing,
// or of a name spelled as a macro (DECLARE_ASN1_ITEM(X),
// __LDBL_REDIR_DECL (f)), which tree-sitter reads as a declaration of X
// (TestScanWhereTreeSitterIsWrong). With a type among the
// arguments (SKM_DEFINE_STACK_OF_INTERNAL(void, void, void)),
// tree-sitter's tree is an error, often to the end of the file; the
// scanner reads the call the same way, the types no references
// (TestScanWhereTreeSitterIsWrong). So it does with a semicolon when the
// macro has two arguments or more (libpng's PNG_EXPORT(1, int, f, (int
// x));), where tree-sitter reads a call with errors around the types,
// some read as names; with one (DEFINE_HANDLE(void);) tree-sitter reads
// a macro type, which the scanner declines.
func (p *parser) macroCall(name tok, k int, typed, comma, lineCall bool) bool {
	semi := p.is(p.at(k+1), ";")
	switch {
	case semi && (!typed || comma && macroName(p.src[name.Start:name.End])):
	case !semi && lineCall:
	default:
		return false
	}
	p.ref(name, true)
	p.i += 2
	p.expr(")")
	p.i++
	if semi {
		p.i++
	}
	return true
}

// macroName reports whether a name is spelled as a macro: capitals,
// digits and underscores, or two underscores first.
func macroName(b []byte) bool {
	if len(b) > 2 && b[0] == '_' && b[1] == '_' {
		return true // __owur, __wur, __gthrw
	}
	for _, c := range b {
		if c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// fieldMacroType reads a macro call as a field (bpf.h's
// `__bpf_md_ptr(struct bpf_sock *, sk);`, __DECLARE_FLEX_ARRAY(struct b,
// bufs);), its first argument a type (a keyword or "*" in it), then
// more, then ";": tree-sitter reads a field of a macro type, the
// arguments after the first an error, and no declarator; the walker
// records no symbol, the names references, none called. A first
// argument without a keyword or "*" (M(a, b);) is fields a and b to
// tree-sitter, and a declarator after the call (M(T, x) y;) a field y:
// the scanner declines both.
func (p *parser) fieldMacroType(name tok) bool {
	if p.word(name) != wIdent || !p.is(p.at(1), "(") {
		return false
	}
	typed, comma := false, false
	k := 2
	for ; !p.is(p.at(k), ")"); k++ {
		switch t := p.at(k); {
		case p.is(t, ","):
			comma = true
		case p.is(t, "*"):
			typed = typed || !comma
		case t.Kind == tIdent:
			switch p.word(t) {
			case wPrim, wSized, wTag, wQual:
				typed = typed || !comma
			case wIdent:
			default:
				return false
			}
		case t.Kind == tNum:
		default:
			return false
		}
	}
	if !typed || !comma || !p.is(p.at(k+1), ";") {
		return false
	}
	for j := 0; j < k; j++ {
		if t := p.at(j); t.Kind == tIdent && p.word(t) == wIdent {
			p.ref(t, false)
		}
	}
	p.i += k + 2
	return true
}

// trailingMacros reads names spelled as macros that end a declarator
// before its ";" or ",": glibc's `char ut_line[32]
// __attribute_nonstring__;`, `int mutex __LOCK_ALIGNMENT;`, X11's
// _X_NONSTRING, or __wur after a function's __attribute__. The compiler
// reads attributes; the scanner, references. Tree-sitter ends a field
// or variable before them, supplying a ";", and reads them as another
// declaration's type or an expression statement; after a function's
// attribute, it drops the function into an error
// (TestScanWhereTreeSitterIsWrong).
//
// In parameters (end ")"), X11's `int fd _X_UNUSED`: tree-sitter reads
// the parameter's name into an error and the macro as its name, the
// same references; before a declaration's ";" it drops the function.
func (p *parser) trailingMacros(end string) {
	k := 0
	for p.word(p.at(k)) == wIdent && p.macroAt(k) {
		k++
	}
	if k == 0 || !p.is(p.at(k), end) && !p.is(p.at(k), ",") {
		return
	}
	for ; k > 0; k-- {
		p.ref(p.peek(), false)
		p.i++
	}
}
