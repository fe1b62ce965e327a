package extract

import (
	"sync"

	ts "github.com/odvcencio/gotreesitter"
)

// gotreesitter v0.24 parses a few grammars (JavaScript, C#, Bash, CSS
// among those parley uses) on an experimental "GSS forest" path by
// default. Its trees match the ordinary parser's node for node top-down,
// but their parent links are stale: in `const g = (x) => f(x)` the
// call's Parent() is a detached, hidden primary_expression whose own
// Parent() is nil, so a walk up from the inner x never reaches the arrow
// function that binds it. Every scope lookup of the resolvers climbs
// parent links (index/resolve_tsscope.go and the descriptors written
// through Annotator), so on that path a JavaScript parameter used inside
// a call resolved to nothing. The ordinary parser costs no measurable
// time on the files concerned (GOROOT/src's JavaScript and shell
// scripts: 0.18-0.22 s CPU either way, three alternating runs), and a
// file it would parse slowly is bounded by the parse budget, so the
// forest is turned off for the process. TestParentLinks fails with it on.
func init() { ts.SetGLRForestEnabled(false) }

// C# is the exception (langSpec.forest): its ordinary parse is slow
// enough to lose files to the budget. On a 24 KB C# 12 service
// (testdata/csharp_modern.txtar) the ordinary parser runs with up to 8
// stack versions it does not merge and takes 0.65-0.75 s of CPU, over
// the file's 490 ms budget, where the forest takes ~0.1 s; ordinary C#
// files run at 13-17 µs a byte on it (JsonValueFormatter.cs, 20 KB: 0.34
// s). The C# trees' parent links are as stale (compilation_unit_repeat1
// nodes without a parent), but nothing reads C# trees upward: the walker
// and annotate go down from the root, and the C# locals are found by byte
// ranges (index/resolve_locals.go, descend). TestGolden's C# fixtures come
// out the same on either path.

// forestMu serializes forest parses: ParseForestExperimental writes
// package variables of gotreesitter (the last decline reason, a string,
// and on one decline the forest switch itself), which concurrent forest
// parses would race on. A forest parse of a C# file takes a few ms.
// The mutex does not order the switch's one write (false over false,
// only after a decline for an EOF-recovery conflict) against the read
// every ordinary parse makes on entry; no C# input tried here (the
// tokenbench files cut at four points, unclosed classes and methods)
// declines that way, and gating every parse on a lock for it would make
// C# files wait for the parses running beside them.
var forestMu sync.Mutex

// parseMaybeForest parses src on p: on the forest path first when forest
// is set, keeping its tree only when it is complete and has no ERROR node
// (the forest has no error recovery), else with the ordinary parser, as
// gotreesitter's own dispatch does when the forest is on.
func parseMaybeForest(p *ts.Parser, src []byte, forest bool) (*ts.Tree, error) {
	if forest {
		forestMu.Lock()
		tree, ok := p.ParseForestExperimental(src)
		forestMu.Unlock()
		if ok && forestTreeComplete(tree, src) {
			return tree, nil
		}
		if tree != nil {
			tree.Release()
		}
	}
	return p.Parse(src)
}

// forestTreeComplete reports whether a forest tree can stand for the
// ordinary parser's: error-free, not stopped early, and reaching the last
// byte that is not trailing whitespace.
func forestTreeComplete(tree *ts.Tree, src []byte) bool {
	if tree == nil || tree.ParseStoppedEarly() {
		return false
	}
	root := tree.RootNode()
	if root == nil || root.HasError() {
		return false
	}
	end := len(src)
	for end > 0 && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r' || src[end-1] == '\n') {
		end--
	}
	return int(root.EndByte()) >= end
}
