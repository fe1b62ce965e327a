-- parley.mcp: what happens to the agent's MCP servers, in the chat buffer.
-- As in the terminal, a server that failed to start or died is one "✗"
-- line, a restart one "↻" line. Servers belong to the workspace, so these
-- events have no session: they are shown whatever session the buffer
-- shows, and trouble is also a notification (the chat may be closed).
local chat = require('parley.chat')
local util = require('parley.util')

local M = {}

--- The line for an mcp event.
function M.line(ev)
  local r = type(ev.mcp) == 'table' and ev.mcp or {}
  local text = ev.text
  if type(text) ~= 'string' or text == '' then
    text = 'MCP server ' .. tostring(r.server) .. ' ' .. tostring(r.state)
  end
  local mark = (r.state == 'restarting' or r.state == 'restarted') and '↻ ' or '✗ '
  return mark .. util.first_line(text, 300)
end

--- Whether the event reports trouble (not a recovery).
function M.trouble(ev)
  local r = type(ev.mcp) == 'table' and ev.mcp or {}
  return r.state == 'failed' or r.state == 'crashed'
end

--- Shows an mcp event in st's chat buffer, and trouble as a notification.
function M.show(st, ev)
  local line = M.line(ev)
  chat.render.add_event_lines(st, { line })
  if M.trouble(ev) then
    vim.notify('parley: ' .. line:sub(#'✗ ' + 1), vim.log.levels.WARN)
  end
end

return M
