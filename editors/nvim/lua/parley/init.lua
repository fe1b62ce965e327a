-- parley for Neovim (0.7+): starts `parley serve` for the buffers' roots
-- and adds a chat buffer for its agent, approvals through vim.ui.select
-- and a statusline function. See :help parley.
local config = require('parley.config')
local util = require('parley.util')
local clients = require('parley.client')
local chat = require('parley.chat')
local status = require('parley.status')

local M = {}

local api = vim.api

--- The client for the current buffer, or nil after telling the user.
local function current_client(start)
  local client = clients.for_buffer(0, start)
  if not client then
    util.warn('not running here: open a file of your project (or :ParleyStart)')
  end
  return client
end

--- :ParleyChat[!] [message], :ParleyNew [message]
local function chat_command(args, new)
  local client = current_client(true)
  if not client then
    return
  end
  local context = chat.context(client, { line1 = args.line1, line2 = args.line2, count = args.range })
  local message = vim.trim(args.args or '')
  if message ~= '' then
    chat.send(client, message, context, { new = new })
    return
  end
  if new and not chat.new_session(client) then
    return
  end
  chat.open(chat.state(client), true)
  chat.state(client).prompt_uri = context and context.uri -- @diagnostics at the prompt means this file
  vim.ui.input({ prompt = 'parley> ', completion = "customlist,v:lua.require'parley.prompts'.complete_input" }, function(input)
    if input and vim.trim(input) ~= '' then
      chat.send(client, input, context, {})
    end
  end)
end

--- The index status as a short text (see parley/indexStatus).
function M.format_index_status(st)
  local state = st.indexing and 'indexing' or 'idle'
  local lines = { string.format('parley: %d files, %d symbols, %s', st.files or 0, st.symbols or 0, state) }
  for _, f in ipairs(st.folders or {}) do
    local l = string.format('  %s: %d files, %d symbols', f.root or '?', f.files or 0, f.symbols or 0)
    if f.indexing then
      l = l .. string.format(', indexing %d/%d', f.done or 0, f.total or 0)
    end
    l = l .. string.format(', %d runs', f.runs or 0)
    if f.lastRun and f.lastRun ~= '' then
      l = l .. ', last ' .. f.lastRun
    end
    if f.private then
      l = l .. ' (private index: another process holds the shared one)'
    end
    if f.lastError and f.lastError ~= '' then
      l = l .. '; error: ' .. f.lastError
    end
    table.insert(lines, l)
  end
  if st.lastError and st.lastError ~= '' then
    table.insert(lines, 'last error: ' .. st.lastError)
  end
  return table.concat(lines, '\n')
end

--- Asks parley/indexStatus; cb(err, result) gets the answer, else it is
--- echoed.
function M.index_status(cb)
  local client = current_client(false)
  if not client then
    return
  end
  util.request(client, 'parley/indexStatus', vim.empty_dict(), function(err, result)
    if cb then
      return cb(err, result)
    end
    if err then
      util.error('parley/indexStatus: ' .. util.err_text(err))
      return
    end
    api.nvim_echo({ { M.format_index_status(result) } }, true, {})
  end, 0)
end

--- Starts an index run (parley/reindex).
function M.reindex()
  local client = current_client(false)
  if not client then
    return
  end
  util.request(client, 'parley/reindex', vim.empty_dict(), function(err)
    if err then
      util.error('parley/reindex: ' .. util.err_text(err))
      return
    end
    api.nvim_echo({ { 'parley: reindexing' } }, true, {})
  end, 0)
end

--- Replaces the agent settings of init_options (the shape of
--- .parley/config.json: model, permission_mode, ...) and sends them to
--- every running server (workspace/didChangeConfiguration); the next turn
--- uses them.
function M.set_agent(agent)
  agent = util.object(agent)
  config.options.init_options = util.object(config.options.init_options)
  config.options.init_options.agent = agent
  for _, client in ipairs(clients.all()) do
    client.config.init_options = config.options.init_options
    util.notify_server(client, 'workspace/didChangeConfiguration', { settings = { parley = { agent = agent } } })
  end
end

--- Statusline text: "" when parley is not running, else e.g.
--- "parley: indexing 120/900", "parley: idle · chat: running".
function M.statusline()
  return status.statusline()
end

local function define_commands()
  local cmd = api.nvim_create_user_command
  local prompt_complete = function(arglead, cmdline) return require('parley.prompts').complete(arglead, cmdline) end
  cmd('ParleyChat', function(a) chat_command(a, a.bang) end,
    { nargs = '*', bang = true, range = true, complete = prompt_complete, desc = 'parley: ask the agent (! starts a new session)' })
  cmd('ParleyNew', function(a) chat_command(a, true) end,
    { nargs = '*', range = true, complete = prompt_complete, desc = 'parley: start a new chat session' })
  cmd('ParleyInput', function(a)
    local client = current_client(true)
    if client then
      require('parley.input').open(client, chat.context(client, { line1 = a.line1, line2 = a.line2, count = a.range }))
    end
  end, { range = true, desc = 'parley: write a chat message in the input buffer (@ completes mentions)' })
  cmd('ParleyCommands', function()
    local c = current_client(false)
    if c then
      require('parley.prompts').show(c)
    end
  end, { desc = 'parley: list the prompt commands (/NAME)' })
  cmd('ParleyStop', function()
    local c = current_client(false)
    if c then
      chat.stop(c)
    end
  end, { desc = 'parley: cancel the running turn' })
  cmd('ParleyCompact', function(a)
    local c = current_client(false)
    if c then
      require('parley.compact').compact(c, a.args)
    end
  end, { nargs = '*', desc = 'parley: compact the chat session (summarise it to free context)' })
  cmd('ParleySessions', function()
    local c = current_client(false)
    if c then
      require('parley.sessions').sessions(c)
    end
  end, { desc = 'parley: resume a session' })
  cmd('ParleyDeleteSession', function()
    local c = current_client(false)
    if c then
      require('parley.sessions').delete_session(c)
    end
  end, { desc = 'parley: delete a session' })
  cmd('ParleyMemory', function(a)
    local c = current_client(false)
    if c then
      require('parley.memory').command(c, a.args)
    end
  end, {
    nargs = '*',
    complete = function(arglead, cmdline) return require('parley.memory').complete(arglead, cmdline) end,
    desc = 'parley: long-term memories (list, search, show, add, edit, forget, stale, stats)',
  })
  cmd('ParleyIndexStatus', function() M.index_status() end, { desc = 'parley: show the index status' })
  cmd('ParleyReindex', function() M.reindex() end, { desc = 'parley: start an index run' })
  cmd('ParleyStart', function()
    local buf = api.nvim_get_current_buf()
    if clients.attachable(buf) then
      clients.failed[clients.find_root(api.nvim_buf_get_name(buf))] = nil
    end
    if not clients.attach(buf) then
      util.warn('this buffer is not a file')
    end
  end, { desc = 'parley: attach the current buffer' })
end

local function define_keymaps(keymaps)
  if not keymaps then
    return
  end
  local keys = keymaps == true and config.default_keymaps or keymaps
  local function map(modes, lhs, rhs, desc)
    if lhs and lhs ~= '' then
      vim.keymap.set(modes, lhs, rhs, { silent = true, desc = desc })
    end
  end
  map('n', keys.chat, '<cmd>ParleyChat<cr>', 'parley: chat')
  map('x', keys.chat, ':ParleyChat<cr>', 'parley: chat about the selection')
  map('n', keys.new, '<cmd>ParleyNew<cr>', 'parley: new session')
  map('n', keys.stop, '<cmd>ParleyStop<cr>', 'parley: stop')
  map('n', keys.sessions, '<cmd>ParleySessions<cr>', 'parley: sessions')
  map({ 'n', 'x' }, keys.code_action, function() vim.lsp.buf.code_action() end, 'parley: code actions')
end

--- Configures the plugin; see :help parley-setup.
function M.setup(opts)
  local o = config.set(opts)
  define_commands()
  define_keymaps(o.keymaps)
  require('parley.completion').setup()
  require('parley.nextedit').setup()
  local group = api.nvim_create_augroup('parley', { clear = true })
  if o.autostart then
    local ft = o.filetypes
    local pattern = ft
    if type(ft) == 'string' then
      pattern = { ft }
    end
    api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = pattern,
      callback = function(ev)
        clients.attach(ev.buf)
      end,
    })
    -- Buffers already open.
    local wanted = {}
    for _, f in ipairs(pattern) do
      wanted[f] = true
    end
    for _, buf in ipairs(api.nvim_list_bufs()) do
      if api.nvim_buf_is_loaded(buf) and (wanted['*'] or wanted[vim.bo[buf].filetype]) and vim.bo[buf].filetype ~= '' then
        clients.attach(buf)
      end
    end
  end
end

return M
