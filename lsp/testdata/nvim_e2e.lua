-- End-to-end test of `parley serve` in a real client: headless Neovim
-- (0.7+, built-in LSP client). Driven by TestNeovimE2E, which sets
-- PARLEY_ROOT (the fixture workspace), PARLEY_CMD (the server command)
-- and PARLEY_RESULT (where this script writes "ok" or the failure).
local root = os.getenv('PARLEY_ROOT')
local result_file = os.getenv('PARLEY_RESULT')

local function finish(msg)
  local f = io.open(result_file, 'w')
  f:write(msg)
  f:close()
  vim.cmd(msg == 'ok' and 'qall!' or 'cquit! 1')
end

local function check(cond, msg)
  if not cond then
    finish('FAIL: ' .. msg)
    error(msg)
  end
end

local ok, err = pcall(function()
  local initialized = false
  local client_id = vim.lsp.start_client({
    cmd = { os.getenv('PARLEY_CMD'), 'serve', '--log-level', 'debug' },
    cmd_env = { PARLEY_LSP_TEST_SERVE = '1' },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'shop' } },
    flags = { debounce_text_changes = 0 },
    on_init = function() initialized = true end,
  })
  check(client_id, 'start_client failed')
  check(vim.wait(10000, function() return initialized end, 20), 'server did not initialize')
  local client = vim.lsp.get_client_by_id(client_id)

  vim.cmd('edit ' .. root .. '/cart/fee.go')
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)

  local function request(method, params)
    local res, rerr = client.request_sync(method, params, 10000, buf)
    check(res, method .. ': ' .. tostring(rerr))
    check(not res.err, method .. ': ' .. vim.inspect(res.err))
    return res.result
  end

  -- Wait for the first index run.
  check(vim.wait(20000, function()
    local st = request('parley/indexStatus', vim.empty_dict())
    return st.folders and st.folders[1] and st.folders[1].runs >= 1 and not st.indexing
  end, 50), 'indexing did not finish')

  local syms = request('workspace/symbol', { query = 'Fee' })
  check(#syms == 3, 'workspace/symbol Fee: ' .. vim.inspect(syms))

  -- Definition of Fee() on line 4 (1-based) of cart/fee.go: same package.
  local line = vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1]
  local col = line:find('Fee%(%)') - 1
  vim.api.nvim_win_set_cursor(0, { 4, col })
  local params = vim.lsp.util.make_position_params()
  local defs = request('textDocument/definition', params)
  check(#defs == 1 and defs[1].uri:match('cart/cart%.go$') and defs[1].range.start.line == 19,
    'definition: ' .. vim.inspect(defs))

  params.context = { includeDeclaration = true }
  local refs = request('textDocument/references', params)
  check(#refs == 6, 'references: ' .. vim.inspect(refs))

  -- Edit the buffer without saving; the new symbol is found at once.
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', 'func Brandnew() int { return 9 }' })
  local fresh = request('workspace/symbol', { query = 'Brandnew' })
  check(#fresh == 1 and fresh[1].location.range.start.line == 5, 'new symbol: ' .. vim.inspect(fresh))

  local hover = request('textDocument/hover', params)
  check(hover and hover.contents and tostring(hover.contents.value or hover.contents):find('handling fee'),
    'hover: ' .. vim.inspect(hover))
  finish('ok')
end)
if not ok then
  finish('FAIL: ' .. tostring(err))
end
