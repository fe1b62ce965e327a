package extract

import ts "github.com/odvcencio/gotreesitter"

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
