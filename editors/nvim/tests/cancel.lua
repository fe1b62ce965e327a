-- :ParleyStop cancels the running turn ($/cancelRequest): the fake model
-- holds its answer open after a first fragment; the turn ends with stop
-- reason "cancelled", the statusline stops saying "chat: running", and
-- the session takes the next message (the model answers "Back again.").
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local parley = require('parley')
  local chat = require('parley.chat')
  local _, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)

  vim.cmd('ParleyChat Take your time.')
  local st = chat.state(client)
  H.wait(20000, function() return #st.events > 0 and st.events[1].kind == 'text' end,
    function() return 'the first fragment; events: ' .. H.kinds(st) end)
  H.check(st.running and parley.statusline():find('chat: running', 1, true), 'statusline: ' .. parley.statusline())
  local s1 = st.session

  vim.cmd('ParleyStop')
  local r = H.wait_turn(st, 'the cancelled turn')
  H.check(r.stopReason == 'cancelled' and r.session == s1, 'result: ' .. vim.inspect(r))
  H.check(st.events[#st.events].kind == 'done' and st.events[#st.events].stopReason == 'cancelled',
    'last event: ' .. vim.inspect(st.events[#st.events]))
  H.check(H.chat_text(st):find('\n— cancelled', 1, true), 'no footer:\n' .. H.chat_text(st))
  H.check(parley.statusline() == 'parley: idle', 'statusline after stop: ' .. parley.statusline())

  vim.cmd('ParleyChat Are you there?')
  local r2 = H.wait_turn(st, 'the turn after the cancel')
  H.check(r2.session == s1 and r2.turn == 2 and r2.stopReason == 'end_turn', 'next turn: ' .. vim.inspect(r2))
  H.check(H.has_line(st, 'Back again.'), 'chat:\n' .. H.chat_text(st))
end)
