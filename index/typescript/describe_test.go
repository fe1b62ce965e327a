package typescript

import (
	"flag"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/internal/navtest"
)

var updateTSDesc = flag.Bool("update-tsdesc", false, "rewrite testdata/resolve_tsdesc.txtar's want file")

// TestTSDescriptorsGolden extracts each file of
// testdata/resolve_tsdesc.txtar and checks every occurrence's descriptor
// and the file's facts against its want file: shadowing (block scopes,
// parameters), named, aliased, default and namespace imports,
// re-exports, this and super, instances from new and annotations,
// declared return types, overloads, callback parameters, destructuring,
// JSDoc links, and unknown values.
func TestTSDescriptorsGolden(t *testing.T) {
	navtest.CheckDescriptorsGolden(t, "resolve_tsdesc.txtar", testDescribers, "update-tsdesc", *updateTSDesc, func(name string) string {
		if strings.HasSuffix(name, ".js") {
			return "javascript"
		}
		return "typescript"
	})
}

// testDescribers are the describers the tests index with.
var testDescribers = navtest.Describers{"typescript": DescribeTypeScript, "tsx": DescribeTypeScript, "javascript": DescribeJavaScript}
