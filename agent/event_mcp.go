package agent

import (
	"time"

	"github.com/parleyhq/parley/tools/mcpclient"
)

// MCPEvent is e as the agent event front ends show (EventMCP); false for
// a tool-list change, which front ends act on (Generation) rather than
// show. It lives here rather than in mcpclient so that the MCP client
// does not depend on the agent.
func MCPEvent(e mcpclient.Event) (Event, bool) {
	var state string
	switch e.Kind {
	case mcpclient.EventFailed, mcpclient.EventCrashed, mcpclient.EventRestarting, mcpclient.EventRestarted:
		state = string(e.Kind)
	default:
		return Event{}, false
	}
	r := &MCPReport{Server: e.Server, State: state, RetrySeconds: int((e.Retry + time.Second - 1) / time.Second)}
	if e.Err != nil {
		r.Error = e.Err.Error()
	}
	return Event{Kind: EventMCP, Text: e.String(), MCP: r}, true
}
