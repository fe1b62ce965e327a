-- The chat: one scratch buffer (filetype markdown) per parley client
-- (root). It sends parley/chat, streams parley/event into the buffer
-- (text as it arrives; tool calls, results and edits one line each; usage
-- and stop reason at the end) and keeps the session for the next message.
-- Listing, resuming and deleting sessions is parley.sessions; drawing
-- into the buffer and showing it is parley.chat_buffer.
local util = require('parley.util')
local clients = require('parley.client')
local format = require('parley.format')
local B = require('parley.chat_buffer')

local M = {}

local api = vim.api

-- root -> state:
--   root, client_id, buf
--   session      the session the next message continues (nil: a new one)
--   running      a turn runs
--   request_id   the running parley/chat or executeCommand request
--   turn_request the last turn's request (its answer may come after done)
--   waiting_new  running, and the session is not known yet (new session)
--   text_open    the last line is answer text still streaming
--   thinking_open  likewise for thinking text
--   done_seen    the running turn's done event arrived
--   error_seen   an error event arrived in this turn
--   last         the last turn's result ({session, turn, stopReason, usage, text, error})
--   answer_mark  {line count, after_events} where the running turn's answer
--                since its last tool result starts (parley.compact drops it
--                on an overflow compaction)
--   compacting   a parley/compact request runs (parley.compact)
--   events       parley/event params of this state, in order (for tests and debugging)
--   mentions     @-mentions picked for the next message (text -> Mention; parley.mentions)
--   offered      the @-mentions the completion menu shows now
--   mentions_at  the line under the running turn's user message (the mentions event goes there)
--   input_buf    the chat input buffer (parley.input)
--   prompt_uri   the file of the "parley> " prompt's context (@diagnostics of it)
M.states = {}

--- The state for a client (created on first use).
function M.state(client)
  local root = clients.root_of(client)
  local st = M.states[root]
  if not st then
    st = { root = root, events = {} }
    M.states[root] = st
  end
  st.client_id = client.id
  return st
end

local function state_for_id(client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  if client then
    return M.state(client), client
  end
  for _, st in pairs(M.states) do
    if st.client_id == client_id then
      return st, nil
    end
  end
  return nil, nil
end

--- Whether some chat turn runs.
function M.any_running()
  for _, st in pairs(M.states) do
    if st.running then
      return true
    end
  end
  return false
end

local function status_changed()
  require('parley.status').changed()
end

local split_lines, add_lines, add_event_lines = B.split_lines, B.add_lines, B.add_event_lines
local add_text, add_thinking, drop_answer, clear = B.add_text, B.add_thinking, B.drop_answer, B.clear
local footer, header = B.footer, B.header

--- The chat buffer of st (created on first use).
M.buffer = B.buffer
--- Shows the chat buffer (see parley.chat_buffer's open).
M.open = B.open

--- Adds a line to the chat buffer of a client (approvals use it).
function M.note(client_id, line)
  local st = state_for_id(client_id)
  if st then
    add_event_lines(st, split_lines(line))
  end
end

-- Rendering -----------------------------------------------------------

--- Ends the running turn (once).
local function end_turn(st)
  st.running, st.request_id, st.waiting_new, st.answer_mark = false, nil, false, nil
  status_changed()
  vim.cmd('silent doautocmd <nomodeline> User ParleyChatDone')
end

-- Events --------------------------------------------------------------

--- The parley/event handler of parley's clients.
function M.on_event(_, ev, ctx)
  if type(ev) ~= 'table' then
    return
  end
  local st = state_for_id(ctx.client_id)
  if not st or (ev.kind == 'compaction' and ev.session ~= st.session and not st.waiting_new) then
    return -- no chat here, or parley/compact of a session this buffer does not show
  end
  if ev.kind == 'mcp' and (ev.session or '') == '' then
    -- An MCP server's trouble concerns every session: it has none.
    table.insert(st.events, ev)
    require('parley.mcp').show(st, ev)
    return
  end
  if ev.session ~= st.session then
    if st.running and st.waiting_new then
      st.session, st.waiting_new = ev.session, false
    elseif st.running then
      return -- another session's turn; this buffer follows its own
    else
      -- A turn this plugin did not start (vim.lsp.buf.execute_command):
      -- follow it.
      st.session, st.running, st.done_seen, st.error_seen = ev.session, true, false, false
      header(st, 'parley', {})
      status_changed()
    end
  end
  table.insert(st.events, ev)
  local kind = ev.kind
  if kind == 'text' then
    add_text(st, ev.text or '')
  elseif kind == 'thinking' then
    add_thinking(st, ev.text or '')
  elseif kind == 'toolCall' then
    add_event_lines(st, { format.tool_call(ev.toolName, ev.input, st.root) })
  elseif kind == 'toolResult' then
    local r = ev.result or {}
    add_event_lines(st, { format.tool_result(ev.toolName, r.content, r.isError) })
    st.answer_mark = { api.nvim_buf_line_count(M.buffer(st)), true }
  elseif kind == 'edit' then
    local lines = {}
    for _, c in ipairs(ev.changes or {}) do
      local l = '✎ ' .. (c.op or 'modify') .. ' ' .. util.uri_label(c.uri, st.root)
      if c.newUri then
        l = l .. ' → ' .. util.uri_label(c.newUri, st.root)
      end
      table.insert(lines, l)
    end
    if #lines > 0 then
      add_event_lines(st, lines)
    end
  elseif kind == 'compaction' then
    require('parley.compact').show(st, ev)
  elseif kind == 'hook' then
    require('parley.hooks').show(st, ev)
  elseif kind == 'mentions' then
    require('parley.mentions').show(st, ev)
  elseif kind == 'error' then
    st.error_seen = true
    add_event_lines(st, { '✗ error: ' .. util.first_line(ev.error, 200) })
  elseif kind == 'done' then
    st.done_seen = true
    st.last = vim.tbl_extend('force', st.last or {}, {
      session = ev.session, turn = ev.turn, stopReason = ev.stopReason, usage = ev.usage,
    })
    footer(st, ev.stopReason, ev.usage)
    end_turn(st)
  end
end

--- Handles the answer to a turn's request (parley/chat or
--- workspace/executeCommand): an error, or the result when no done event
--- reported the end.
local function on_answer(st, request_id, err, result)
  if st.turn_request ~= request_id then
    return -- the answer to an earlier turn's request
  end
  local open = st.running and not st.done_seen
  if err then
    if err.code == -32800 then -- RequestCancelled; the done event says the rest
      if open then
        footer(st, 'cancelled')
        end_turn(st)
      end
      return
    end
    add_event_lines(st, { '✗ ' .. util.err_text(err) })
    if open then
      end_turn(st)
    end
    return
  end
  if type(result) ~= 'table' then
    if open then
      end_turn(st)
    end
    return
  end
  if result.session then
    st.session = result.session
  end
  st.last = vim.tbl_extend('force', st.last or {}, result)
  if result.error and result.error ~= '' and not st.error_seen then
    add_event_lines(st, { '✗ error: ' .. util.first_line(result.error, 200) })
  end
  if open then
    footer(st, result.stopReason, result.usage)
    end_turn(st)
  end
end

--- Starts a turn: state bookkeeping, then send(client, callback) sends
--- the request and returns (ok, request_id).
local function start_turn(st, client, send)
  st.running, st.done_seen, st.error_seen, st.last = true, false, false, nil
  st.waiting_new = st.session == nil
  st.answer_mark = { api.nvim_buf_line_count(M.buffer(st)), false }
  local request_id
  local ok, id = send(function(err, result)
    on_answer(st, request_id, err, result)
  end)
  if not ok then
    add_event_lines(st, { '✗ the request was not sent: the parley client has stopped' })
    end_turn(st)
    return false
  end
  request_id = id
  st.request_id, st.turn_request = id, id
  status_changed()
  return true
end

-- Context --------------------------------------------------------------

--- The chat context for the current window's buffer: its URI and the
--- selected lines (range given) or the cursor position; nil when the
--- buffer is not a file parley serves.
function M.context(client, range)
  local buf = api.nvim_get_current_buf()
  if not vim.lsp.buf_is_attached(buf, client.id) then
    return nil
  end
  local enc = client.offset_encoding or 'utf-16'
  local r
  if range and range.line1 and range.count and range.count > 0 then
    local l1, l2 = range.line1, range.line2
    local last = api.nvim_buf_get_lines(buf, l2 - 1, l2, false)[1] or ''
    r = {
      start = { line = l1 - 1, character = 0 },
      ['end'] = { line = l2 - 1, character = util.character(last, #last, enc) },
    }
  else
    local pos = api.nvim_win_get_cursor(0)
    local line = api.nvim_buf_get_lines(buf, pos[1] - 1, pos[1], false)[1] or ''
    local c = util.character(line, pos[2], enc)
    r = { start = { line = pos[1] - 1, character = c }, ['end'] = { line = pos[1] - 1, character = c } }
  end
  return { uri = vim.uri_from_bufnr(buf), range = r }
end

-- Commands -------------------------------------------------------------

--- Sends a message in the current session (or a new one with opts.new),
--- with the @-mentions picked for it (parley.mentions). Returns true when
--- the request went out.
function M.send(client, message, context, opts)
  opts = opts or {}
  local st = M.state(client)
  if st.running or st.compacting then
    util.warn(st.running and 'a turn is running; wait for it or :ParleyStop' or 'compacting the conversation; send when it is done')
    return false
  end
  if opts.new then
    M.new_session(client)
  end
  M.open(st, opts.focus ~= false)
  local lines = split_lines(message)
  local label = format.context_label(context, st.root)
  if label then
    table.insert(lines, '')
    table.insert(lines, '*context: ' .. label .. '*')
  end
  header(st, 'You', lines)
  st.mentions_at = api.nvim_buf_line_count(M.buffer(st)) -- the mentions event's lines go here
  header(st, 'parley', {})
  local params = { message = message, mentions = require('parley.mentions').take(st, message) }
  if st.session then
    params.session = st.session
  end
  if context then
    params.context = context
  end
  return start_turn(st, client, function(cb)
    return util.request(client, 'parley/chat', params, cb, st.buf)
  end)
end

--- Forgets the session: the next message starts a new one.
function M.new_session(client)
  local st = M.state(client)
  if st.running then
    util.warn('a turn is running; :ParleyStop first')
    return false
  end
  st.session, st.last = nil, nil
  clear(st)
  return true
end

--- Cancels the running turn.
function M.stop(client)
  local st = M.state(client)
  if not st.running then
    util.notify('no turn is running')
    return false
  end
  if st.request_id then
    util.cancel_request(client, st.request_id)
    return true
  end
  -- A turn started elsewhere: cancel its progress item.
  for _, item in ipairs(require('parley.status').active('chat', client.id)) do
    util.notify_server(client, 'window/workDoneProgress/cancel', { token = item.token })
    return true
  end
  util.warn('cannot cancel this turn')
  return false
end

--- The client-side handler of the code actions' commands
--- (parley.explain, ...): runs the command as a turn in a new session,
--- shown in the chat buffer.
function M.run_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    return
  end
  local st = M.state(client)
  if st.running then
    util.warn('a turn is running; wait for it or :ParleyStop')
    return
  end
  st.session, st.last = nil, nil
  clear(st)
  M.open(st, false)
  local label = format.context_label(command.arguments and command.arguments[1], st.root)
  header(st, 'You', { (command.title or command.command) .. (label and (' — ' .. label) or '') })
  header(st, 'parley', {})
  start_turn(st, client, function(cb)
    return util.request(client, 'workspace/executeCommand', {
      command = command.command,
      arguments = command.arguments,
    }, cb, ctx.bufnr)
  end)
end

--- workspace/executeCommand handler of parley's clients, for commands
--- run with vim.lsp.buf.execute_command: the result ends the turn the
--- events showed.
function M.on_command_result(err, result, ctx)
  local st = state_for_id(ctx.client_id)
  if not st then
    return
  end
  if err then
    add_event_lines(st, { '✗ ' .. util.err_text(err) })
    return
  end
  if type(result) == 'table' and result.session then
    st.last = result
    if st.running and st.request_id == nil and not st.done_seen then
      footer(st, result.stopReason, result.usage)
      end_turn(st)
    end
  end
end

-- Rendering helpers for parley.sessions, which draws a session's history
-- into the same buffer.
M.render = {
  clear = clear,
  add_lines = add_lines,
  add_event_lines = add_event_lines,
  drop_answer = drop_answer,
  header = header,
  split_lines = split_lines,
}

--- Forgets a client that exited.
function M.on_exit(client_id, root)
  local st = M.states[root]
  if st and st.client_id == client_id and st.running then
    add_event_lines(st, { '✗ the parley server exited' })
    end_turn(st)
  end
end

return M
