-- An edit the agent makes (permission mode acceptEdits; the fake model
-- calls edit_file on the open cart/fee.go, then answers "done") lands in
-- the buffer, unsaved; the chat lists the call, its result and the edit;
-- one `u` in the file's window takes it back. PARLEY_TEST_OLD_LINE and
-- PARLEY_TEST_NEW_LINE are line 4 before and after the edit.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local buf, win, client = H.open('cart/fee.go')
  H.wait_indexed(client)
  local original = H.lines(buf)
  H.check(original[4] == os.getenv('PARLEY_TEST_OLD_LINE'), 'line 4 before: ' .. vim.inspect(original))

  vim.cmd('ParleyChat Make Discount subtract 2 from the fee.')
  local st = chat.state(client)
  local r = H.wait_turn(st, 'the edit turn')
  H.check(r.stopReason == 'end_turn', 'result: ' .. vim.inspect(r))

  local want = vim.deepcopy(original)
  want[4] = os.getenv('PARLEY_TEST_NEW_LINE')
  H.check(vim.deep_equal(H.lines(buf), want), 'buffer after the edit: ' .. vim.inspect(H.lines(buf)))
  H.check(vim.bo[buf].modified, 'the buffer is not modified after the edit')

  H.check(H.has_line(st, '▸ edit_file cart/fee.go'), 'no tool call line:\n' .. H.chat_text(st))
  H.check(H.chat_text(st):find('\n✓ edit_file: Edited cart/fee.go', 1, true), 'no tool result line:\n' .. H.chat_text(st))
  H.check(H.has_line(st, '✎ modify cart/fee.go'), 'no edit line:\n' .. H.chat_text(st))
  H.check(H.has_line(st, 'done'), 'no answer:\n' .. H.chat_text(st))
  H.check(H.chat_text(st):find('\n— end_turn', 1, true), 'no footer:\n' .. H.chat_text(st))

  -- Undo in the file's window (the chat window has the focus).
  vim.api.nvim_set_current_win(win)
  vim.cmd('normal! u')
  H.check(vim.deep_equal(H.lines(buf), original), 'buffer after undo: ' .. vim.inspect(H.lines(buf)))
  H.check(not vim.bo[buf].modified, 'the buffer is still modified after undo')
end)
