package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/lspclient"
)

// startLSP returns the language servers' manager of a chat, loop or ACP
// workspace, nil when none can run. Servers start on the first edit.
func startLSP(cfg *config.Config, warn func(error)) *lspclient.Manager {
	return lspclient.FromConfig(cfg, warn)
}

func newLSPCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Language servers the agent runs for diagnostics",
		Args:  cobra.NoArgs,
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the configured language servers and whether their binaries are found",
		Long: "List the language servers the agent starts for the diagnostics of its edits in parley chat, " +
			"parley loop and parley acp: the configured ones (\"lsp\" in the config) and the defaults " +
			"(gopls, pyright-langserver, typescript-language-server), each with the binary found on PATH. " +
			"Servers run inside those commands and only while they run; this command starts none.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := g.workspaceRoot()
			if err != nil {
				return err
			}
			cfg, err := config.Load(config.Options{Workspace: root})
			if err != nil {
				return err
			}
			return printLSPList(g.stdout, cfg, asJSON, nil)
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(list)
	return cmd
}

// lspListEntry is one row of `parley lsp list --json`.
type lspListEntry struct {
	Name      string   `json:"name"`
	Command   []string `json:"command"`
	Languages []string `json:"languages"`
	Source    string   `json:"source"` // "default" or the file that configured it
	Disabled  bool     `json:"disabled,omitempty"`
	Path      string   `json:"path,omitempty"` // the binary found; empty: not found
	Status    string   `json:"status"`
	// Running lists this process's instances (parley chat's /lsp).
	Running []lspclient.Status `json:"running,omitempty"`
}

// printLSPList prints the configured and default servers, with running
// (a Manager's, nil outside a session) beside them.
func printLSPList(out io.Writer, cfg *config.Config, asJSON bool, running []lspclient.Status) error {
	var rows []lspListEntry
	for _, e := range cfg.LSPServers(nil) {
		r := lspListEntry{Name: e.Name, Command: e.Command, Languages: e.Languages, Source: e.Source, Disabled: e.Disabled, Path: e.Path}
		for _, st := range running {
			if st.Name == e.Name {
				r.Running = append(r.Running, st)
			}
		}
		if e.Default {
			r.Source = "default"
		}
		switch {
		case e.Disabled:
			r.Status = "disabled"
		case e.Path == "":
			r.Status = "not found"
		case len(r.Running) > 0:
			r.Status = "running"
		default:
			r.Status = "found"
		}
		rows = append(rows, r)
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"servers": rows, "timeout_ms": cfg.LSPTimeoutMS})
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSTATUS\tCOMMAND\tBINARY\tLANGUAGES\tFROM")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Status, strings.Join(r.Command, " "), cmp.Or(r.Path, "-"),
			strings.Join(r.Languages, ","), r.Source)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		for _, st := range r.Running {
			fmt.Fprintf(out, "%s runs as pid %d for %s with %d file(s) open\n", r.Name, st.PID, st.Root, st.Documents)
		}
	}
	fmt.Fprintf(out, "Found servers start on the agent's first edit of their languages; diagnostics wait up to %d ms (lsp_timeout_ms).\n", cfg.LSPTimeoutMS)
	return nil
}
