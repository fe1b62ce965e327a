package rustscan

// Keyword codes. Strict keywords never yield a Ref; the contextual ones
// (union, default, auto, macro_rules, raw, safe, dyn) are names except
// where the grammar makes them keywords; the primitive type names are
// primitive_type nodes in types and token trees, but identifiers in
// expressions and in front of "::".
const (
	kwNone uint8 = iota
	kwAs
	kwAsync
	kwAwait
	kwBreak
	kwConst
	kwContinue
	kwCrate
	kwElse
	kwEnum
	kwExtern
	kwFalse
	kwFn
	kwFor
	kwIf
	kwImpl
	kwIn
	kwLet
	kwLoop
	kwMatch
	kwMod
	kwMove
	kwMut
	kwPub
	kwRef
	kwReturn
	kwSelf
	kwStatic
	kwStruct
	kwSuper
	kwTrait
	kwTrue
	kwType
	kwUnsafe
	kwUse
	kwWhere
	kwWhile
	kwYield
	kwUnderscore
	kwGen
	kwTry
	kwBox
	kwMacro
	kwDo
	kwAbstract
	// contextual: names outside their keyword position
	kwUnion
	kwDefault
	kwAuto
	kwMacroRules
	kwRaw
	kwDyn
	kwSafe
	kwPrim // u8, str, bool...
)

// strict reports whether code is a keyword that is never a name.
func strict(code uint8) bool { return code != kwNone && code < kwGen }

// keywords maps each keyword's spelling to its code.
var keywords = map[string]uint8{
	"as":          kwAs,
	"async":       kwAsync,
	"await":       kwAwait,
	"break":       kwBreak,
	"const":       kwConst,
	"continue":    kwContinue,
	"crate":       kwCrate,
	"else":        kwElse,
	"enum":        kwEnum,
	"extern":      kwExtern,
	"false":       kwFalse,
	"fn":          kwFn,
	"for":         kwFor,
	"if":          kwIf,
	"impl":        kwImpl,
	"in":          kwIn,
	"let":         kwLet,
	"loop":        kwLoop,
	"match":       kwMatch,
	"mod":         kwMod,
	"move":        kwMove,
	"mut":         kwMut,
	"pub":         kwPub,
	"ref":         kwRef,
	"return":      kwReturn,
	"self":        kwSelf,
	"static":      kwStatic,
	"struct":      kwStruct,
	"super":       kwSuper,
	"trait":       kwTrait,
	"true":        kwTrue,
	"type":        kwType,
	"unsafe":      kwUnsafe,
	"use":         kwUse,
	"where":       kwWhere,
	"while":       kwWhile,
	"yield":       kwYield,
	"_":           kwUnderscore,
	"gen":         kwGen,
	"try":         kwTry,
	"box":         kwBox,
	"macro":       kwMacro,
	"do":          kwDo,
	"abstract":    kwAbstract,
	"become":      kwAbstract,
	"final":       kwAbstract,
	"override":    kwAbstract,
	"priv":        kwAbstract,
	"typeof":      kwAbstract,
	"unsized":     kwAbstract,
	"virtual":     kwAbstract,
	"union":       kwUnion,
	"default":     kwDefault,
	"auto":        kwAuto,
	"macro_rules": kwMacroRules,
	"raw":         kwRaw,
	"dyn":         kwDyn,
	"safe":        kwSafe,
	"u8":          kwPrim,
	"u16":         kwPrim,
	"u32":         kwPrim,
	"u64":         kwPrim,
	"u128":        kwPrim,
	"usize":       kwPrim,
	"i8":          kwPrim,
	"i16":         kwPrim,
	"i32":         kwPrim,
	"i64":         kwPrim,
	"i128":        kwPrim,
	"isize":       kwPrim,
	"f32":         kwPrim,
	"f64":         kwPrim,
	"bool":        kwPrim,
	"str":         kwPrim,
	"char":        kwPrim,
}

// keyword returns b's keyword code, kwNone for a plain name. The lookup
// by string(b) does not allocate.
func keyword(b []byte) uint8 { return keywords[string(b)] }
