-- parley.input: the chat input buffer, where a message is written with
-- the editor's own editing (several lines, undo) and @-mention completion
-- (parley.mentions), then sent. :ParleyInput opens it in a small window
-- under the chat; <C-s> (Insert and Normal mode) or <CR> (Normal mode)
-- sends the buffer as one message and empties it. The file and selection
-- (or cursor) :ParleyInput was run from are the context of the messages
-- sent from it, as :ParleyChat's; "@" opens the mention completion, <CR>
-- or <C-y> takes the selected item.
local util = require('parley.util')

local M = {}

local api = vim.api

--- buf -> { client_id, root, context }
M.inputs = {}

--- Height of the input window.
M.height = 5

--- What parley.mentions needs for the input buffer buf: its client, the
--- chat state, and the context's file (for @diagnostics of it); nil when
--- buf is not an input buffer or its client is gone.
function M.context_of(buf)
  local i = M.inputs[buf]
  if not i then
    return nil
  end
  local client = vim.lsp.get_client_by_id(i.client_id)
  if not client then
    return nil
  end
  return { client = client, st = require('parley.chat').state(client), uri = i.context and i.context.uri }
end

--- The keys and completion of a new input buffer.
local function setup_buffer(buf)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'markdown'
  vim.bo[buf].completefunc = "v:lua.require'parley.mentions'.completefunc"
  local o = { buffer = buf, silent = true }
  vim.keymap.set('i', '@', '@<C-x><C-u>', o)
  -- <CR> takes the selected item, the first when none is (the menu is
  -- asked again as the user types, which leaves none selected).
  vim.keymap.set('i', '<CR>', function()
    if vim.fn.pumvisible() == 0 then
      return '<CR>'
    end
    return vim.fn.complete_info({ 'selected' }).selected == -1 and '<C-n><C-y>' or '<C-y>'
  end, { buffer = buf, silent = true, expr = true })
  vim.keymap.set({ 'n', 'i' }, '<C-s>', function() M.send(buf) end, o)
  vim.keymap.set('n', '<CR>', function() M.send(buf) end, o)
  local group = api.nvim_create_augroup('parley_input_' .. buf, { clear = true })
  -- 'completeopt' is global before Neovim 0.11: set it while in here.
  local saved
  api.nvim_create_autocmd('BufEnter', { group = group, buffer = buf, callback = function()
    saved = vim.o.completeopt
    vim.o.completeopt = 'menuone,noinsert'
  end })
  api.nvim_create_autocmd('BufLeave', { group = group, buffer = buf, callback = function()
    if saved then
      vim.o.completeopt, saved = saved, nil
    end
  end })
  api.nvim_create_autocmd('CompleteDone', { group = group, buffer = buf, callback = function()
    local ctx = M.context_of(buf)
    if ctx then
      require('parley.mentions').completed(ctx.st, vim.v.completed_item)
    end
  end })
  api.nvim_create_autocmd('BufWipeout', { group = group, buffer = buf, callback = function()
    M.inputs[buf] = nil
  end })
end

--- The input buffer of client's chat (created on first use).
function M.buffer(client)
  local st = require('parley.chat').state(client)
  if st.input_buf and api.nvim_buf_is_valid(st.input_buf) then
    return st.input_buf
  end
  local buf = api.nvim_create_buf(false, true)
  pcall(api.nvim_buf_set_name, buf, 'parley://input/' .. st.root)
  setup_buffer(buf)
  st.input_buf = buf
  M.inputs[buf] = { client_id = client.id, root = st.root }
  return buf
end

--- :ParleyInput: shows the chat and, under it, the input buffer (focused,
--- in Insert mode); context is what the messages are sent with.
function M.open(client, context)
  local chat = require('parley.chat')
  local st = chat.state(client)
  local buf = M.buffer(client)
  M.inputs[buf].client_id = client.id
  M.inputs[buf].context = context
  for _, win in ipairs(api.nvim_tabpage_list_wins(0)) do
    if api.nvim_win_get_buf(win) == buf then
      api.nvim_set_current_win(win)
      vim.cmd('startinsert!')
      return win
    end
  end
  local chat_win = chat.open(st, true)
  api.nvim_set_current_win(chat_win)
  vim.cmd('belowright ' .. M.height .. 'split')
  api.nvim_win_set_buf(0, buf)
  local win = api.nvim_get_current_win()
  vim.wo[win].wrap = true
  vim.wo[win].number = false
  vim.wo[win].relativenumber = false
  vim.wo[win].winfixheight = true
  vim.cmd('startinsert!')
  return win
end

--- Sends the input buffer's text as a message and empties the buffer;
--- false when there was nothing to send or the turn could not start.
function M.send(buf)
  local i = M.inputs[buf]
  local client = i and vim.lsp.get_client_by_id(i.client_id)
  if not client then
    util.warn('the parley server of this chat is not running')
    return false
  end
  local message = vim.trim(table.concat(api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))
  if message == '' then
    return false
  end
  if vim.fn.pumvisible() == 1 then
    api.nvim_feedkeys(api.nvim_replace_termcodes('<C-e>', true, false, true), 'n', false)
  end
  if not require('parley.chat').send(client, message, i.context, { focus = false }) then
    return false
  end
  api.nvim_buf_set_lines(buf, 0, -1, false, {})
  return true
end

return M
