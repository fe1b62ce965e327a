-- parley.compact: compaction in the chat buffer. :ParleyCompact [focus]
-- sends parley/compact for the chat's session; every compaction event,
-- automatic or asked for, is one "⟳" line, like the terminal's. An
-- overflow compaction first takes back the answer text streamed since the
-- last tool result: the server dropped that answer and streams it again.
local chat = require('parley.chat')
local util = require('parley.util')

local M = {}

local r = chat.render

--- The line for a compaction: the server's one-line text (or, for a
--- record of a loaded session, the same words built from it), and the
--- focus the user gave.
function M.line(c, text)
  c = type(c) == 'table' and c or {}
  if not text or text == '' then
    local did = {}
    local function count(n, one, many)
      if (n or 0) > 0 then
        table.insert(did, string.format('%d %s', n, n == 1 and one or many))
      end
    end
    count(c.masked, 'tool result masked', 'tool results masked')
    count(c.summarised, 'message summarised', 'messages summarised')
    count(c.clipped, 'tool result cut', 'tool results cut')
    text = string.format('compacted the conversation (%s): %d -> %d tokens; %s', c.reason or '?',
      c.tokensBefore or 0, c.tokensAfter or 0, table.concat(did, ', '))
  end
  if type(c.focus) == 'string' and c.focus ~= '' then
    text = text .. ' (focus: ' .. util.first_line(c.focus, 80) .. ')'
  end
  return '⟳ ' .. text
end

--- Shows a compaction event in st's chat buffer.
function M.show(st, ev)
  local c = type(ev.compaction) == 'table' and ev.compaction or {}
  if c.reason == 'overflow' and st.running then
    r.drop_answer(st)
  end
  r.add_event_lines(st, { M.line(c, ev.text) })
end

--- :ParleyCompact [focus]: compacts the chat's session now. The result
--- only says whether there was anything to compact; the compaction itself
--- arrives as an event. Returns true when the request went out.
function M.compact(client, focus)
  local st = chat.state(client)
  if st.running then
    util.warn('a turn is running; compact when it ends')
    return false
  end
  if st.compacting then
    util.warn('already compacting')
    return false
  end
  if not st.session then
    util.warn('nothing to compact: no chat session yet (:ParleyChat, or resume one with :ParleySessions)')
    return false
  end
  local params = { session = st.session }
  focus = vim.trim(focus or '')
  if focus ~= '' then
    params.focus = focus
  end
  st.compacting = true
  local status = require('parley.status')
  local ok = util.request(client, 'parley/compact', params, function(err, result)
    st.compacting = false
    status.changed()
    if err then
      r.add_event_lines(st, { '✗ compact: ' .. util.err_text(err) })
    elseif type(result) ~= 'table' or result.compaction == nil or result.compaction == vim.NIL then
      util.notify('nothing to compact yet')
    end
    st.last_compact = { err = err, result = result }
    vim.cmd('silent doautocmd <nomodeline> User ParleyCompactDone')
  end, st.buf)
  if not ok then
    st.compacting = false
    util.warn('the request was not sent: the parley client has stopped')
    return false
  end
  status.changed()
  chat.open(st, false)
  return true
end

return M
