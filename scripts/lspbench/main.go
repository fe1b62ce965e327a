// Command lspbench measures `parley serve` (and, when given, gopls) on a
// real tree the way an editor uses it: it starts the server as a child
// process, times process start to the first workspace/symbol answer,
// then sends many workspace/symbol, definition and references requests
// and buffer changes, and reads the server-side latencies from
// parley/serverStats (client and pipe overheads excluded) and the peak
// RSS from /proc; then it types @-mention queries a character at a time
// and times parley/mentionCandidates client-side (-only mentions: that
// alone). Run by scripts/bench.sh; prints one JSON object.
//
//	lspbench -parley bin/parley -root $(go env GOROOT)/src -data DIR [-gopls PATH] [-only mentions]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/procstat"
)

type result struct {
	StartToFirstSymbolMs  float64                    `json:"startToFirstSymbolMs"`
	Server                map[string]json.RawMessage `json:"server,omitempty"`
	PeakRSSMB             float64                    `json:"peakRssMB"`
	Requests              map[string]int             `json:"requests"`
	GoplsSymbolP50Ms      float64                    `json:"goplsSymbolP50Ms,omitempty"`
	GoplsSymbolP99Ms      float64                    `json:"goplsSymbolP99Ms,omitempty"`
	ParleySymbolClientP50 float64                    `json:"parleySymbolClientP50Ms"`
	ParleySymbolClientP99 float64                    `json:"parleySymbolClientP99Ms"`
	GoplsError            string                     `json:"goplsError,omitempty"`
	Mentions              *mentionResult             `json:"mentionCandidates,omitempty"`
}

func main() {
	bin := flag.String("parley", "bin/parley", "parley binary")
	root := flag.String("root", "", "workspace to serve")
	data := flag.String("data", "", "parley data directory (warm: indexed before)")
	gopls := flag.String("gopls", "", "gopls binary to compare workspace/symbol with (optional)")
	n := flag.Int("n", 300, "requests per method")
	only := flag.String("only", "", `"mentions": time parley/mentionCandidates alone`)
	flag.Parse()
	if *root == "" || *data == "" {
		fmt.Fprintln(os.Stderr, "lspbench: -root and -data are required")
		os.Exit(2)
	}
	res, err := run(*bin, *root, *data, *gopls, *n, *only == "mentions")
	if err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
	out, _ := json.MarshalIndent(res, "", "  ")
	fmt.Println(string(out))
}

// server is a child language server and the connection to it.
type server struct {
	cmd  *exec.Cmd
	conn jsonrpc2.Conn
	srv  protocol.Server
}

type nopClient struct{ protocol.UnimplementedClient }

func (nopClient) LogMessage(context.Context, *protocol.LogMessageParams) error           { return nil }
func (nopClient) Progress(context.Context, *protocol.ProgressParams) error               { return nil }
func (nopClient) ShowMessage(context.Context, *protocol.ShowMessageParams) error         { return nil }
func (nopClient) RegisterCapability(context.Context, *protocol.RegistrationParams) error { return nil }
func (nopClient) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

func start(ctx context.Context, name string, args []string, env []string) (*server, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	_, conn, srv := protocol.NewClient(ctx, nopClient{}, jsonrpc2.NewStream(rwc{out, in}))
	return &server{cmd: cmd, conn: conn, srv: srv}, nil
}

type rwc struct {
	io.ReadCloser
	io.WriteCloser
}

func (r rwc) Close() error { r.WriteCloser.Close(); return r.ReadCloser.Close() }

func (s *server) initialize(ctx context.Context, root string) error {
	p := &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: ptr(true)}},
	}}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: filepath.Base(root)}})
	if _, err := s.srv.Initialize(ctx, p); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	return s.srv.Initialized(ctx, &protocol.InitializedParams{})
}

func (s *server) stop(ctx context.Context) {
	s.srv.Shutdown(ctx)
	s.srv.Exit(ctx)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
	}
	s.conn.Close()
}

func ptr[T any](v T) *T { return &v }

func run(bin, root, data, gopls string, n int, mentionsOnly bool) (*result, error) {
	ctx := context.Background()
	res := &result{Requests: map[string]int{}}
	t0 := time.Now()
	s, err := start(ctx, bin, []string{"serve", "--log-file", os.DevNull, "--no-watch"}, []string{"PARLEY_DATA_DIR=" + data})
	if err != nil {
		return nil, err
	}
	if err := s.initialize(ctx, root); err != nil {
		return nil, err
	}
	if _, err := s.srv.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: "Server"}); err != nil {
		return nil, fmt.Errorf("first workspace/symbol: %w", err)
	}
	res.StartToFirstSymbolMs = ms(time.Since(t0))
	// Let the start-up incremental run finish before timing requests.
	if err := waitIdle(ctx, s); err != nil {
		return nil, err
	}
	if _, err := s.conn.Call(ctx, "parley/serverStats", map[string]bool{"reset": true}, nil); err != nil {
		return nil, err
	}
	wl := newWorkload(root, n)
	if !mentionsOnly {
		client, err := wl.drive(ctx, s, res)
		if err != nil {
			return nil, err
		}
		res.ParleySymbolClientP50, res.ParleySymbolClientP99 = quantile(client, 0.5), quantile(client, 0.99)
	}
	if res.Mentions, err = wl.driveMentions(ctx, s, n/3); err != nil {
		return nil, err
	}
	var stats struct {
		Methods map[string]json.RawMessage `json:"methods"`
	}
	if _, err := s.conn.Call(ctx, "parley/serverStats", nil, &stats); err != nil {
		return nil, err
	}
	res.Server = stats.Methods
	res.PeakRSSMB = procstat.PeakRSS(s.cmd.Process.Pid)
	s.stop(ctx)
	if gopls != "" && !mentionsOnly {
		p50, p99, err := goplsSymbols(ctx, gopls, root, wl.queries)
		if err != nil {
			res.GoplsError = err.Error()
		}
		res.GoplsSymbolP50Ms, res.GoplsSymbolP99Ms = p50, p99
	}
	return res, nil
}

// waitIdle polls parley/indexStatus until no run is in progress.
func waitIdle(ctx context.Context, s *server) error {
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		var st struct {
			Indexing bool `json:"indexing"`
			Folders  []struct {
				Runs int `json:"runs"`
			} `json:"folders"`
		}
		if _, err := s.conn.Call(ctx, "parley/indexStatus", nil, &st); err != nil {
			return err
		}
		if !st.Indexing && len(st.Folders) > 0 && st.Folders[0].Runs > 0 {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("indexing did not finish")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func quantile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return ms(s[min(len(s)-1, int(q*float64(len(s))))])
}

var identRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]{2,}\b`)

// workload is a fixed, seeded sample of the tree: symbol queries and
// identifier positions in Go files.
type workload struct {
	root    string
	queries []string
	files   []string // Go files under 50 KB, root-relative
	rng     *rand.Rand
}

func newWorkload(root string, n int) *workload {
	w := &workload{root: root, rng: rand.New(rand.NewPCG(1, 2))}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.Contains(p, "/testdata/") {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.Size() < 50<<10 {
			rel, _ := filepath.Rel(root, p)
			w.files = append(w.files, rel)
		}
		return nil
	})
	seen := map[string]bool{}
	for len(w.queries) < n && len(w.files) > 0 {
		b, _ := os.ReadFile(filepath.Join(root, w.files[w.rng.IntN(len(w.files))]))
		ids := identRE.FindAllString(string(b), -1)
		if len(ids) == 0 {
			continue
		}
		id := ids[w.rng.IntN(len(ids))]
		// Mix whole names with the prefixes users type.
		if w.rng.IntN(2) == 0 && len(id) > 4 {
			id = id[:3+w.rng.IntN(len(id)-3)]
		}
		if !seen[id] {
			seen[id] = true
			w.queries = append(w.queries, id)
		}
	}
	return w
}
