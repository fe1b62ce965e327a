-- Starting the parley language server and attaching buffers to it: one
-- client per root directory, through vim.lsp.start (Neovim 0.8+) or
-- vim.lsp.start_client plus vim.lsp.buf_attach_client (0.7).
local config = require('parley.config')
local util = require('parley.util')

local M = {}

local api = vim.api

-- root -> client id of the clients this plugin started.
M.by_root = {}
-- root -> true when starting the server there failed (not tried again
-- until :ParleyStart).
M.failed = {}

--- Whether dir/name exists.
local function exists(path)
  return vim.loop.fs_stat(path) ~= nil
end

--- The root directory of a file: the nearest directory above it holding a
--- root marker; else the current directory if the file is under it; else
--- the file's directory.
function M.find_root(path)
  path = vim.fn.fnamemodify(path, ':p')
  local dir = util.strip_slash(vim.fn.fnamemodify(path, ':h'))
  local d = dir
  while true do
    for _, marker in ipairs(config.options.root_markers) do
      if exists(d .. '/' .. marker) then
        return d
      end
    end
    local parent = util.strip_slash(vim.fn.fnamemodify(d, ':h'))
    if parent == d then
      break
    end
    d = parent
  end
  local cwd = util.strip_slash(vim.loop.cwd())
  if path:sub(1, #cwd + 1) == cwd .. '/' then
    return cwd
  end
  return dir
end

--- The live parley client for root, or nil.
function M.get(root)
  local id = M.by_root[root]
  if not id then
    return nil
  end
  local client = vim.lsp.get_client_by_id(id)
  if not client then
    M.by_root[root] = nil
    return nil
  end
  return client
end

--- The root a client serves.
function M.root_of(client)
  return client and client.config and client.config.root_dir
end

--- Every live parley client.
function M.all()
  local out = {}
  for root in pairs(M.by_root) do
    local c = M.get(root)
    if c then
      table.insert(out, c)
    end
  end
  table.sort(out, function(a, b) return a.id < b.id end)
  return out
end

--- Whether bufnr is a file buffer parley could attach to.
function M.attachable(bufnr)
  if not api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local name = api.nvim_buf_get_name(bufnr)
  return name ~= '' and not name:match('^%a[%w+.-]*://')
end

local function capabilities()
  -- Neovim applies edits without honouring needsConfirmation, so the
  -- plugin does not set initializationOptions.editConfirmation: the server
  -- asks before edits (permission mode "default") with
  -- window/showMessageRequest, answered through vim.ui.select.
  local caps = vim.lsp.protocol.make_client_capabilities()
  if config.options.capabilities then
    caps = vim.tbl_deep_extend('force', caps, config.options.capabilities)
  end
  return caps
end

--- Handlers of this plugin's clients only (not vim.lsp.handlers).
local function handlers()
  local chat = require('parley.chat')
  local status = require('parley.status')
  local approvals = require('parley.approvals')
  local diagnostics = require('parley.diagnostics')
  diagnostics.setup()
  return {
    ['parley/event'] = chat.on_event,
    ['parley/diagnostics'] = diagnostics.handler,
    ['window/showMessageRequest'] = approvals.handler,
    ['$/progress'] = status.on_progress,
    ['workspace/executeCommand'] = chat.on_command_result,
  }
end

--- Client-side commands: the code actions' commands run through the chat,
--- so their events and result show in the chat buffer.
local function commands()
  local chat = require('parley.chat')
  local out = {}
  for _, name in ipairs({ 'parley.explain', 'parley.fix', 'parley.refactor', 'parley.addTests', 'parley.document' }) do
    out[name] = chat.run_command
  end
  return out
end

local function client_config(root)
  local o = config.options
  return {
    name = 'parley',
    cmd = o.cmd,
    cmd_env = o.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = util.object(o.init_options),
    capabilities = capabilities(),
    flags = o.flags,
    handlers = handlers(),
    commands = commands(),
    on_attach = function(client, bufnr)
      if o.on_attach then
        o.on_attach(client, bufnr)
      end
    end,
    on_exit = function(code, signal, client_id)
      vim.schedule(function()
        require('parley.chat').on_exit(client_id, root)
        require('parley.status').on_exit(client_id)
        if M.by_root[root] == client_id then
          M.by_root[root] = nil
        end
      end)
    end,
  }
end

--- Starts (or reuses) the client for bufnr's root and attaches bufnr.
--- Returns the client id, or nil when bufnr is not a file buffer.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if not M.attachable(bufnr) then
    return nil
  end
  local root = M.find_root(api.nvim_buf_get_name(bufnr))
  local existing = M.get(root)
  if existing then
    if not vim.lsp.buf_is_attached(bufnr, existing.id) then
      vim.lsp.buf_attach_client(bufnr, existing.id)
    end
    return existing.id
  end
  if M.failed[root] then
    return nil
  end
  local cfg = client_config(root)
  local ok, id = pcall(function()
    if vim.lsp.start then
      return vim.lsp.start(cfg, {
        bufnr = bufnr,
        reuse_client = function(client, conf)
          return client.name == conf.name and M.root_of(client) == conf.root_dir
        end,
      })
    end
    local started = vim.lsp.start_client(cfg)
    if started then
      vim.lsp.buf_attach_client(bufnr, started)
    end
    return started
  end)
  if not ok or not id then
    -- Said once per root, not for every buffer.
    M.failed[root] = true
    util.error('could not start ' .. table.concat(cfg.cmd, ' ') .. (ok and '' or (': ' .. tostring(id))) ..
      ' (see :help parley-troubleshooting)')
    return nil
  end
  M.by_root[root] = id
  return id
end

--- The parley client for bufnr: the one attached to it, the chat buffer's,
--- else the one for the current directory, else the only one running.
--- With start, a file buffer without one gets one.
function M.for_buffer(bufnr, start)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local ok, root = pcall(api.nvim_buf_get_var, bufnr, 'parley_root')
  if ok and root and M.get(root) then
    return M.get(root)
  end
  for r in pairs(M.by_root) do
    local c = M.get(r)
    if c and vim.lsp.buf_is_attached(bufnr, c.id) then
      return c
    end
  end
  if start and M.attachable(bufnr) then
    local id = M.attach(bufnr)
    return id and vim.lsp.get_client_by_id(id)
  end
  local cwd = util.strip_slash(vim.loop.cwd())
  if M.get(cwd) then
    return M.get(cwd)
  end
  local all = M.all()
  if #all >= 1 then
    return all[1]
  end
  return nil
end

return M
