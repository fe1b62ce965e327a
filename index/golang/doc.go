// Package golang resolves Go names from syntax alone, with no type
// checker, over the store's records: MemberDefinitions answers x.F with
// the member of x's type inferred from the buffer's declarations;
// DeclReferences keeps the references that can mean one declaration,
// judging x.F by the operand descriptor the extractor stored for x and
// marking what the syntax allows but cannot confirm Uncertain (and
// Ambiguous when another type's member could be meant);
// BufferReferences answers what the buffer alone settles (a local's uses,
// LocalReferences, and refusals for predeclared names, PredeclaredAt, and
// for keywords and words in comments or strings, NotNameAt); BuildScope
// is the build a rename stays within.
//
// It reads the store through its query API (index.Store.NameEntries,
// SymbolsOf, Symbols, Detail, FileReferences, Header) and keeps the
// operand types it evaluated in a cache kept with the store
// (index.Store.Attach), valid while index.Store.WriteGen is unchanged.
// Its functions are safe for concurrent use. It imports index and no
// other resolver; index/nav puts it in the order of attempts.
package golang
