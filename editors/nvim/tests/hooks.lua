-- Hooks (nvim_test.go's TestHooks writes the configs): the user's
-- PreToolUse hook on edit_file exits 2, so the fake model's edit does not
-- run, and the workspace's hook, not approved, is refused. Each is one "⚑"
-- line; the refused one says how to approve. The buffer is untouched.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local buf, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)
  local original = H.lines(buf)

  vim.cmd('ParleyChat Make Discount subtract 2 from the fee.')
  local st = chat.state(client)
  local r = H.wait_turn(st, 'the blocked turn')
  H.check(r.stopReason == 'end_turn', 'result: ' .. vim.inspect(r))
  local text = H.chat_text(st)

  H.check(H.has_line(st, '⚑ hook PreToolUse `echo no edits today >&2; exit 2`: blocked: no edits today'), 'no blocked hook line:\n' .. text)
  local refused = text:match('\n(⚑ hook PreToolUse `touch ran`: refused[^\n]*)')
  H.check(refused and refused:find('`parley hooks approve`', 1, true), 'no refused hook line saying how to approve:\n' .. text)
  H.check(text:find('\n✗ edit_file: ', 1, true), 'the blocked call is not an error result:\n' .. text)
  H.check(H.has_line(st, 'I left it unchanged.'), 'no answer:\n' .. text)
  -- One line per run that did not end ok, none for the others.
  local n = select(2, text:gsub('⚑', ''))
  H.check(n == 2, n .. ' hook lines:\n' .. text)
  -- A refusal cut short (a long config path) still says how to approve.
  chat.on_event(nil, {
    session = st.session, turn = 1, kind = 'hook', text = 'hook PreToolUse `x`: refused: not run: hooks from /' .. string.rep('d/', 200),
    hook = { event = 'PreToolUse', command = 'x', outcome = 'refused' },
  }, { client_id = client.id })
  H.check(H.has_line(st, require('parley.hooks').approve_hint), 'no approval hint under a cut line:\n' .. H.chat_text(st))
  H.check(vim.deep_equal(H.lines(buf), original), 'buffer after the blocked edit: ' .. vim.inspect(H.lines(buf)))
end)
