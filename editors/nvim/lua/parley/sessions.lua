-- parley.sessions: listing, resuming and deleting the server's chat
-- sessions (parley/sessions, parley/session, parley/deleteSession); a
-- resumed session's history is drawn into its root's chat buffer.
local chat = require('parley.chat')
local format = require('parley.format')
local util = require('parley.util')

local M = {}

local r = chat.render

-- How the message that replaced a compacted history starts
-- (agent/compact_summary.go's summaryHeader).
local SUMMARY_HEADER = '[Compacted history]'

local function render_history(st, session)
  r.clear(st)
  r.add_lines(st, { '# ' .. ((session.title and session.title ~= '') and session.title or session.id), '',
    '*session ' .. session.id .. ' · ' .. (session.turns or 0) .. ' turns*' })
  -- A compaction record does not say where in the history it happened:
  -- they all come first, and the summary that replaced the earlier
  -- conversation has a header of its own.
  local compact = require('parley.compact')
  local past = { '' }
  for _, c in ipairs(type(session.compactions) == 'table' and session.compactions or {}) do
    table.insert(past, compact.line(c))
  end
  if #past > 1 then
    r.add_lines(st, past)
  end
  local names = {}
  for _, msg in ipairs(session.messages or {}) do
    local texts, tools = {}, {}
    for _, b in ipairs(msg.blocks or {}) do
      if b.kind == 'text' and b.text and b.text ~= '' then
        table.insert(texts, b.text)
      elseif b.kind == 'tool_use' then
        names[b.toolCallId or ''] = b.toolName
        local input = b.input
        if type(input) == 'string' then
          local ok, decoded = pcall(vim.json.decode, input)
          input = ok and decoded or nil
        end
        table.insert(tools, format.tool_call(b.toolName, input, st.root))
      elseif b.kind == 'tool_result' then
        table.insert(tools, format.tool_result(names[b.toolCallId or ''], b.text, b.isError))
      end
    end
    if #texts > 0 then
      local lines = {}
      for _, t in ipairs(texts) do
        vim.list_extend(lines, r.split_lines(t))
      end
      local who = msg.role == 'user' and 'You' or 'parley'
      if msg.role == 'user' and texts[1]:sub(1, #SUMMARY_HEADER) == SUMMARY_HEADER then
        who = 'Summary of the earlier conversation'
      end
      r.header(st, who, lines)
    end
    if #tools > 0 then
      if #texts == 0 and msg.role == 'assistant' then
        r.header(st, 'parley', {})
      end
      r.add_lines(st, tools)
    end
  end
  r.add_lines(st, { '' })
end

--- Loads a session's history into the chat buffer and continues it.
function M.resume(client, id, cb)
  local st = chat.state(client)
  if st.running then
    util.warn('a turn is running; :ParleyStop first')
    return
  end
  util.request(client, 'parley/session', { session = id }, function(err, session)
    if err then
      util.error('parley/session: ' .. util.err_text(err))
      return
    end
    st.session, st.last = session.id, nil
    render_history(st, session)
    chat.open(st, true)
    if cb then
      cb(session)
    end
  end, st.buf)
end

local function session_label(s)
  local when = tostring(s.updated or s.created or ''):gsub('T', ' '):gsub('%.%d+', ''):gsub('Z$', '')
  local title = (s.title and s.title ~= '') and s.title or '(untitled)'
  local extra = s.running and 'running' or ((s.turns or 0) .. ' turns')
  return string.format('%s  [%s, %s]', title, extra, when)
end

--- Lists the sessions with vim.ui.select; the chosen one is passed to
--- on_choice(client, session).
function M.pick_session(client, prompt, on_choice)
  util.request(client, 'parley/sessions', vim.empty_dict(), function(err, result)
    if err then
      util.error('parley/sessions: ' .. util.err_text(err))
      return
    end
    local list = (result and result.sessions) or {}
    if #list == 0 then
      util.notify('no sessions yet')
      return
    end
    vim.ui.select(list, { prompt = prompt, kind = 'parley.session', format_item = session_label }, function(s)
      if s then
        on_choice(client, s)
      end
    end)
  end)
end

--- :ParleySessions: pick a session and resume it.
function M.sessions(client)
  M.pick_session(client, 'parley sessions', function(c, s)
    M.resume(c, s.id)
  end)
end

--- :ParleyDeleteSession: pick a session and delete it.
function M.delete_session(client)
  M.pick_session(client, 'delete parley session', function(c, s)
    util.request(c, 'parley/deleteSession', { session = s.id }, function(err)
      if err then
        util.error('parley/deleteSession: ' .. util.err_text(err))
        return
      end
      local st = chat.state(c)
      if st.session == s.id then
        st.session = nil
      end
      util.notify('deleted session ' .. s.id)
    end)
  end)
end

return M
