-- parley.chat_buffer: the chat buffer itself (a scratch markdown buffer
-- per root, never modifiable by hand) and the window showing it. Every
-- change goes through edit(), which keeps windows that showed the end at
-- the end; the streaming state (text_open, thinking_open, after_events)
-- lives in the chat state st that parley.chat owns.
local config = require('parley.config')
local format = require('parley.format')

local M = {}

local api = vim.api

-- Buffer ---------------------------------------------------------------

--- Whether st's chat buffer exists; one unloaded with :bdelete is loaded
--- again (empty).
local function buf_valid(st)
  if not (st.buf and api.nvim_buf_is_valid(st.buf)) then
    return false
  end
  if not api.nvim_buf_is_loaded(st.buf) then
    vim.fn.bufload(st.buf)
  end
  return true
end

--- The chat buffer of st (created on first use).
function M.buffer(st)
  if buf_valid(st) then
    return st.buf
  end
  local buf = api.nvim_create_buf(true, true)
  pcall(api.nvim_buf_set_name, buf, 'parley://chat/' .. st.root)
  api.nvim_buf_set_var(buf, 'parley_root', st.root)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].undolevels = -1
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'markdown'
  st.buf = buf
  return buf
end

--- Changes the chat buffer with fn(buf), keeping windows that showed its
--- end (or do not have focus) at the end.
local function edit(st, fn)
  local buf = M.buffer(st)
  local before = api.nvim_buf_line_count(buf)
  local follow = {}
  local cur = api.nvim_get_current_win()
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(win) == buf then
      if win ~= cur or api.nvim_win_get_cursor(win)[1] >= before then
        table.insert(follow, win)
      end
    end
  end
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn, buf)
  vim.bo[buf].modifiable = false
  if not ok then
    error(err)
  end
  local last = api.nvim_buf_line_count(buf)
  for _, win in ipairs(follow) do
    pcall(api.nvim_win_set_cursor, win, { last, 0 })
  end
end

local function split_lines(text)
  return vim.split((tostring(text):gsub('\r', '')), '\n', { plain = true })
end

--- Appends whole lines.
local function add_lines(st, lines)
  st.text_open, st.thinking_open = false, false
  edit(st, function(buf)
    local n = api.nvim_buf_line_count(buf)
    if n == 1 and api.nvim_buf_get_lines(buf, 0, 1, false)[1] == '' then
      api.nvim_buf_set_lines(buf, 0, 1, false, lines)
    else
      api.nvim_buf_set_lines(buf, n, n, false, lines)
    end
  end)
end

--- Inserts whole lines before line at (0-based), above what streamed
--- since (the mentions event's lines go under the user's message).
local function insert_lines(st, at, lines)
  edit(st, function(buf)
    api.nvim_buf_set_lines(buf, at, at, false, lines)
  end)
end

--- Appends a fragment of streamed text to the last line.
local function add_fragment(st, text)
  edit(st, function(buf)
    local parts = split_lines(text)
    local n = api.nvim_buf_line_count(buf)
    local last = api.nvim_buf_get_lines(buf, n - 1, n, false)[1] or ''
    parts[1] = last .. parts[1]
    api.nvim_buf_set_lines(buf, n - 1, n, false, parts)
  end)
end

--- The last line of the chat buffer.
local function last_line(st)
  local buf = M.buffer(st)
  local n = api.nvim_buf_line_count(buf)
  return api.nvim_buf_get_lines(buf, n - 1, n, false)[1] or ''
end

--- Appends tool, edit and approval lines, apart from answer text before
--- them.
local function add_event_lines(st, lines)
  if st.text_open or st.thinking_open then
    add_lines(st, { '' })
  end
  add_lines(st, lines)
  st.after_events = true
end

local function add_text(st, text)
  if not st.text_open then
    if st.after_events or st.thinking_open then
      add_lines(st, { '', '' })
    else
      add_lines(st, { '' })
    end
    st.after_events = false
    st.text_open = true
  end
  add_fragment(st, text)
end

local function add_thinking(st, text)
  if not config.options.chat.show_thinking then
    return
  end
  if not st.thinking_open then
    add_lines(st, { '> ' })
    st.thinking_open = true
  end
  add_fragment(st, (tostring(text):gsub('\n', '\n> ')))
end

--- Takes back the answer streamed since the running turn's last tool
--- result (or its start).
local function drop_answer(st)
  local m = st.answer_mark
  if not m then
    return
  end
  edit(st, function(buf)
    api.nvim_buf_set_lines(buf, m[1], -1, false, {})
  end)
  st.text_open, st.thinking_open, st.after_events = false, false, m[2]
end

--- Clears the chat buffer.
local function clear(st)
  st.text_open, st.thinking_open = false, false
  edit(st, function(buf)
    api.nvim_buf_set_lines(buf, 0, -1, false, {})
  end)
end

-- Windows -------------------------------------------------------------

--- Shows the chat buffer: focuses a window of the current tab showing
--- it, else opens one where chat.position says. With focus false the
--- current window stays current.
function M.open(st, focus)
  local buf = M.buffer(st)
  local cur = api.nvim_get_current_win()
  for _, win in ipairs(api.nvim_tabpage_list_wins(0)) do
    if api.nvim_win_get_buf(win) == buf then
      if focus then
        api.nvim_set_current_win(win)
      end
      return win
    end
  end
  local o = config.options.chat
  local pos = o.position
  if pos == 'current' then
    api.nvim_win_set_buf(0, buf)
  elseif pos == 'tab' then
    vim.cmd('tab sbuffer ' .. buf)
  else
    local cmd = ({ right = 'botright vsplit', left = 'topleft vsplit', bottom = 'botright split', top = 'topleft split' })[pos]
    vim.cmd(cmd or 'botright vsplit')
    api.nvim_win_set_buf(0, buf)
    if pos == 'bottom' or pos == 'top' then
      pcall(api.nvim_win_set_height, 0, o.height)
    else
      pcall(api.nvim_win_set_width, 0, o.width)
    end
  end
  local win = api.nvim_get_current_win()
  vim.wo[win].wrap = true
  vim.wo[win].linebreak = true
  vim.wo[win].number = false
  vim.wo[win].relativenumber = false
  vim.wo[win].spell = false
  pcall(api.nvim_win_set_cursor, win, { api.nvim_buf_line_count(buf), 0 })
  if not focus and pos ~= 'current' and api.nvim_win_is_valid(cur) then
    api.nvim_set_current_win(cur)
  end
  return win
end

-- Turn header and footer ------------------------------------------------

local function footer(st, stop_reason, usage)
  local u = format.usage(usage)
  add_lines(st, { '', '— ' .. (stop_reason or '?') .. (u ~= '' and (' · ' .. u) or ''), '' })
end

local function header(st, who, lines)
  local out = {}
  st.after_events = false
  if last_line(st) ~= '' then
    table.insert(out, '')
  end
  table.insert(out, '## ' .. who)
  for _, l in ipairs(lines or {}) do
    table.insert(out, l)
  end
  add_lines(st, out)
end

M.split_lines = split_lines
M.add_lines = add_lines
M.add_fragment = add_fragment
M.insert_lines = insert_lines
M.last_line = last_line
M.add_event_lines = add_event_lines
M.add_text = add_text
M.add_thinking = add_thinking
M.drop_answer = drop_answer
M.clear = clear
M.footer = footer
M.header = header

return M
