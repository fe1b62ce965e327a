-- After the agent's edit (permission mode acceptEdits; the fake model
-- calls edit_file on the open cart/fee.go, then answers "done") the
-- server asks parley/diagnostics; the plugin answers from
-- vim.diagnostic.get once the buffer's diagnostics changed after the
-- edit. A stand-in linter reports a warning from the start and, 300 ms
-- after each change, an error on line 4 too, through vim.diagnostic.set.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local buf, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)

  local ns = vim.api.nvim_create_namespace('testlint')
  local warning = { lnum = 0, col = 0, severity = vim.diagnostic.severity.WARN, source = 'testlint', message = 'package comment missing' }
  vim.diagnostic.set(ns, buf, { warning })
  vim.api.nvim_buf_attach(buf, false, {
    on_lines = function()
      vim.defer_fn(function()
        vim.diagnostic.set(ns, buf, {
          warning,
          { lnum = 3, col = 0, severity = vim.diagnostic.severity.ERROR, source = 'testlint', code = 'T1', message = 'type mismatch' },
        })
      end, 300)
    end,
  })

  vim.cmd('ParleyChat Make Discount subtract 2 from the fee.')
  local st = chat.state(client)
  local r = H.wait_turn(st, 'the edit turn')
  H.check(r.stopReason == 'end_turn', 'result: ' .. vim.inspect(r))
  H.check(#vim.diagnostic.get(buf) == 2, 'diagnostics: ' .. vim.inspect(vim.diagnostic.get(buf)))
end)
