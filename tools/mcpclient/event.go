package mcpclient

import (
	"time"

	"github.com/parleyhq/parley/agent"
)

// AgentEvent is e as the agent event front ends show (agent.EventMCP);
// false for a tool-list change, which front ends act on (Generation)
// rather than show.
func (e Event) AgentEvent() (agent.Event, bool) {
	var state string
	switch e.Kind {
	case EventFailed, EventCrashed, EventRestarting, EventRestarted:
		state = string(e.Kind)
	default:
		return agent.Event{}, false
	}
	r := &agent.MCPReport{Server: e.Server, State: state, RetrySeconds: int((e.Retry + time.Second - 1) / time.Second)}
	if e.Err != nil {
		r.Error = e.Err.Error()
	}
	return agent.Event{Kind: agent.EventMCP, Text: e.String(), MCP: r}, true
}
