package javascan

// kwID names a reserved word of Java (true, false and null too: none of
// them is ever an identifier).
type kwID uint8

const (
	kwNone kwID = iota
	kwAbstract
	kwAssert
	kwBoolean
	kwBreak
	kwByte
	kwCase
	kwCatch
	kwChar
	kwClass
	kwConst
	kwContinue
	kwDefault
	kwDo
	kwDouble
	kwElse
	kwEnum
	kwExtends
	kwFinal
	kwFinally
	kwFloat
	kwFor
	kwGoto
	kwIf
	kwImplements
	kwImport
	kwInstanceof
	kwInt
	kwInterface
	kwLong
	kwNative
	kwNew
	kwPackage
	kwPrivate
	kwProtected
	kwPublic
	kwReturn
	kwShort
	kwStatic
	kwStrictfp
	kwSuper
	kwSwitch
	kwSynchronized
	kwThis
	kwThrow
	kwThrows
	kwTransient
	kwTry
	kwVoid
	kwVolatile
	kwWhile
	kwTrue
	kwFalse
	kwNull
)

var keywords = map[string]kwID{
	"abstract":     kwAbstract,
	"assert":       kwAssert,
	"boolean":      kwBoolean,
	"break":        kwBreak,
	"byte":         kwByte,
	"case":         kwCase,
	"catch":        kwCatch,
	"char":         kwChar,
	"class":        kwClass,
	"const":        kwConst,
	"continue":     kwContinue,
	"default":      kwDefault,
	"do":           kwDo,
	"double":       kwDouble,
	"else":         kwElse,
	"enum":         kwEnum,
	"extends":      kwExtends,
	"final":        kwFinal,
	"finally":      kwFinally,
	"float":        kwFloat,
	"for":          kwFor,
	"goto":         kwGoto,
	"if":           kwIf,
	"implements":   kwImplements,
	"import":       kwImport,
	"instanceof":   kwInstanceof,
	"int":          kwInt,
	"interface":    kwInterface,
	"long":         kwLong,
	"native":       kwNative,
	"new":          kwNew,
	"package":      kwPackage,
	"private":      kwPrivate,
	"protected":    kwProtected,
	"public":       kwPublic,
	"return":       kwReturn,
	"short":        kwShort,
	"static":       kwStatic,
	"strictfp":     kwStrictfp,
	"super":        kwSuper,
	"switch":       kwSwitch,
	"synchronized": kwSynchronized,
	"this":         kwThis,
	"throw":        kwThrow,
	"throws":       kwThrows,
	"transient":    kwTransient,
	"try":          kwTry,
	"void":         kwVoid,
	"volatile":     kwVolatile,
	"while":        kwWhile,
	"true":         kwTrue,
	"false":        kwFalse,
	"null":         kwNull,
}

// keyword returns b's keyword, or kwNone. The map lookup keyed by
// string(b) does not allocate.
func keyword(b []byte) kwID {
	if len(b) < 2 || len(b) > 12 || b[0] < 'a' || b[0] > 'z' {
		return kwNone
	}
	return keywords[string(b)]
}

// isModifier reports whether k is a modifier keyword.
func isModifier(k kwID) bool {
	switch k {
	case kwPublic, kwProtected, kwPrivate, kwStatic, kwFinal, kwAbstract, kwNative,
		kwSynchronized, kwTransient, kwVolatile, kwStrictfp, kwDefault:
		return true
	}
	return false
}

// isPrimitive reports whether k names a primitive type or void.
func isPrimitive(k kwID) bool {
	switch k {
	case kwBoolean, kwByte, kwChar, kwShort, kwInt, kwLong, kwFloat, kwDouble, kwVoid:
		return true
	}
	return false
}
