package mcpserve

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/permission"
)

// TestRepoMap: repo_map renders the ranked map within the budget, moved
// toward the focus files; bad arguments are the model's mistakes.
func TestRepoMap(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	cs := connect(t, s)
	got, isErr := call(t, cs, "repo_map", map[string]any{"focus": []string{"cart/cart.go"}, "tokens": 400})
	if isErr || !strings.Contains(got, "cart/cart.go") || !strings.Contains(got, "Total") {
		t.Errorf("repo_map: isError=%v\n%s", isErr, got)
	}
	small, _ := call(t, cs, "repo_map", map[string]any{"tokens": 20})
	if len(small) >= len(got) {
		t.Errorf("a 20-token map is not smaller than a 400-token one:\n%s", small)
	}
	for _, args := range []map[string]any{{"tokens": 100000}, {"focus": []string{"../outside.go"}}} {
		if msg, isErr := call(t, cs, "repo_map", args); !isErr {
			t.Errorf("repo_map %v: no error: %s", args, msg)
		}
	}
}
