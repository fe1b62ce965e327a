// Package typescript resolves TypeScript and JavaScript names from
// syntax, as index/python does for Python: its describers
// (DescribeTypeScript, DescribeJavaScript, passed to the store through
// index.Config) write each occurrence's descriptor and the file's facts
// at index time; Definitions answers from them, or parses an edited
// buffer (and, for a call of an overloaded function, the file declaring
// it); OperandAt evaluates what comes before a dot the same way, for
// inline completion to list its members; RefsLang gives the shared references judge its module resolution,
// re-exports and the canonical declaration references count against
// (an overload group's first signature, a member's topmost overridden
// declaration).
//
// Every entry takes the store's tree cache for its duration
// (syntax.NewResolver), so calls on one store are serialised; they are
// safe for concurrent use. The describers are pure functions, safe for
// concurrent use by the indexer. It imports index and index/syntax, no
// other resolver.
package typescript
