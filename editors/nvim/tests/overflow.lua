-- A compaction inside a turn: the model refuses the third turn's request
-- as too long (context_length_exceeded), the agent compacts (reason
-- "overflow") and asks again. The chat buffer shows the "⟳" line inside
-- the turn, before the answer, and keeps the turn's question. The fake
-- model answers "Discount lowers the fee by one.", "Yes, it calls Fee.",
-- refuses, answers the
-- summary request (summarize), then "Answered after compacting.".
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local _, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)
  local st = chat.state(client)

  vim.cmd('ParleyChat What does Discount do? #keep')
  H.wait_turn(st, 'turn 1')
  vim.cmd('ParleyChat Does it call Fee?')
  H.wait_turn(st, 'turn 2')
  vim.cmd('ParleyChat And the tax?')
  local r3 = H.wait_turn(st, 'turn 3')
  H.check(r3.stopReason == 'end_turn' and r3.turn == 3, 'turn 3: ' .. vim.inspect(r3))
  local ev
  for _, e in ipairs(st.events) do
    if e.kind == 'compaction' then
      ev = e
    end
  end
  H.check(ev and ev.turn == 3 and ev.compaction.reason == 'overflow', 'no overflow compaction: ' .. H.kinds(st))
  -- The turn reads: question, the parley header, the compaction, the answer.
  local lines = H.lines(st.buf)
  local at = {}
  for i, l in ipairs(lines) do
    at[l] = at[l] or i
  end
  local line = '⟳ ' .. ev.text
  H.check(line:find('^⟳ compacted the conversation %(overflow%): %d+ %-> %d+ tokens;'), 'line: ' .. line)
  local q, c, a = at['And the tax?'], at[line], at['Answered after compacting.']
  H.check(q and c and a and q < c and c < a and lines[c - 1] == '## parley', 'order in the chat:\n' .. H.chat_text(st))
end)
