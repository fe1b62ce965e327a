-- :ParleyCompact [focus] sends parley/compact for the chat's session and
-- the chat buffer shows the compaction as a "⟳" line; without a session
-- it says there is nothing to compact and sends nothing. The session,
-- resumed, shows the past compaction and the summary under a header of
-- its own. The fake model answers "Discount lowers the fee by one.",
-- "Yes, it calls Fee.", the summary request (summarize), then "Still
-- about the fee." (nvim_test.go checks what the model received).
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

local function find_line(st, pattern)
  for _, l in ipairs(H.lines(st.buf)) do
    if l:find(pattern) then
      return l
    end
  end
end

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local _, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)
  local st = chat.state(client)

  vim.cmd('ParleyCompact')
  H.check(#H.compact_params == 0 and not st.compacting, 'compact without a session: ' .. vim.inspect(H.compact_params))
  H.check(H.notes[#H.notes] and H.notes[#H.notes].msg:find('nothing to compact', 1, true), 'notes: ' .. vim.inspect(H.notes))

  vim.cmd('ParleyChat What does Discount do? #keep')
  H.wait_turn(st, 'turn 1')
  vim.cmd('ParleyChat Does it call Fee?')
  local r2 = H.wait_turn(st, 'turn 2')
  local s1 = st.session

  local notes = #H.notes
  vim.cmd('ParleyCompact the fee')
  H.check(st.compacting, 'no compaction running after :ParleyCompact')
  local parley = require('parley')
  H.check(parley.statusline() == 'parley: idle · chat: compacting', 'statusline while compacting: ' .. parley.statusline())
  H.wait(20000, function() return not st.compacting end, function() return 'the compaction; chat:\n' .. H.chat_text(st) end)
  H.check(#H.compact_params == 1 and vim.deep_equal(H.compact_params[1], { session = s1, focus = 'the fee' }),
    'parley/compact params: ' .. vim.inspect(H.compact_params))
  local res = st.last_compact
  H.check(res and not res.err and res.result.session == s1 and res.result.compaction.reason == 'manual',
    'parley/compact answer: ' .. vim.inspect(res))
  local ev = st.events[#st.events]
  H.check(ev.kind == 'compaction' and ev.session == s1 and ev.turn == r2.turn and ev.compaction.focus == 'the fee',
    'last event: ' .. vim.inspect(ev))
  local want = '⟳ ' .. ev.text .. ' (focus: the fee)'
  H.check(want:find('^⟳ compacted the conversation %(manual%): %d+ %-> %d+ tokens; .*3 messages summarised'), 'event text: ' .. want)
  local lines = H.lines(st.buf)
  H.check(lines[#lines] == want, 'the last chat line is not the compaction line ' .. want .. ':\n' .. H.chat_text(st))
  H.check(not st.running and #H.notes == notes, 'notes: ' .. vim.inspect(H.notes))
  H.check(parley.statusline() == 'parley: idle', 'statusline after compacting: ' .. parley.statusline())

  -- The session goes on from the summary.
  vim.cmd('ParleyChat And now?')
  local r3 = H.wait_turn(st, 'the turn after compacting')
  H.check(r3.session == s1 and r3.turn == 3 and H.has_line(st, 'Still about the fee.'), 'turn 3: ' .. vim.inspect(r3))

  -- Resumed, the session shows the compaction and the summary.
  local done = false
  require('parley.sessions').resume(client, s1, function() done = true end)
  H.wait(10000, function() return done end, 'the resumed session')
  H.check(H.has_line(st, want), 'no compaction line in the resumed session:\n' .. H.chat_text(st))
  H.check(H.has_line(st, '## Summary of the earlier conversation') and find_line(st, '^%[Compacted history%]'),
    'no summary in the resumed session:\n' .. H.chat_text(st))
  H.check(H.has_line(st, 'Still about the fee.') and not H.has_line(st, 'Discount lowers the fee by one.'),
    'resumed history:\n' .. H.chat_text(st))
end)
