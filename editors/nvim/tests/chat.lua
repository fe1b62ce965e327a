-- :ParleyChat streams the answer into the chat buffer and keeps the
-- session; :ParleyNew starts another; :ParleySessions resumes the first
-- (history loaded) and the next message continues it; a code action
-- (vim.lsp.buf.code_action, "parley: Explain") runs in the chat buffer.
-- The fake model answers, in order: "Discount lowers the fee by one.",
-- "Yes, it calls Fee.", "Fresh start.", "Back in the first session.",
-- "It returns the fee minus one.".
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local parley = require('parley')
  local chat = require('parley.chat')
  local buf, win, client = H.open('cart/fee.go')
  H.wait_indexed(client)

  -- Turn 1, with lines 3-4 as context (line 4 has non-ASCII text: its
  -- end is sent in UTF-16 code units).
  vim.cmd('3,4ParleyChat What does Discount do?')
  local st = chat.state(client)
  H.check(st.running, 'no turn running after :ParleyChat')
  H.check(parley.statusline():find('chat: running', 1, true), 'statusline while running: ' .. parley.statusline())
  H.check(vim.api.nvim_get_current_buf() == st.buf, 'the chat buffer does not have focus')
  H.check(vim.bo[st.buf].filetype == 'markdown' and vim.bo[st.buf].buftype == 'nofile',
    'chat buffer options: ' .. vim.bo[st.buf].filetype .. ' ' .. vim.bo[st.buf].buftype)
  H.check(not vim.lsp.buf_is_attached(st.buf, client.id), 'the chat buffer is attached to the server')
  local r1 = H.wait_turn(st, 'turn 1')
  H.check(r1.stopReason == 'end_turn' and r1.turn == 1, 'turn 1: ' .. vim.inspect(r1))
  H.check(H.has_line(st, '## You') and H.has_line(st, 'What does Discount do?'), 'no question:\n' .. H.chat_text(st))
  H.check(H.has_line(st, '*context: cart/fee.go:3-4*'), 'no context line:\n' .. H.chat_text(st))
  local ctx = vim.deepcopy(H.last_params.context)
  local l4 = vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1]
  H.check(ctx and ctx.uri == vim.uri_from_bufnr(buf) and ctx.range.start.line == 2 and ctx.range.start.character == 0 and
    ctx.range['end'].line == 3 and ctx.range['end'].character == select(2, vim.str_utfindex(l4)) and
    ctx.range['end'].character < #l4, 'context: ' .. vim.inspect(ctx))
  -- The answer came in two fragments and is one line.
  local texts = 0
  for _, e in ipairs(st.events) do
    if e.kind == 'text' then
      texts = texts + 1
    end
  end
  H.check(texts >= 2, 'text events: ' .. H.kinds(st))
  H.check(H.has_line(st, 'Discount lowers the fee by one.'), 'no answer line:\n' .. H.chat_text(st))
  H.check(H.chat_text(st):find('\n— end_turn · %d+ in, %d+ out tokens'), 'no footer:\n' .. H.chat_text(st))
  H.check(parley.statusline() == 'parley: idle', 'statusline after the turn: ' .. parley.statusline())
  local s1 = st.session
  H.check(s1 and s1 == r1.session, 'session ' .. tostring(s1) .. ' result ' .. vim.inspect(r1))

  -- Turn 2 continues the session; sent from the chat buffer (no context),
  -- the message typed at the prompt.
  local prompted
  vim.ui.input = function(opts, on_confirm)
    prompted = opts.prompt
    on_confirm('Does it call Fee?')
  end
  vim.cmd('ParleyChat')
  H.check(prompted == 'parley> ', 'prompt: ' .. vim.inspect(prompted))
  H.check(H.last_params.context == nil and H.last_params.session == s1, 'turn 2 params: ' .. vim.inspect(H.last_params))
  local r2 = H.wait_turn(st, 'turn 2')
  H.check(r2.session == s1 and r2.turn == 2 and r2.stopReason == 'end_turn', 'turn 2: ' .. vim.inspect(r2))
  H.check(H.has_line(st, 'Discount lowers the fee by one.') and H.has_line(st, 'Yes, it calls Fee.'),
    'chat after turn 2:\n' .. H.chat_text(st))

  -- :ParleyNew starts another session in a cleared buffer.
  vim.cmd('ParleyNew Start over.')
  local r3 = H.wait_turn(st, 'the new session')
  H.check(r3.session ~= s1 and r3.turn == 1, 'new session: ' .. vim.inspect(r3))
  H.check(not H.has_line(st, 'Discount lowers the fee by one.') and H.has_line(st, 'Fresh start.'),
    'chat after :ParleyNew:\n' .. H.chat_text(st))
  local s3 = r3.session

  -- :ParleySessions offers both; choosing the first loads its history.
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = {}
    local pick
    for _, it in ipairs(items) do
      table.insert(offered, { id = it.id, label = opts.format_item(it) })
      if it.id == s1 then
        pick = it
      end
    end
    on_choice(pick)
  end
  vim.cmd('ParleySessions')
  H.wait(10000, function() return st.session == s1 and H.has_line(st, 'Yes, it calls Fee.') end,
    function() return 'the resumed session; chat:\n' .. H.chat_text(st) end)
  local ids = {}
  for _, o in ipairs(offered) do
    ids[o.id] = true
  end
  H.check(#offered == 2 and ids[s1] and ids[s3], 'sessions offered: ' .. vim.inspect(offered))
  H.check(H.has_line(st, 'Discount lowers the fee by one.') and not H.has_line(st, 'Fresh start.'),
    'history of the resumed session:\n' .. H.chat_text(st))
  H.check(H.chat_text(st):find('What does Discount do?', 1, true) and H.chat_text(st):find('Does it call Fee?', 1, true),
    'the questions are not in the history:\n' .. H.chat_text(st))

  vim.cmd('ParleyChat And now?')
  local r4 = H.wait_turn(st, 'the resumed turn')
  H.check(r4.session == s1 and r4.turn == 3, 'resumed turn: ' .. vim.inspect(r4))
  H.check(H.has_line(st, 'Back in the first session.'), 'chat after resuming:\n' .. H.chat_text(st))

  -- A code action from the file's window: "parley: Explain".
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { 4, 0 })
  local titles
  vim.ui.select = function(items, opts, on_choice)
    titles = {}
    local pick
    for _, it in ipairs(items) do
      local t = opts.format_item(it)
      table.insert(titles, t)
      if t == 'parley: Explain' then
        pick = it
      end
    end
    on_choice(pick)
  end
  vim.lsp.buf.code_action()
  H.wait(10000, function() return st.running or (st.last and st.session ~= s1) end,
    function() return 'the code action turn; offered: ' .. vim.inspect(titles) end)
  local r5 = H.wait_turn(st, 'the code action turn')
  H.check(r5.session ~= s1 and r5.session ~= s3 and r5.turn == 1 and r5.stopReason == 'end_turn',
    'code action turn: ' .. vim.inspect(r5))
  H.check(st.session == r5.session, 'the chat does not continue the code action session')
  H.check(H.has_line(st, 'parley: Explain — cart/fee.go:4') and H.has_line(st, 'It returns the fee minus one.'),
    'chat after the code action:\n' .. H.chat_text(st))
  H.check(vim.api.nvim_get_current_win() == win, 'the code action took the focus')
  H.check(not vim.bo[buf].modified, 'the file buffer changed')
end)
