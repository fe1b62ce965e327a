// The harness: the parley build, one headless Neovim run, and readers of
// the fake model's requests.

package nvim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/nvimtest"
)

// nvimTimeout bounds one Neovim run; the scripts' own waits are shorter.
const nvimTimeout = 120 * time.Second

var (
	buildOnce sync.Once
	binDir    string // holds the parley binary; removed by TestMain
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// parleyBinary builds cmd/parley once per test binary run.
func parleyBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		gotool, err := exec.LookPath("go")
		if err != nil {
			buildErr = fmt.Errorf("go not found: %w", err)
			return
		}
		binDir, err = os.MkdirTemp("", "parley-nvim-test-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(binDir, "parley")
		out, err := exec.Command(gotool, "build", "-o", binPath, "github.com/parleyhq/parley/cmd/parley").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// The fixture workspace is the shared testdata/workspaces/shop.txtar plus
// a .parley root marker. Line 4 of cart/fee.go has non-ASCII text before
// the edited expression, so positions must be converted to the client's
// encoding.
const workspace = "shop"

// The edit the scripted model asks for.
const (
	oldExpr = `return Fee() - 1`
	newExpr = `return Fee() - 2`
)

// nvimRun is one headless Neovim run of a test script.
type nvimRun struct {
	script string   // file name under tests/
	llm    string   // the fake model's script (without the key line)
	mode   string   // the agent's permission mode
	env    []string // more environment, "K=V"
	// init, when set, is the user's init.lua (Neovim starts with -u, not
	// --clean); the plugin must then be put on the runtimepath there.
	init string
	// files are given on the command line (relative to the workspace).
	files []string
	// userEnv sets up what a user of the minimal setup has: parley on
	// $PATH and the model configured in the environment.
	userEnv bool
	// userConfig is the user's ~/.config/parley/config.json.
	userConfig string
	// workspaceFiles are written into the workspace (path: content).
	// In them and in userConfig, <FAKELLM_URL> stands for the fake model
	// API's base URL.
	workspaceFiles map[string]string
}

// runResult is what a run leaves for the test to check.
type runResult struct {
	root string          // the fixture workspace
	llm  *fakellm.Server // the fake model API
	data string          // the server's data directory (serve.log)
}

const apiKey = "nvim-plugin-test-key"

// run starts the fake model API, creates the fixture workspace and runs
// headless Neovim with the plugin on its runtimepath and r.script, which
// must write "ok" to its result file.
func run(t *testing.T, r nvimRun) runResult {
	t.Helper()
	nvim := nvimtest.Path(t)
	bin := parleyBinary(t)
	url, llm := fakellm.Start(t, "key "+apiKey+"\n"+r.llm)

	tmp := t.TempDir()
	root := fixture.Workspace(t, workspace)
	fixture.WriteTree(t, root, map[string]string{".parley/.keep": ""})
	files := map[string]string{}
	for p, content := range r.workspaceFiles {
		files[p] = strings.ReplaceAll(content, "<FAKELLM_URL>", url)
	}
	fixture.WriteTree(t, root, files)
	root2 := filepath.Join(tmp, "other")
	fixture.WriteTree(t, root2, map[string]string{".git/.keep": "", "main.go": "package main\n\nfunc main() {}\n"})
	data := filepath.Join(tmp, "data")
	xdg := filepath.Join(tmp, "xdg")
	for _, d := range []string{data, xdg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if r.userConfig != "" {
		fixture.WriteTree(t, filepath.Join(xdg, "config"), map[string]string{"parley/config.json": strings.ReplaceAll(r.userConfig, "<FAKELLM_URL>", url)})
	}
	result := filepath.Join(tmp, "result")

	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(plugin, "tests", r.script)
	mode := r.mode
	if mode == "" {
		mode = "acceptEdits"
	}

	args := []string{"--headless", "--clean", "-n", "--cmd", "set rtp+=" + plugin}
	if r.init != "" {
		initFile := filepath.Join(tmp, "init.lua")
		if err := os.WriteFile(initFile, []byte(r.init), 0o644); err != nil {
			t.Fatal(err)
		}
		args = []string{"--headless", "-n", "-i", "NONE", "-u", initFile}
	}
	args = append(append(args, r.files...), "-c", "luafile "+script)
	ctx, cancel := context.WithTimeout(context.Background(), nvimTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, args...)
	cmd.Dir = root
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = append(nvimtest.CleanEnv(),
		"PARLEY_DATA_DIR="+data,
		"XDG_CONFIG_HOME="+filepath.Join(xdg, "config"),
		"XDG_STATE_HOME="+filepath.Join(xdg, "state"),
		"XDG_DATA_HOME="+filepath.Join(xdg, "data"),
		"XDG_CACHE_HOME="+filepath.Join(xdg, "cache"),
		"PARLEY_TEST_BIN="+bin,
		"PARLEY_TEST_ROOT="+root,
		"PARLEY_TEST_ROOT2="+root2,
		"PARLEY_TEST_RESULT="+result,
		"PARLEY_TEST_API_URL="+url+"/v1/chat/completions",
		"PARLEY_TEST_API_KEY="+apiKey,
		"PARLEY_TEST_MODE="+mode,
	)
	if r.userEnv {
		cmd.Env = append(cmd.Env,
			"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
			"PARLEY_API_URL="+url+"/v1/chat/completions", "PARLEY_API_KEY="+apiKey,
			"PARLEY_PROVIDER=openai-compatible", "PARLEY_MODEL=fake-model")
	}
	cmd.Env = append(cmd.Env, r.env...)
	// Registered after the temporary directories, so it runs before they
	// are removed: the servers Neovim started may still be closing their
	// stores.
	t.Cleanup(func() { nvimtest.AwaitServersGone(t, "PARLEY_TEST_RESULT="+result) })
	out, runErr := cmd.CombinedOutput()
	got, _ := os.ReadFile(result)
	res := runResult{root: root, llm: llm, data: data}
	if strings.TrimSpace(string(got)) != "ok" || runErr != nil {
		if ctx.Err() != nil {
			runErr = fmt.Errorf("%v (killed after %s)", runErr, nvimTimeout)
		}
		chats, _ := os.ReadFile(result + ".chat")
		t.Fatalf("neovim (tests/%s): %v\nresult: %s\noutput: %s\nchat buffers:\n%s\n%s\nserver log:\n%s\nNeovim's LSP log:\n%s",
			r.script, runErr, got, out, chats, modelRequests(llm.Requests()), nvimtest.ServerLog(data), lspLog(xdg))
	}
	return res
}

// lspLog is Neovim's LSP log (the server's stderr lands there): in
// $XDG_CACHE_HOME/nvim before Neovim 0.8, $XDG_STATE_HOME/nvim after.
func lspLog(xdg string) string {
	for _, p := range []string{"cache/nvim/lsp.log", "state/nvim/lsp.log"} {
		if b, err := os.ReadFile(filepath.Join(xdg, filepath.FromSlash(p))); err == nil {
			return string(b)
		}
	}
	return "(none)"
}

// modelRequests summarises what the fake model received, for failure
// messages: each request's messages except the system prompt, cut to 400
// bytes.
func modelRequests(reqs [][]byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the model got %d requests\n", len(reqs))
	for i, r := range reqs {
		for _, m := range chatMessages(r) {
			if m.Role == "system" {
				continue
			}
			msg, _ := json.Marshal(m)
			fmt.Fprintf(&b, "request %d: %.400s\n", i+1, msg)
		}
	}
	return b.String()
}

// message is one message of an OpenAI chat completions request.
type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls,omitempty"`
}

func chatMessages(body []byte) []message {
	var req struct {
		Messages []message `json:"messages"`
	}
	json.Unmarshal(body, &req)
	return req.Messages
}

// conversation is the text of a request's messages other than the system
// prompt, for substring checks.
func conversation(body []byte) string {
	var b strings.Builder
	for _, m := range chatMessages(body) {
		if m.Role != "system" {
			b.Write(m.Content)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// toolResult is the content of the tool message answering the request's
// only call of tool, or "".
func toolResult(body []byte, tool string) string {
	msgs := chatMessages(body)
	id := ""
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.Function.Name == tool {
				id = c.ID
			}
		}
	}
	for _, m := range msgs {
		if id != "" && m.Role == "tool" && m.ToolCallID == id {
			return string(m.Content)
		}
	}
	return ""
}

// TestSetup: setup() attaches buffers to one client per root (a second
// root gets its own), the statusline shows indexing and then "idle",
// :ParleyIndexStatus echoes the status and :ParleyReindex starts a run
// (tests/setup.lua).
