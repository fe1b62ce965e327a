-- The README's (and docs/editors.md's) minimal setup, run as a user's init.lua (nvim_test.go
-- writes it: `filetype on`, the plugin on the runtimepath,
-- require('parley').setup({}) with parley found on $PATH and the model in
-- the environment), with cart/fee.go given on the command line: the
-- client starts and attaches (initializationOptions go out as {}, not
-- []), a chat turn runs, and set_agent({}) is accepted
-- (didChangeConfiguration with agent {}); :ParleyMemory adds a memory
-- and lists it.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  local buf = vim.api.nvim_get_current_buf()
  H.check(vim.api.nvim_buf_get_name(buf):match('cart/fee%.go$'), 'current buffer ' .. vim.api.nvim_buf_get_name(buf))
  local client = H.attached(buf, 'cart/fee.go')
  H.check(client.config.root_dir == H.root, 'root ' .. tostring(client.config.root_dir))
  H.wait_indexed(client)

  local chat = require('parley.chat')
  vim.cmd('ParleyChat What does Discount do?')
  local st = chat.state(client)
  local r1 = H.wait_turn(st, 'turn 1')
  H.check(r1.stopReason == 'end_turn', 'turn 1: ' .. vim.inspect(r1))
  H.check(H.has_line(st, 'Discount lowers the fee by one.'), 'no answer:\n' .. H.chat_text(st))

  require('parley').set_agent({})
  vim.cmd('ParleyChat And now?')
  local r2 = H.wait_turn(st, 'turn 2')
  H.check(r2.stopReason == 'end_turn' and r2.turn == 2, 'turn 2: ' .. vim.inspect(r2))

  H.script_ui({ 'fact', '5', 'workspace' })
  vim.cmd('ParleyMemory add The fee is one unit')
  H.wait_note('remembered as 1')
  vim.cmd('ParleyMemory')
  local memory = require('parley.memory')
  H.wait(10000, function()
    local ms = memory.states[H.root]
    return ms and ms.buf and H.lines(ms.buf)[4] == '[1] fact ★5: The fee is one unit'
  end, 'the memory listing')
end)
