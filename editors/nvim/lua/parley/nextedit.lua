-- Next-edit proposals (docs/protocol.md, "parley/nextEdit"). After the
-- user changes a buffer (TextChanged, TextChangedI) and pauses for
-- `next_edit.debounce_ms`, the plugin asks the buffer's parley server
-- `parley/nextEdit` for the buffer's version and the cursor. A proposal
-- (e.g. "rename n to count: 3 more uses") is shown in every loaded buffer
-- it edits: the replaced text highlighted (ParleyNextEditOld), the new
-- text as virtual text after it (ParleyNextEditNew; at the end of the
-- line before Neovim 0.10, which has no inline virtual text), and a hint
-- with the keys and the server's `why` at the end of the line of the edit
-- nearest the cursor. The jump key moves to the next edit (opening its
-- file); the accept key applies the whole proposal, one undo step per
-- buffer, but only while every version it names is still the buffer's,
-- then runs its command (parley.nextEdit.accepted, which the server
-- counts). Any further change, the dismiss key and leaving the buffer
-- dismiss it. See :help parley-next-edit.
--
-- One proposal exists at a time: the state below is the module's.
local config = require('parley.config')
local util = require('parley.util')
local draw = require('parley.nextedit_draw')

local M = {}

local api = vim.api
local cursor = util.cursor
local line_at = util.line_at
local in_insert = util.in_insert

M.ns = api.nvim_create_namespace('parley_next_edit')

-- nil until setup(): then the option.
M.enabled = nil

-- The request in flight: { client, id, buf, version }.
local pending = nil
-- The proposal shown: { client, buf, version, id, why, command,
-- edits = { { uri, version, range, newText, buf, srow, scol, erow, ecol } },
-- drawn = { [buf] = true }, near }. buf and version are those the request
-- named; an edit's version is nil for a file the server read from disk;
-- buf..ecol are filled in (byte positions) once its buffer is loaded.
local shown = nil
local timer = nil
-- Client ids whose server does not know parley/nextEdit.
local unsupported = {}
-- buf -> the changedtick our own accept left it at: the TextChanged that
-- follows is not the user's.
local ours = {}
-- True while the jump key opens another file (its BufLeave must not
-- dismiss the proposal).
local jumping = false

local function opts()
  local o = config.options.next_edit
  if type(o) ~= 'table' then
    return config.defaults.next_edit
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

--- The LSP version of buf that Neovim's client last sent (nil when no
--- client is attached).
local function version_of(buf)
  return vim.lsp.util.buf_versions[buf]
end

local function enc()
  return shown and shown.client.offset_encoding or 'utf-16'
end

local loaded_buf = draw.loaded_buf

--- The keys' names for the hint ('' when unmapped).
local function key(name)
  local k = opts()[name]
  if type(k) == 'string' and k ~= '' then
    return k
  end
  return nil
end

-- Rendering (nextedit_draw.lua) -----------------------------------------

local function clear_marks()
  draw.clear(shown, M.ns)
end

local function nearest()
  return draw.nearest(shown)
end

local function render()
  draw.render(shown, M.ns, key)
end

-- Requests -------------------------------------------------------------

local function cancel_pending()
  if pending then
    if pending.id then
      pcall(util.cancel_request, pending.client, pending.id)
    end
    pending = nil
  end
end

local function stop_timer()
  if timer then
    timer:stop()
  end
end

--- Clears the proposal shown.
local function clear()
  if shown then
    clear_marks()
    shown = nil
  end
end

--- The edits of result that are well formed.
local function edits_of(result)
  local out = {}
  if type(result) ~= 'table' or type(result.edits) ~= 'table' then
    return out
  end
  for _, e in ipairs(result.edits) do
    local td, r = type(e) == 'table' and e.textDocument, type(e) == 'table' and e.range
    if type(td) == 'table' and type(td.uri) == 'string' and type(r) == 'table' and type(r.start) == 'table' and
        type(r['end']) == 'table' and type(e.newText) == 'string' then
      local v = td.version
      if type(v) ~= 'number' then
        v = nil
      end
      table.insert(out, { uri = td.uri, version = v, range = r, newText = e.newText:gsub('\r\n', '\n') })
    end
  end
  return out
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
  -- An answer for a version the buffer no longer has is dropped.
  if not api.nvim_buf_is_valid(p.buf) or api.nvim_get_current_buf() ~= p.buf or version_of(p.buf) ~= p.version then
    return
  end
  local edits = edits_of(result)
  if #edits == 0 then
    return
  end
  clear()
  shown = {
    client = p.client, buf = p.buf, version = p.version, row = p.row,
    id = result.id, why = type(result.why) == 'string' and result.why or '',
    command = result.command, edits = edits, drawn = {},
  }
  render()
end

local function wanted(buf)
  if not M.enabled or not api.nvim_buf_is_valid(buf) or vim.bo[buf].buftype ~= '' then
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

--- Sends parley/nextEdit for the current buffer's version and the cursor
--- now (cancelling the request in flight). Returns whether it was sent.
function M.request()
  stop_timer()
  local buf = api.nvim_get_current_buf()
  if not wanted(buf) then
    return false
  end
  local client = M.client_for(buf)
  local version = version_of(buf)
  if not client or unsupported[client.id] or version == nil then
    return false
  end
  cancel_pending()
  local row, col = cursor()
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf), version = version },
    position = { line = row, character = util.character(line_at(buf, row), col, client.offset_encoding or 'utf-16') },
  }
  local p = { client = client, buf = buf, version = version, row = row }
  pending = p
  -- client.request sends the buffer's pending didChange first.
  local ok, id = util.request(client, 'parley/nextEdit', params, function(err, result)
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

local function schedule(buf)
  if not timer then
    timer = vim.loop.new_timer()
  end
  timer:stop()
  local ms = tonumber(opts().debounce_ms) or 400
  timer:start(math.max(ms, 0), 0, vim.schedule_wrap(function()
    if api.nvim_get_current_buf() == buf then
      M.request()
    end
  end))
end

--- Ends everything: the proposal, the timer and the request in flight.
--- Returns whether a proposal was shown.
function M.dismiss()
  stop_timer()
  cancel_pending()
  local had = shown ~= nil
  clear()
  return had
end

--- TextChanged and TextChangedI: a change dismisses the proposal and
--- asks again once the user pauses.
local function on_change()
  local buf = api.nvim_get_current_buf()
  local tick = api.nvim_buf_get_changedtick(buf)
  if ours[buf] then
    local mine = ours[buf] == tick
    ours[buf] = nil
    if mine then
      return
    end
  end
  M.dismiss()
  if wanted(buf) then
    schedule(buf)
  end
end

-- Keys and API ---------------------------------------------------------

--- Whether a proposal is shown for the current buffer (it edits it, or
--- was asked for it).
function M.visible()
  if not shown then
    return false
  end
  local cur = api.nvim_get_current_buf()
  if cur == shown.buf then
    return true
  end
  for _, e in ipairs(shown.edits) do
    if e.buf == cur then
      return true
    end
  end
  return false
end

--- The proposal shown, read-only: { id, why, edits, version }, or nil.
function M.proposal()
  if not shown then
    return nil
  end
  return { id = shown.id, why = shown.why, version = shown.version, edits = vim.deepcopy(shown.edits) }
end

--- Whether every version the proposal names is still its buffer's: an
--- open buffer at the version named, a file read from disk not changed
--- in a buffer since, and the buffer it was asked for unchanged.
local function current()
  if not api.nvim_buf_is_valid(shown.buf) or version_of(shown.buf) ~= shown.version then
    return false
  end
  for _, e in ipairs(shown.edits) do
    local b = loaded_buf(e.uri)
    if e.version ~= nil then
      if not b or version_of(b) ~= e.version then
        return false
      end
    elseif b and vim.bo[b].modified then
      return false
    end
  end
  return true
end

--- Applies the proposal shown (one undo step per buffer) and runs its
--- command; a proposal whose versions are no longer current is dismissed
--- instead. Returns false when none is shown.
function M.accept()
  if not M.visible() then
    return false
  end
  stop_timer()
  cancel_pending()
  if not current() then
    clear()
    util.notify('the proposed edit is out of date: dismissed')
    return true
  end
  local s = shown
  clear()
  -- One TextDocumentEdit per file, in the order of the answer.
  local changes, by_uri = {}, {}
  for _, e in ipairs(s.edits) do
    local c = by_uri[e.uri]
    if not c then
      c = { textDocument = { uri = e.uri, version = e.version }, edits = {} }
      by_uri[e.uri] = c
      table.insert(changes, c)
    end
    table.insert(c.edits, { range = e.range, newText = e.newText })
  end
  -- An undo step of its own in each loaded buffer: break the sequence
  -- before the change (setting 'undolevels' does).
  for _, c in ipairs(changes) do
    local b = loaded_buf(c.textDocument.uri)
    if b then
      api.nvim_buf_call(b, function()
        vim.go.undolevels = vim.go.undolevels
      end)
    end
  end
  local ok, err = pcall(vim.lsp.util.apply_workspace_edit, { documentChanges = changes }, s.client.offset_encoding or 'utf-16')
  if not ok then
    util.error('could not apply the proposed edit: ' .. tostring(err))
    return true
  end
  for _, c in ipairs(changes) do
    local b = loaded_buf(c.textDocument.uri)
    if b then
      ours[b] = api.nvim_buf_get_changedtick(b)
    end
  end
  if in_insert() then
    -- And apart from what is typed after it.
    api.nvim_feedkeys(api.nvim_replace_termcodes('<C-g>u', true, false, true), 'ni', false)
  end
  local cmd = s.command
  if type(cmd) == 'table' and type(cmd.command) == 'string' and cmd.command ~= '' then
    pcall(util.request, s.client, 'workspace/executeCommand',
      { command = cmd.command, arguments = cmd.arguments }, function() end, s.buf)
  end
  return true
end

--- Moves the cursor to the next proposed edit after it (in this file,
--- then in the next file, round); opens the file of an edit in another
--- file. Returns false when no proposal is shown.
function M.jump()
  if not M.visible() then
    return false
  end
  local cur = api.nvim_get_current_buf()
  local cur_uri = vim.uri_from_bufnr(cur)
  local row, col = cursor()
  local list = {}
  for _, e in ipairs(shown.edits) do
    table.insert(list, e)
  end
  local function pos(e)
    if e.buf then
      return e.srow, e.scol
    end
    return e.range.start.line, e.range.start.character
  end
  table.sort(list, function(a, b)
    if a.uri ~= b.uri then
      return a.uri < b.uri
    end
    local ar, ac = pos(a)
    local br, bc = pos(b)
    return ar < br or (ar == br and ac < bc)
  end)
  local target
  for _, e in ipairs(list) do
    if e.buf == cur then
      local r, c = pos(e)
      if r > row or (r == row and c > col) then
        target = e
        break
      end
    end
  end
  if not target then
    -- The first edit of the next file (round to this file's first).
    for _, e in ipairs(list) do
      if e.uri > cur_uri then
        target = e
        break
      end
    end
    target = target or list[1]
  end
  if not target then
    return false
  end
  if target.buf == cur then
    vim.cmd("normal! m'")
    api.nvim_win_set_cursor(0, { target.srow + 1, target.scol })
  else
    local location = { uri = target.uri, range = { start = target.range.start, ['end'] = target.range.start } }
    jumping = true
    local ok, err = pcall(function()
      if vim.lsp.util.show_document then
        vim.lsp.util.show_document(location, enc(), { focus = true })
      else
        vim.lsp.util.jump_to_location(location, enc())
      end
    end)
    jumping = false
    if not ok then
      util.error('could not open the proposed edit: ' .. tostring(err))
    end
  end
  if shown then
    render()
  end
  return true
end

local mapped = false
M.keys = nil

local function unmap()
  if not mapped then
    return
  end
  mapped = false
  for _, k in ipairs({ 'accept', 'jump', 'dismiss' }) do
    local lhs = M.keys and M.keys[k]
    if type(lhs) == 'string' and lhs ~= '' then
      for _, mode in ipairs({ 'n', 'i' }) do
        pcall(vim.keymap.del, mode, lhs)
      end
    end
  end
end

--- Maps the keys of the options in Normal and Insert mode; each does its
--- action when a proposal is shown and is typed as itself otherwise.
function M.map_keys()
  if mapped then
    return
  end
  mapped = true
  local function map(lhs, fn, desc)
    if type(lhs) ~= 'string' or lhs == '' then
      return
    end
    vim.keymap.set({ 'n', 'i' }, lhs, function()
      if not fn() then
        api.nvim_feedkeys(api.nvim_replace_termcodes(lhs, true, false, true), 'n', false)
      end
    end, { silent = true, desc = desc })
  end
  map(M.keys.accept, M.accept, 'parley: accept the proposed next edit')
  map(M.keys.jump, M.jump, 'parley: jump to the next proposed edit')
  map(M.keys.dismiss, M.dismiss, 'parley: dismiss the proposed next edit')
end

local function highlight()
  -- Struck through, in DiffDelete's colour where the colour scheme has one.
  local extra = ''
  local ok, gui = pcall(api.nvim_get_hl_by_name, 'DiffDelete', true)
  if ok and type(gui) == 'table' and gui.foreground then
    extra = extra .. string.format(' guifg=#%06x', gui.foreground)
  end
  local okc, cterm = pcall(api.nvim_get_hl_by_name, 'DiffDelete', false)
  if okc and type(cterm) == 'table' and cterm.foreground then
    extra = extra .. ' ctermfg=' .. cterm.foreground
  end
  vim.cmd('highlight default ParleyNextEditOld cterm=strikethrough gui=strikethrough' .. extra)
  vim.cmd('highlight default link ParleyNextEditNew DiffAdd')
  vim.cmd('highlight default link ParleyNextEditHint Comment')
end

--- Called by parley.setup(): the options, autocommands and keys.
function M.setup()
  local o = opts()
  M.enabled = o.enabled ~= false
  M.dismiss()
  highlight()
  local group = api.nvim_create_augroup('parley_next_edit', { clear = true })
  api.nvim_create_autocmd('ColorScheme', { group = group, callback = highlight })
  api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    group = group,
    callback = function()
      if M.enabled then
        on_change()
      end
    end,
  })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI' }, {
    group = group,
    callback = function()
      if shown and M.visible() and nearest() ~= shown.near then
        render()
      end
    end,
  })
  api.nvim_create_autocmd('BufLeave', {
    group = group,
    callback = function()
      if not jumping then
        M.dismiss()
      end
    end,
  })
  unmap()
  M.keys = { accept = o.accept, jump = o.jump, dismiss = o.dismiss }
  if M.enabled then
    M.map_keys()
  end
end

-- For tests: the state, read-only.
function M._state()
  return { pending = pending, shown = shown }
end

return M
