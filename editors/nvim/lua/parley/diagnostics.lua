-- parley/diagnostics (docs/protocol.md): after each of the agent's edits
-- the server asks what the buffer's diagnostics are, from every source
-- (language servers, linters through vim.diagnostic.set). Diagnostics carry
-- no buffer version, so the module notes, on every DiagnosticChanged, the
-- buffer's LSP version at that moment: once it is the edit's version or
-- later, the sources have seen the edit.
local M = {}

local api = vim.api

-- How long a buffer's diagnostics must stay unchanged to count as settled:
-- some servers publish a version in stages (typescript-language-server:
-- syntax, then the type checker), each a DiagnosticChanged.
M.quiet_ms = 500
local max_timeout_ms = 60000

-- bufnr -> { version = the buffer's version, at = vim.loop.now() } of the
-- last DiagnosticChanged.
local seen = {}

--- The version LSP clients know the buffer by (its changedtick).
local function version_of(buf)
  local versions = vim.lsp.util.buf_versions
  return (versions and versions[buf]) or api.nvim_buf_get_changedtick(buf)
end

--- Notes that buf's diagnostics changed.
function M.changed(buf)
  if buf and buf > 0 and api.nvim_buf_is_valid(buf) then
    seen[buf] = { version = version_of(buf), at = vim.loop.now() }
  end
end

--- Starts listening (once per plugin load; calling again is harmless).
function M.setup()
  local group = api.nvim_create_augroup('parley_diagnostics', { clear = true })
  api.nvim_create_autocmd('DiagnosticChanged', {
    group = group,
    callback = function(args)
      M.changed(args.buf)
    end,
  })
  api.nvim_create_autocmd({ 'BufDelete', 'BufWipeout' }, {
    group = group,
    callback = function(args)
      seen[args.buf] = nil
    end,
  })
end

--- Whether anything may still report on buf: a language server other
--- than parley is attached, or some source reported on it before. A
--- buffer nothing ever reported on is answered at once, not after the
--- whole timeout.
local function has_sources(buf)
  if seen[buf] then
    return true
  end
  local get = vim.lsp.get_active_clients
  for _, c in ipairs(get and get({ bufnr = buf }) or {}) do
    if c.name ~= 'parley' then
      return true
    end
  end
  return false
end

local function settled(buf, version)
  local s = seen[buf]
  return s ~= nil and s.version >= version and vim.loop.now() - s.at >= M.quiet_ms
end

--- One vim.diagnostic item as an LSP Diagnostic.
local function to_lsp(d)
  local code = d.code
  if code == nil and type(d.user_data) == 'table' and type(d.user_data.lsp) == 'table' then
    code = d.user_data.lsp.code
  end
  return {
    range = {
      start = { line = d.lnum, character = d.col or 0 },
      ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col or 0 },
    },
    severity = d.severity,
    source = d.source,
    code = code,
    message = tostring(d.message or ''),
  }
end

--- Waits up to ms until done() holds, handling events meanwhile: in a
--- coroutine (Neovim 0.10+ runs server requests in one) by yielding to a
--- timer, else with vim.wait.
local function wait_until(ms, done)
  local co, is_main = coroutine.running()
  if co == nil or is_main then
    vim.wait(ms, done, 20)
    return
  end
  local deadline = vim.loop.now() + ms
  while not done() and vim.loop.now() < deadline do
    vim.defer_fn(function()
      coroutine.resume(co)
    end, 20)
    coroutine.yield()
  end
end

--- The parley/diagnostics handler of parley's clients.
function M.handler(_, params)
  params = type(params) == 'table' and params or {}
  local uris = type(params.uris) == 'table' and params.uris or {}
  local version = tonumber(params.version)
  local timeout = math.min(math.max(tonumber(params.timeoutMs) or 0, 0), max_timeout_ms)
  local bufs = {}
  for _, u in ipairs(uris) do
    if type(u) == 'string' then
      local ok, fname = pcall(vim.uri_to_fname, u)
      local buf = ok and vim.fn.bufnr(fname) or -1
      table.insert(bufs, { uri = u, buf = buf > 0 and api.nvim_buf_is_loaded(buf) and buf or nil })
    end
  end
  local function pending(b)
    return version ~= nil and b.buf ~= nil and has_sources(b.buf) and not settled(b.buf, version)
  end
  local function all_done()
    for _, b in ipairs(bufs) do
      if pending(b) then
        return false
      end
    end
    return true
  end
  if version ~= nil and timeout > 0 and not all_done() then
    wait_until(timeout, all_done)
  end
  local items = {}
  for _, b in ipairs(bufs) do
    local diags = {}
    if b.buf then
      for _, d in ipairs(vim.diagnostic.get(b.buf)) do
        table.insert(diags, to_lsp(d))
      end
    end
    table.insert(items, { uri = b.uri, diagnostics = diags, settled = not pending(b) })
  end
  return { items = items }
end

return M
