package python

import (
	"flag"
	"testing"

	"github.com/parleyhq/parley/index/internal/navtest"
)

var updatePyDesc = flag.Bool("update-pydesc", false, "rewrite testdata/resolve_pydesc.txtar's want file")

// TestPyDescriptorsGolden extracts each .py file of
// testdata/resolve_pydesc.txtar and checks every occurrence's descriptor
// and the file's facts against its want file: shadowing (locals,
// parameters, class bodies, global/nonlocal), imports and aliases,
// relative imports, self/cls, instances from calls and annotations,
// star imports, __all__ strings, and unknown values.
func TestPyDescriptorsGolden(t *testing.T) {
	navtest.CheckDescriptorsGolden(t, "resolve_pydesc.txtar", testDescribers, "update-pydesc", *updatePyDesc, func(string) string { return "python" })
}

// testDescribers are the describers the tests index with.
var testDescribers = navtest.Describers{"python": Describe}
