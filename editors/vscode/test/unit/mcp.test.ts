import { describe, expect, it } from 'vitest';
import type { ToView } from '../../src/webview/messages';
import type { ChatEvent, MCPReport } from '../../src/protocol';
import { type McpItem, reduceAll } from '../../src/webview/state';
import { mcpTitle } from '../../src/webview/mcpText';

// mcp events as lsp/agent.go's reportMCP sends them: no session.
function mcpEvent(r: MCPReport, text = ''): ToView {
  const event: ChatEvent = { session: '', turn: 0, kind: 'mcp', text, mcp: r };
  return { type: 'event', event };
}
const ev = (over: Partial<ChatEvent>): ToView => ({ type: 'event', event: { session: 's', turn: 1, kind: 'text', ...over } });

describe('mcp events → view state', () => {
  it('before any turn (a failed start) it is an entry of its own, and names no session', () => {
    const s = reduceAll([mcpEvent({ server: 'gh', state: 'failed', error: 'exit status 1', retrySeconds: 15 }, 'MCP server gh failed to start')]);
    expect(s.session).toBeUndefined();
    expect(s.turns).toHaveLength(1);
    expect(s.turns[0]).toMatchObject({ between: true, done: true });
    expect(s.turns[0].items).toEqual([{ kind: 'mcp', mcp: { server: 'gh', state: 'failed', error: 'exit status 1', retrySeconds: 15 }, text: 'MCP server gh failed to start' }]);
  });

  it('inside a running turn (a restart on a tool call) it is an item of the turn, in order', () => {
    const s = reduceAll([
      { type: 'userMessage', text: 'issues?' },
      { type: 'turnStart' },
      ev({ kind: 'toolCall', toolCallId: 't1', toolName: 'mcp_gh_list', input: {} }),
      mcpEvent({ server: 'gh', state: 'restarting' }),
      mcpEvent({ server: 'gh', state: 'restarted' }),
      ev({ kind: 'toolResult', toolCallId: 't1', toolName: 'mcp_gh_list', result: { content: '3 issues' } }),
      ev({ kind: 'done', stopReason: 'end_turn' }),
    ]);
    expect(s.turns).toHaveLength(1);
    expect(s.turns[0].items.map((i) => (i.kind === 'mcp' ? `mcp:${i.mcp.state}` : i.kind))).toEqual(['tool', 'mcp:restarting', 'mcp:restarted']);
    expect(s.session).toBe('s');
  });

  it('an mcp event without a report changes nothing', () => {
    const s = reduceAll([{ type: 'event', event: { session: '', turn: 0, kind: 'mcp', text: 'x' } }]);
    expect(s.turns).toHaveLength(0);
  });

  it.each([
    [{ server: 'gh', state: 'failed', retrySeconds: 30 }, 'MCP server gh failed to start; tried again at a turn after 30 s'],
    [{ server: 'gh', state: 'failed' }, 'MCP server gh failed to start'],
    [{ server: 'gh', state: 'crashed', error: 'EOF' }, 'MCP server gh stopped; it restarts when one of its tools is next called'],
    [{ server: 'gh', state: 'restarting' }, 'MCP server gh restarting…'],
    [{ server: 'gh', state: 'restarted' }, 'MCP server gh restarted'],
    [{ server: 'gh', state: 'somethingNew' }, 'MCP server gh: somethingNew'],
  ])('%o is shown as "%s"', (r, title) => {
    expect(mcpTitle(r as MCPReport)).toBe(title);
    const it = reduceAll([mcpEvent(r as MCPReport)]).turns[0].items[0] as McpItem;
    expect(it.kind).toBe('mcp');
  });
});
