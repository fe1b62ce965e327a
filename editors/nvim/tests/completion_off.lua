-- The README's minimal setup (require('parley').setup({}), no completion
-- option, no completion model in any parley config), cart/fee.go given
-- on the command line: typing in Insert mode asks parley/inlineCompletion,
-- the server answers empty lists, nothing shows, nothing fails, and at
-- most one notice about completion arrives.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local api = vim.api
local util = require('parley.util')

-- window/showMessage notices (Neovim's handler writes them to the
-- message area; the plugin's clients keep it).
local notices = {}
local show = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, cfg)
  table.insert(notices, result and result.message or '?')
  return show(err, result, ctx, cfg)
end

local answers = {}
local request = util.request
util.request = function(client, method, params, handler, bufnr)
  if method ~= 'parley/inlineCompletion' then
    return request(client, method, params, handler, bufnr)
  end
  return request(client, method, params, function(err, result, ...)
    table.insert(answers, { err = err, result = result })
    return handler(err, result, ...)
  end, bufnr)
end

H.async(function()
  local buf = api.nvim_get_current_buf()
  H.check(api.nvim_buf_get_name(buf):match('cart/fee%.go$'), 'current buffer ' .. api.nvim_buf_get_name(buf))
  local client = H.attached(buf, 'cart/fee.go')
  H.wait_indexed(client)
  local completion = require('parley.completion')
  H.check(completion.enabled == true, 'completion is not on by default')

  H.feed('4GA', 10)
  H.feed(' x', 400)
  H.feed('y', 400)
  H.feed('<CR>z', 400)
  H.wait_async(10000, function() return #answers >= 3 end,
    function() return '3 answers; got ' .. vim.inspect(answers) .. '; notices ' .. vim.inspect(notices) end)
  for _, a in ipairs(answers) do
    H.check(a.err == nil and type(a.result) == 'table' and #(a.result.items or {}) == 0, 'answer ' .. vim.inspect(a))
  end
  H.check(#api.nvim_buf_get_extmarks(buf, completion.ns, 0, -1, {}) == 0, 'ghost text without a model')
  H.feed('<Esc>')
  H.check(H.lines(buf)[4]:sub(-3) == ' xy' and H.lines(buf)[5] == 'z', 'typed text ' .. vim.inspect(H.lines(buf)))
  -- A notice the server sent arrives before the answer it came with.
  local about = 0
  for _, m in ipairs(notices) do
    if m:lower():find('complet') then
      about = about + 1
    end
  end
  H.check(about <= 1, 'notices about completion: ' .. vim.inspect(notices))
  H.check(vim.v.errmsg == '', 'v:errmsg ' .. vim.v.errmsg)
  local f = assert(io.open(os.getenv('PARLEY_TEST_RESULT') .. '.notices', 'w'))
  f:write(table.concat(notices, '\n'))
  f:close()
end)
