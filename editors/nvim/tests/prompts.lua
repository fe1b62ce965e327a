-- Prompt commands (nvim_test.go's TestPromptCommands writes them): the
-- names complete after :ParleyChat (the first word only), :ParleyCommands
-- lists them with hint and description, and :ParleyChat /review ... runs
-- the command (the server expands it; the Go side checks what the model
-- got).
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local prompts = require('parley.prompts')
  local _, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)

  local all = vim.fn.getcompletion('ParleyChat /', 'cmdline')
  H.check(vim.deep_equal(all, { '/explain', '/git:branch', '/review' }), 'completions of /: ' .. vim.inspect(all))
  local re = vim.fn.getcompletion('ParleyChat /re', 'cmdline')
  H.check(vim.deep_equal(re, { '/review' }), 'completions of /re: ' .. vim.inspect(re))
  H.check(#vim.fn.getcompletion('ParleyNew /review err', 'cmdline') == 0, 'an argument was completed as a command')
  H.check(vim.deep_equal(prompts.complete_input('/ex'), { '/explain' }), 'the parley> prompt completes too')

  local lines = prompts.lines(prompts.list(client))
  H.check(lines[3] and lines[3]:match('^/review %[focus%] +Review a change %(workspace%)$'), 'listed: ' .. vim.inspect(lines))
  H.check(lines[2] and lines[2]:find('shell lines not approved: parley commands approve', 1, true), 'listed: ' .. vim.inspect(lines))

  vim.cmd('ParleyChat /review error handling')
  local st = chat.state(client)
  local r = H.wait_turn(st, 'the prompt command turn')
  H.check(r.stopReason == 'end_turn', 'result: ' .. vim.inspect(r))
  H.check(H.has_line(st, 'Reviewed.'), 'no answer:\n' .. H.chat_text(st))
end)
