// Inline completion (lua/parley/completion.lua): ghost text from
// parley/inlineCompletion in Insert mode.

package nvim_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
)

// TestCompletionUnit: the Lua side against a stub client, no server:
// params, extmarks, typing through, cycling, accept and undo, dismissal,
// stale answers, cancellation, the toggle (tests/completion_unit.lua).
func TestCompletionUnit(t *testing.T) {
	run(t, nvimRun{script: "completion_unit.lua"})
}

// fimDelay holds every answer of the fake completion model (ms): longer
// than the plugin's and the server's debounce together, so that a second
// keystroke finds the first request waiting for the model.
const fimDelay = 1000

// TestCompletion: with a completion model configured (the fake's
// /v1/completions in the user config, the model in the workspace's
// .parley/config.json), typing in Insert mode
// shows the model's answer as ghost text, the accept key inserts it, one
// `u` takes it back, positions are UTF-16, and a second keystroke cancels
// the request still waiting for the model (tests/completion.lua). Here:
// the fake got the configured model, and the superseded request was
// cancelled or never sent.
func TestCompletion(t *testing.T) {
	llm := fmt.Sprintf(`fimdelay %d
fim func Double() int { => total := 2 * Fee()\n\treturn total
fim return Fee() - 1 + =>  Fee()
fim package cart\n\nv => ar first = 1
fim package cart\n\nva => r second = 2
`, fimDelay)
	r := run(t, nvimRun{script: "completion.lua", llm: llm,
		env: []string{fmt.Sprintf("PARLEY_TEST_FIM_DELAY=%d", fimDelay), "PARLEY_TEST_FIM_KEY=" + apiKey},
		// The key goes only where the user config says (a workspace file
		// that changed the endpoint would have it withheld); the
		// workspace picks the model.
		userConfig: `{"completion": {"provider": "openai-completions", "api_url": "<FAKELLM_URL>/v1/completions", ` +
			`"api_key_env": "PARLEY_TEST_FIM_KEY"}}`,
		workspaceFiles: map[string]string{
			".parley/config.json": `{"completion": {"model": "fake-fim"}}`,
			"cart/double.go":      "package cart\n\n// Double returns twice the fee.\nfunc Double() int {\n}\n",
			"cart/tax.go":         "package cart\n\n\n",
		}})
	reqs := r.llm.FIMRequests()
	if len(reqs) < 3 {
		t.Fatalf("the fake completion model got %d requests, want 3 or more", len(reqs))
	}
	first := false
	for _, q := range reqs {
		if q.Model != "fake-fim" || q.Format != fakellm.FIMCompletions {
			t.Errorf("request %d: model %q, format %q", q.N, q.Model, q.Format)
		}
		if strings.HasSuffix(q.Prefix, "package cart\n\nv") {
			first = true
		}
	}
	t.Logf("%d FIM requests, %d cancelled, the first tax.go request received: %v", len(reqs), r.llm.FIMCancelled(), first)
	for _, q := range reqs {
		t.Logf("request %d: prefix ends %q", q.N, q.Prefix[max(0, len(q.Prefix)-30):])
	}
	if first && r.llm.FIMCancelled() < 1 {
		t.Errorf("the superseded request reached the model and was not cancelled")
	}
	// The server counted what the plugin reported: three shown, two
	// accepted (through the items' command), one dismissed.
	out, err := exec.Command(parleyBinary(t), "stats", "--completions", "--json", "--root", r.root, "--data-dir", r.data).CombinedOutput()
	if err != nil {
		t.Fatalf("parley stats --completions: %v\n%s", err, out)
	}
	var stats []struct {
		Language                                     string
		Offered, Shown, Accepted, Partial, Dismissed int
	}
	if err := json.Unmarshal(out, &stats); err != nil || len(stats) != 1 || stats[0].Language != "go" ||
		stats[0].Offered != 3 || stats[0].Shown != 3 || stats[0].Accepted != 2 || stats[0].Dismissed != 1 {
		t.Errorf("parley stats --completions (want go: 3 offered and shown, 2 accepted, 1 dismissed): %v\n%s", err, out)
	}
}

// TestCompletionUnconfigured: the README's setup({}) with no completion
// model anywhere: typing asks, gets empty lists, shows nothing, fails
// nowhere, and at most one notice about completion arrives
// (tests/completion_off.lua).
func TestCompletionUnconfigured(t *testing.T) {
	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, nvimRun{script: "completion_off.lua", init: minimalSetup(t, plugin), files: []string{"cart/fee.go"}, userEnv: true})
	notices, _ := os.ReadFile(filepath.Join(filepath.Dir(r.data), "result.notices"))
	t.Logf("notices: %q", notices)
	if n := len(r.llm.FIMRequests()); n != 0 {
		t.Errorf("the fake completion model got %d requests", n)
	}
}
