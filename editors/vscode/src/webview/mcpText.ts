// How the chat view words an MCP server's trouble (pure; used by the page and tested).

import type { MCPReport } from '../protocol';

/** The entry's line: "MCP server github failed to start; retried in 15 s". */
export function mcpTitle(r: MCPReport): string {
  switch (r.state) {
    case 'failed':
      return `MCP server ${r.server} failed to start${r.retrySeconds ? `; tried again at a turn after ${r.retrySeconds} s` : ''}`;
    case 'crashed':
      return `MCP server ${r.server} stopped; it restarts when one of its tools is next called`;
    case 'restarting':
      return `MCP server ${r.server} restarting…`;
    case 'restarted':
      return `MCP server ${r.server} restarted`;
  }
  return `MCP server ${r.server}: ${r.state}`;
}
