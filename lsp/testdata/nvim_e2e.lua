-- End-to-end test of `parley serve` in a real client: headless Neovim
-- (0.7+, built-in LSP client). Driven by TestNeovimE2E, which sets
-- PARLEY_ROOT (the fixture workspace), PARLEY_CMD (the server command)
-- and PARLEY_RESULT (where this script writes "ok" or the failure).
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/nvim_helpers.lua')
local check = H.check

H.run(function()
  local client, buf = H.start()
  local function request(method, params) return H.request(client, buf, method, params) end
  H.wait_indexed(client, buf)

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
  -- Resolved: cart's Fee only (its declaration and two calls), not
  -- price.Fee or other.Fee.
  check(#refs == 3, 'references: ' .. vim.inspect(refs))

  -- Edit the buffer without saving; the new symbol is found at once.
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', 'func Brandnew() int { return 9 }' })
  local fresh = request('workspace/symbol', { query = 'Brandnew' })
  check(#fresh == 1 and fresh[1].location.range.start.line == 5, 'new symbol: ' .. vim.inspect(fresh))

  local hover = request('textDocument/hover', params)
  check(hover and hover.contents and tostring(hover.contents.value or hover.contents):find('handling fee'),
    'hover: ' .. vim.inspect(hover))
  H.finish('ok')
end)
