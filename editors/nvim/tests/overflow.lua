-- A compaction inside a turn: the model refuses the third turn's request
-- as too long (context_length_exceeded), the agent compacts (reason
-- "overflow") and asks again. The chat buffer shows the "⟳" line inside
-- the turn, before the answer, and keeps the turn's question. The fake
-- model answers "Discount lowers the fee by one.", "Yes, it calls Fee.",
-- refuses, answers the summary request (summarize), then "Answered after
-- compacting.". Then a stream cut by an overflow after a tool result,
-- played to the event handler: the partial answer is taken back.
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

  -- A stream cut by an overflow after a tool result (the fake model cannot
  -- fail mid-stream, so these events are played to the handler): the
  -- partial answer is taken back, the tool lines stay.
  local function play(e)
    chat.on_event(nil, vim.tbl_extend('force', { session = st.session, turn = 4 }, e), { client_id = client.id })
  end
  st.running, st.done_seen = true, false
  st.answer_mark = { #H.lines(st.buf), false }
  play({ kind = 'text', text = 'Let me look.' })
  play({ kind = 'toolCall', toolCallId = 't1', toolName = 'read_file', input = { path = 'cart/fee.go' } })
  play({ kind = 'toolResult', toolCallId = 't1', toolName = 'read_file', result = { content = 'package cart' } })
  play({ kind = 'text', text = 'The answer that was cut' })
  play({ kind = 'compaction', text = 'compacted the conversation (overflow): 9000 -> 3000 tokens; 2 messages summarised',
    compaction = { reason = 'overflow', tokensBefore = 9000, tokensAfter = 3000, masked = 0, summarised = 2 } })
  play({ kind = 'text', text = 'The whole answer.' })
  play({ kind = 'done', stopReason = 'end_turn' })
  local tail = table.concat(vim.list_slice(H.lines(st.buf), #lines + 1), '\n')
  H.check(not tail:find('was cut', 1, true) and tail:find('Let me look.', 1, true) and tail:find('✓ read_file: package cart', 1, true)
    and tail:find('✓ read_file: package cart\n⟳ compacted the conversation %(overflow%): 9000 %-> 3000 tokens; 2 messages summarised\n\nThe whole answer.'),
    'after a cut stream:\n' .. tail)
  H.check(not st.running and st.answer_mark == nil, 'the played turn did not end')
end)
