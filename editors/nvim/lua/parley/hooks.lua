-- parley.hooks: hook runs in the chat buffer. As in the terminal, each run
-- that did not end ok (blocked, failed, timeout, refused because the
-- workspace's hooks are not approved) is one "⚑" line; ok runs are silent.
local chat = require('parley.chat')
local util = require('parley.util')

local M = {}

--- The line under a refusal whose text was cut before the server's
--- approval hint.
M.approve_hint = '  (approve the workspace hooks with `parley hooks approve` in a terminal)'

--- The lines for a hook event (none for an ok run).
function M.lines(ev)
  local h = type(ev.hook) == 'table' and ev.hook or {}
  if h.outcome == 'ok' then
    return {}
  end
  local lines = { '⚑ ' .. util.first_line(ev.text or ('hook ' .. tostring(h.event) .. ': ' .. tostring(h.outcome)), 300) }
  if h.outcome == 'refused' and not lines[1]:find('hooks approve', 1, true) then
    table.insert(lines, M.approve_hint)
  end
  return lines
end

--- Shows a hook event in st's chat buffer.
function M.show(st, ev)
  local lines = M.lines(ev)
  if #lines > 0 then
    chat.render.add_event_lines(st, lines)
  end
end

return M
