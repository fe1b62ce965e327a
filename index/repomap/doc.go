// Package repomap renders a ranked map of a workspace (its most central
// files with their key symbols and signatures) within a token budget, for
// the agent's system prompt and `parley map`.
//
// Contracts:
//
//   - Everything comes from the persistent index (index.Store) and its
//     import graph (index/graph); no file is read.
//   - Files are ranked by PageRank over the references between files
//     (refs.go: a file links to the declarers of the names it uses, in
//     its import scope, weighted by how many it uses) and the resolved
//     imports no reference explains. Such an import of a package
//     directory (Go, JVM, C#) is shared among the directory's files in
//     proportion to their symbol counts, so an edge always carries the
//     same weight in total. The graph is built once per index generation
//     (a fingerprint of every file header).
//   - Focus files (mentioned in the conversation, open in the editor)
//     personalise the ranking: half of the teleport mass goes to them, so
//     they and what they use move up. Focus paths the index does not know
//     are ignored. Focus (focus.go) keeps one conversation's focus and
//     renders a new map only when it changes materially, since the map
//     is in front of the cached conversation.
//   - The rendered map never exceeds Options.Tokens as counted by
//     Options.Count; a budget of 0 or less yields the empty string.
package repomap
