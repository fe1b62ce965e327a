package agent

import (
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/tools/mcpclient"
)

func TestMCPEvent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    mcpclient.Event
		shown bool
		want  MCPReport
	}{
		{"failed rounds the retry up", mcpclient.Event{Server: "db", Kind: mcpclient.EventFailed, Err: errors.New("exec: not found"), Retry: 1500 * time.Millisecond},
			true, MCPReport{Server: "db", State: "failed", Error: "exec: not found", RetrySeconds: 2}},
		{"crashed", mcpclient.Event{Server: "db", Kind: mcpclient.EventCrashed, Err: errors.New("EOF")},
			true, MCPReport{Server: "db", State: "crashed", Error: "EOF"}},
		{"restarted", mcpclient.Event{Server: "db", Kind: mcpclient.EventRestarted}, true, MCPReport{Server: "db", State: "restarted"}},
		{"a tool-list change is not shown", mcpclient.Event{Server: "db", Kind: mcpclient.EventToolsChanged}, false, MCPReport{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, ok := MCPEvent(tc.in)
			if ok != tc.shown {
				t.Fatalf("shown = %v, want %v", ok, tc.shown)
			}
			if !ok {
				return
			}
			if ev.Kind != EventMCP || ev.Text != tc.in.String() || ev.MCP == nil || *ev.MCP != tc.want {
				t.Errorf("MCPEvent = %+v (report %+v), want kind mcp, text %q, report %+v", ev, ev.MCP, tc.in.String(), tc.want)
			}
		})
	}
}
