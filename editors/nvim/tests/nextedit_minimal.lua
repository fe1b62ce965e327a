-- The README's minimal setup (require('parley').setup({}): next_edit's
-- defaults, Neovim's own didChange debounce), cart/scale.go given on the
-- command line: next-edit proposals are on and their keys mapped in
-- Normal and Insert mode; a change with nothing to propose gets an empty
-- answer, shows nothing and fails nowhere; renaming the parameter shows
-- the proposal and <M-CR> applies it.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local api = vim.api
local util = require('parley.util')

local answers = {}
local request = util.request
util.request = function(client, method, params, handler, bufnr)
  if method ~= 'parley/nextEdit' then
    return request(client, method, params, handler, bufnr)
  end
  return request(client, method, params, function(err, result, ...)
    table.insert(answers, { err = err, result = result })
    return handler(err, result, ...)
  end, bufnr)
end

H.async(function()
  local buf = api.nvim_get_current_buf()
  H.check(api.nvim_buf_get_name(buf):match('cart/scale%.go$'), 'current buffer ' .. api.nvim_buf_get_name(buf))
  local client = H.attached(buf, 'cart/scale.go')
  H.wait_indexed(client)
  local nextedit = require('parley.nextedit')
  H.check(nextedit.enabled == true, 'next-edit proposals are not on by default')
  for _, mode in ipairs({ 'n', 'i' }) do
    for _, lhs in ipairs({ '<M-CR>', '<M-n>', '<M-BS>' }) do
      H.check(vim.fn.maparg(lhs, mode) ~= '', 'no ' .. mode .. ' mapping of ' .. lhs)
    end
  end

  -- Nothing to propose after a new comment line.
  H.feed('Go// the end<Esc>')
  H.wait_async(10000, function() return #answers >= 1 end, 'the answer after a new line')
  local a = answers[#answers]
  H.check(a.err == nil and type(a.result) == 'table' and #a.result.edits == 0 and type(a.result.reason) == 'string',
    'answer ' .. vim.inspect(a))
  H.check(#api.nvim_buf_get_extmarks(buf, nextedit.ns, 0, -1, {}) == 0, 'marks without a proposal')

  -- A rename.
  H.feed('4G0f(l', 20)
  H.feed('ciwcount<Esc>')
  H.wait_async(10000, function() return nextedit.visible() end,
    function() return 'the proposal; answers ' .. vim.inspect(answers) .. '; notes ' .. vim.inspect(H.notes) end)
  H.feed('<M-CR>')
  local lines = H.lines(buf)
  H.check(lines[5] == '\tif count < 0 {' and lines[6] == '\t\treturn -count * by' and lines[8]:find('return count * by', 1, true),
    'after accept: ' .. vim.inspect(lines))
  H.check(vim.v.errmsg == '', 'v:errmsg ' .. vim.v.errmsg)
end)
