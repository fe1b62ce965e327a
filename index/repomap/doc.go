// Package repomap renders a ranked map of a workspace (its most central
// files with their key symbols and signatures) within a token budget, for
// the agent's system prompt and `parley map`.
//
// Contracts:
//
//   - Everything comes from the persistent index (index.Store) and its
//     import graph (index/graph); no file is read.
//   - Files are ranked by PageRank over the resolved import graph. An
//     import of a package directory (Go, JVM, C#) is shared among the
//     directory's files in proportion to their symbol counts, so an edge
//     always carries the same weight in total.
//   - Focus files (mentioned in the conversation, open in the editor)
//     personalise the ranking: half of the teleport mass goes to them, so
//     they and what they import move up. Focus paths the index does not
//     know are ignored.
//   - The rendered map never exceeds Options.Tokens as counted by
//     Options.Count; a budget of 0 or less yields the empty string.
package repomap
