// Package locals resolves the locals of the other tree-sitter languages
// (Java, Rust, C, C++, C#, Kotlin, Ruby, Lua, PHP, Bash; Swift when
// turned on) from the buffer alone: one interpreter (locals.go) over a
// table per language (lang.go, swift.go) of scope node types, binding
// forms and hooks (flow.go: bindings scoped by control flow). At parses
// the buffer into the store's tree cache (index/syntax, keys
// "locals:LANG:PATH", at most syntax.LocalsCacheBytes of source) and
// answers a name's binding and the occurrences bound to it; names that
// are not locals get no answer.
//
// At and Warm hold the store's tree cache while they parse and walk, so
// calls on one store are serialised; they are safe for concurrent use.
// It imports index and index/syntax, no other resolver.
package locals
