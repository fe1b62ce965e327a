-- Inline completion as ghost text (docs/protocol.md, "Inline completion
-- and next-edit proposals"). In Insert mode, once typing pauses for
-- `completion.debounce_ms`, the plugin asks the buffer's parley server
-- `parley/inlineCompletion` (Neovim's LSP client predates LSP 3.18's
-- textDocument/inlineCompletion) and shows the first item after the
-- cursor: its first line as virtual text, the rest as virtual lines below.
-- Typing the next characters of the suggestion keeps it (trimmed); any
-- other change, a cursor move or leaving Insert mode dismisses it. The
-- accept key inserts it as one undo step and runs the item's command
-- (parley.completion.accepted, which the server counts); shown and
-- dismissed items are reported with parley/completionEvent. See :help parley-completion.
--
-- One suggestion exists at a time (Insert mode has one cursor): the state
-- below is the module's, not a buffer's.
local config = require('parley.config')
local util = require('parley.util')
local items_of = require('parley.completion_items')

local M = {}

local api = vim.api
local cursor = util.cursor
local line_at = util.line_at

M.ns = api.nvim_create_namespace('parley_completion')

-- 0.10 and later draw virtual text inside the line ('inline').
local has_inline = vim.fn.has('nvim-0.10') == 1

-- nil until setup(): then the option, flipped by :ParleyCompletionToggle.
M.enabled = nil

-- The request in flight: { client, id, buf, tick, row, col }.
local pending = nil
-- The suggestion shown: { client, buf, row, col, tick, before, after,
-- items = { { item, id, ghost, stop } }, index, mark, seen = {id = true} }.
-- row and col are the cursor's (0-based row, byte column); before and
-- after the line's text around it; an item's ghost is the text it would
-- insert at the cursor, stop the byte column where the text it replaces
-- ends (col unless the item overwrites part of the suffix).
local shown = nil
local timer = nil
-- Client ids whose server does not know parley/inlineCompletion.
local unsupported = {}

local function opts()
  local o = config.options.completion
  if type(o) ~= 'table' then
    return config.defaults.completion
  end
  return o
end

--- The parley client attached to buf, or nil. Tests replace it.
function M.client_for(buf)
  for _, c in ipairs(require('parley.client').all()) do
    if vim.lsp.buf_is_attached(buf, c.id) then
      return c
    end
  end
  return nil
end

local function in_insert()
  local m = api.nvim_get_mode().mode
  return m == 'i' or m == 'ic' or m == 'ix'
end

local function event(client, id, name, chars)
  if client and id ~= nil then
    pcall(util.notify_server, client, 'parley/completionEvent', { id = id, event = name, chars = chars })
  end
end

-- Rendering ------------------------------------------------------------

local function clear_mark()
  if shown and shown.mark and api.nvim_buf_is_valid(shown.buf) then
    pcall(api.nvim_buf_del_extmark, shown.buf, M.ns, shown.mark)
  end
  if shown then
    shown.mark = nil
  end
end

-- Where the first line goes. Neovim 0.10+: inline at the cursor. Before
-- that there is no inline virtual text: at the end of the line the first
-- line overlays the (empty) rest of the line, which looks like inserted
-- text; with text after the cursor, overlaying would hide that text, so
-- the suggestion goes after the end of the line ('eol') instead.
local function render()
  clear_mark()
  local cur = shown.items[shown.index]
  local ts = vim.bo[shown.buf].tabstop
  local lines = vim.split(cur.ghost, '\n', { plain = true })
  local hl = 'ParleyGhostText'
  local o = { hl_mode = 'combine', right_gravity = false }
  local first = lines[1]
  if first ~= '' then
    if has_inline then
      o.virt_text_pos = 'inline'
      o.virt_text = { { items_of.expand_tabs(first, vim.fn.strdisplaywidth(shown.before), ts), hl } }
    elseif shown.after == '' then
      o.virt_text_pos = 'overlay'
      o.virt_text = { { items_of.expand_tabs(first, vim.fn.strdisplaywidth(shown.before), ts), hl } }
    else
      o.virt_text_pos = 'eol'
      o.virt_text = { { items_of.expand_tabs(first, 0, ts), hl } }
    end
  end
  if #lines > 1 then
    o.virt_lines = {}
    for i = 2, #lines do
      table.insert(o.virt_lines, { { items_of.expand_tabs(lines[i], 0, ts), hl } })
    end
  end
  shown.mark = api.nvim_buf_set_extmark(shown.buf, M.ns, shown.row, shown.col, o)
  local id = cur.id
  if id ~= nil and not shown.seen[id] then
    shown.seen[id] = true
    event(shown.client, id, 'shown')
  end
end

-- Requests -------------------------------------------------------------

local function cancel_pending()
  if pending then
    pcall(util.cancel_request, pending.client, pending.id)
    pending = nil
  end
end

local function stop_timer()
  if timer then
    timer:stop()
  end
end

--- Clears the suggestion; reports it dismissed unless why is false.
local function clear(why)
  if not shown then
    return
  end
  clear_mark()
  local s = shown
  shown = nil
  if why ~= false then
    local reported = {}
    for _, it in ipairs(s.items) do
      if it.id ~= nil and s.seen[it.id] and not reported[it.id] then
        reported[it.id] = true
        event(s.client, it.id, 'dismissed')
      end
    end
  end
end

local function on_result(p, err, result)
  if pending ~= p then
    return
  end
  pending = nil
  if err then
    if err.code == -32601 then
      unsupported[p.client.id] = true
    end
    return
  end
  if not (api.nvim_buf_is_valid(p.buf) and api.nvim_get_current_buf() == p.buf and in_insert()) or
      vim.fn.pumvisible() == 1 then
    return
  end
  local row, col = cursor()
  if api.nvim_buf_get_changedtick(p.buf) ~= p.tick or row ~= p.row or col ~= p.col then
    return
  end
  local line = line_at(p.buf, row)
  local items = items_of.suggestions(result, line, row, col, p.client.offset_encoding or 'utf-16')
  clear()
  if #items == 0 then
    return
  end
  shown = {
    client = p.client, buf = p.buf, row = row, col = col, tick = p.tick,
    before = line:sub(1, col), after = line:sub(col + 1),
    items = items, index = 1, seen = {},
  }
  render()
end

local function wanted(buf)
  if not M.enabled or vim.bo[buf].buftype ~= '' then
    return false
  end
  local fts = opts().filetypes
  if type(fts) == 'table' and #fts > 0 then
    local ft = vim.bo[buf].filetype
    for _, f in ipairs(fts) do
      if f == ft or f == '*' then
        return true
      end
    end
    return false
  end
  return true
end

--- Sends parley/inlineCompletion for the cursor now (cancelling the
--- request in flight). trigger is 2 (automatic) or 1 (invoked).
function M.request(trigger)
  stop_timer()
  local buf = api.nvim_get_current_buf()
  -- Not while Insert-mode completion shows its menu.
  if not (in_insert() and wanted(buf)) or vim.fn.pumvisible() == 1 then
    return false
  end
  local client = M.client_for(buf)
  if not client or unsupported[client.id] then
    return false
  end
  cancel_pending()
  local row, col = cursor()
  local line = line_at(buf, row)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = row, character = util.character(line, col, client.offset_encoding or 'utf-16') },
    context = { triggerKind = trigger or 2 },
  }
  local p = { client = client, buf = buf, tick = api.nvim_buf_get_changedtick(buf), row = row, col = col }
  pending = p
  local ok, id = util.request(client, 'parley/inlineCompletion', params, function(err, result)
    on_result(p, err, result)
  end, buf)
  if not ok then
    if pending == p then
      pending = nil
    end
    return false
  end
  p.id = id
  return true
end

local function schedule()
  if not timer then
    timer = vim.loop.new_timer()
  end
  timer:stop()
  local ms = tonumber(opts().debounce_ms) or 50
  timer:start(math.max(ms, 0), 0, vim.schedule_wrap(function()
    M.request(2)
  end))
end

-- Following the buffer -------------------------------------------------

--- After the text changed under a suggestion: whether it was typed
--- through (the line around the anchor unchanged, the new text a prefix
--- of the ghost text); the suggestion is then trimmed.
local function typed_through(buf, row, col)
  if buf ~= shown.buf or row ~= shown.row or col < shown.col then
    return false
  end
  local line = line_at(buf, row)
  if line:sub(1, shown.col) ~= shown.before or line:sub(col + 1) ~= shown.after then
    return false
  end
  local typed = line:sub(shown.col + 1, col)
  if typed == shown.items[shown.index].ghost then
    -- Typed to its end: neither accepted with the key nor dismissed;
    -- ask for what comes next.
    clear(false)
    return false
  end
  local keep, index = {}, nil
  for i, it in ipairs(shown.items) do
    if #it.ghost > #typed and it.ghost:sub(1, #typed) == typed then
      it.ghost = it.ghost:sub(#typed + 1)
      it.stop = it.stop + #typed
      table.insert(keep, it)
      if i == shown.index then
        index = #keep
      end
    end
  end
  if #keep == 0 then
    return false
  end
  shown.items, shown.index = keep, index or 1
  shown.col, shown.before = col, line:sub(1, col)
  shown.tick = api.nvim_buf_get_changedtick(buf)
  render()
  return true
end

--- CursorMovedI and TextChangedI: keep, trim or dismiss the suggestion,
--- and ask again after a change.
local function on_move_or_change()
  local buf = api.nvim_get_current_buf()
  local row, col = cursor()
  local tick = api.nvim_buf_get_changedtick(buf)
  if shown then
    if buf == shown.buf and tick == shown.tick and row == shown.row and col == shown.col then
      return
    end
    if tick ~= shown.tick and typed_through(buf, row, col) then
      return
    end
    clear()
  end
  if M.last_tick ~= tick or M.last_buf ~= buf then
    M.last_tick, M.last_buf = tick, buf
    if wanted(buf) then
      schedule()
    end
  end
end

--- Ends everything: the suggestion (reported dismissed), the timer and
--- the request in flight.
function M.dismiss()
  stop_timer()
  cancel_pending()
  local had = shown ~= nil
  clear()
  return had
end

-- Keys and API ---------------------------------------------------------

--- Whether a suggestion is shown.
function M.visible()
  return shown ~= nil and api.nvim_get_current_buf() == shown.buf
end

--- The text the shown suggestion would insert at the cursor, or nil.
function M.text()
  return M.visible() and shown.items[shown.index].ghost or nil
end

--- Replaces s.buf's text from the anchor (s.row, s.col) to byte column
--- stop of that row with text, as an undo step of its own, and puts the
--- cursor at its end. Returns the end's row and column, or nil.
local function insert(s, text, stop)
  local lines = vim.split(text, '\n', { plain = true })
  -- Its own undo step: break the sequence before the change (setting
  -- 'undolevels' does) and after it (<C-G>u, ahead of any typed keys).
  vim.o.undolevels = vim.o.undolevels
  local ok, err = pcall(api.nvim_buf_set_text, s.buf, s.row, s.col, s.row, stop, lines)
  if not ok then
    util.error('could not insert the completion: ' .. tostring(err))
    return nil
  end
  local row = s.row + #lines - 1
  local col = (#lines == 1 and s.col or 0) + #lines[#lines]
  pcall(api.nvim_win_set_cursor, 0, { row + 1, col })
  if in_insert() then
    api.nvim_feedkeys(api.nvim_replace_termcodes('<C-g>u', true, false, true), 'ni', false)
  end
  return row, col
end

--- Inserts the shown suggestion (one undo step), moves the cursor to its
--- end and runs the item's command. Returns false when none is shown.
function M.accept()
  if not M.visible() then
    return false
  end
  stop_timer()
  cancel_pending()
  local s = shown
  local cur = s.items[s.index]
  clear_mark()
  shown = nil
  if not insert(s, cur.ghost, math.max(cur.stop, s.col)) then
    return false
  end
  -- The change is ours: no new request until the user types.
  M.last_tick, M.last_buf = api.nvim_buf_get_changedtick(s.buf), s.buf
  -- The item's command (parley.completion.accepted) is how the server
  -- learns of the acceptance; an "accepted" event as well would count it
  -- twice.
  local cmd = cur.item.command
  if type(cmd) == 'table' and type(cmd.command) == 'string' and cmd.command ~= '' then
    pcall(util.request, s.client, 'workspace/executeCommand',
      { command = cmd.command, arguments = cmd.arguments }, function() end, s.buf)
  end
  return true
end

--- Inserts the part of the shown suggestion that take(ghost) returns and
--- keeps the rest shown; the whole of it is an ordinary accept. Each part
--- is its own undo step; the server hears "partial" with the characters
--- accepted so far.
local function accept_part(take)
  if not M.visible() then
    return false
  end
  local s = shown
  local cur = s.items[s.index]
  local part = take(cur.ghost)
  if part == cur.ghost or part == '' then
    return M.accept()
  end
  stop_timer()
  cancel_pending()
  local row, col = insert(s, part, s.col)
  if not row then
    return false
  end
  -- The rest of this item stays; the others began differently.
  local line = line_at(s.buf, row)
  cur.ghost, cur.stop = cur.ghost:sub(#part + 1), col + (cur.stop - s.col)
  cur.partial = (cur.partial or 0) + vim.fn.strchars(part)
  s.items, s.index = { cur }, 1
  s.row, s.col, s.before, s.after = row, col, line:sub(1, col), line:sub(col + 1)
  s.tick = api.nvim_buf_get_changedtick(s.buf)
  M.last_tick, M.last_buf = s.tick, s.buf
  render()
  event(s.client, cur.id, 'partial', cur.partial)
  return true
end

--- Accepts the next word of the shown suggestion.
function M.accept_word()
  return accept_part(items_of.next_word)
end

--- Accepts the rest of the line of the shown suggestion.
function M.accept_line()
  return accept_part(items_of.next_line)
end

--- Asks for a completion at the cursor now, as an explicit request
--- (trigger kind 1: the server then also completes inside comments and
--- strings). True when a request was sent.
function M.invoke()
  if not M.enabled then
    return false
  end
  M.dismiss()
  return M.request(1)
end

local function cycle(step)
  if not M.visible() or #shown.items < 2 then
    return false
  end
  shown.index = (shown.index - 1 + step) % #shown.items + 1
  render()
  return true
end

--- Shows the next (or previous) alternative, when the server sent more
--- than one.
function M.next()
  return cycle(1)
end

function M.prev()
  return cycle(-1)
end

--- Turns inline completion on or off (on: true, off: false, flip: nil).
function M.toggle(on)
  if on == nil then
    on = not M.enabled
  end
  M.enabled = on and true or false
  if M.enabled then
    M.map_keys()
  else
    M.dismiss()
  end
  util.notify('inline completion ' .. (M.enabled and 'on' or 'off'))
  return M.enabled
end

local mapped = false

--- Maps the keys of the options in Insert mode; each does its action when
--- a suggestion is shown, and is typed as itself otherwise.
function M.map_keys()
  if mapped then
    return
  end
  mapped = true
  local o = opts()
  local function map(lhs, fn, desc)
    if type(lhs) ~= 'string' or lhs == '' then
      return
    end
    vim.keymap.set('i', lhs, function()
      if not fn() then
        api.nvim_feedkeys(api.nvim_replace_termcodes(lhs, true, false, true), 'n', false)
      end
    end, { silent = true, desc = desc })
  end
  map(o.accept, M.accept, 'parley: accept the inline completion')
  map(o.accept_word, M.accept_word, 'parley: accept the next word of the inline completion')
  map(o.accept_line, M.accept_line, 'parley: accept the line of the inline completion')
  map(o.invoke, M.invoke, 'parley: ask for an inline completion here')
  map(o.next, M.next, 'parley: next inline completion')
  map(o.prev, M.prev, 'parley: previous inline completion')
  map(o.dismiss, M.dismiss, 'parley: dismiss the inline completion')
end

local function highlight()
  vim.cmd('highlight default link ParleyGhostText Comment')
end

--- Called by parley.setup(): the options, autocommands, keys and command.
function M.setup()
  local o = opts()
  M.enabled = o.enabled ~= false
  M.dismiss()
  highlight()
  local group = api.nvim_create_augroup('parley_completion', { clear = true })
  api.nvim_create_autocmd('ColorScheme', { group = group, callback = highlight })
  api.nvim_create_autocmd({ 'TextChangedI', 'CursorMovedI' }, {
    group = group,
    callback = function()
      if M.enabled then
        on_move_or_change()
      end
    end,
  })
  api.nvim_create_autocmd('InsertEnter', {
    group = group,
    callback = function()
      M.last_tick, M.last_buf = api.nvim_buf_get_changedtick(0), api.nvim_get_current_buf()
    end,
  })
  api.nvim_create_autocmd({ 'InsertLeave', 'BufLeave', 'WinLeave' }, {
    group = group,
    callback = function() M.dismiss() end,
  })
  -- CTRL-C leaves Insert mode without InsertLeave.
  pcall(api.nvim_create_autocmd, 'ModeChanged', {
    group = group,
    pattern = 'i*:[^i]*',
    callback = function() M.dismiss() end,
  })
  if mapped then
    -- setup() again: the keys may have changed.
    mapped = false
    for _, k in ipairs({ 'accept', 'accept_word', 'accept_line', 'invoke', 'next', 'prev', 'dismiss' }) do
      -- Only this plugin's mappings (by their description).
      local lhs = M.keys and M.keys[k]
      if lhs then
        pcall(vim.keymap.del, 'i', lhs)
      end
    end
  end
  M.keys = { accept = o.accept, accept_word = o.accept_word, accept_line = o.accept_line, invoke = o.invoke,
    next = o.next, prev = o.prev, dismiss = o.dismiss }
  if M.enabled then
    M.map_keys()
  end
  api.nvim_create_user_command('ParleyCompletionToggle', function(a)
    local arg = vim.trim(a.args or '')
    M.toggle(arg == 'on' and true or arg == 'off' and false or nil)
  end, { nargs = '?', complete = function() return { 'on', 'off' } end,
    desc = 'parley: turn inline completion on or off' })
end

-- For tests: the state, read-only.
function M._state()
  return { pending = pending, shown = shown }
end

return M
