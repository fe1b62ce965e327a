-- Permission mode "default": the agent's edit is asked about through the
-- plugin's window/showMessageRequest handler, i.e. vim.ui.select (stubbed
-- here to answer "Deny", asynchronously); the buffer stays as it was and
-- the chat shows the question, the answer and the denied call. The fake
-- model then answers "I left it unchanged.". Then set_agent() switches to
-- acceptEdits and the same edit applies without a question.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local chat = require('parley.chat')
  local buf, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)
  local original = H.lines(buf)

  local asked = {}
  vim.ui.select = function(items, opts, on_choice)
    local titles, deny = {}, nil
    for _, it in ipairs(items) do
      local t = opts.format_item(it)
      table.insert(titles, t)
      if t == 'Deny' then
        deny = it
      end
    end
    table.insert(asked, { prompt = opts.prompt, kind = opts.kind, titles = titles })
    vim.schedule(function() on_choice(deny) end)
  end

  vim.cmd('ParleyChat Make Discount subtract 2 from the fee.')
  local st = chat.state(client)
  local r = H.wait_turn(st, 'the denied turn')
  H.check(r.stopReason == 'end_turn', 'result: ' .. vim.inspect(r))

  H.check(#asked == 1, 'questions: ' .. vim.inspect(asked))
  local q = asked[1]
  H.check(q.kind == 'parley.approval' and q.prompt:find('cart/fee.go', 1, true), 'question: ' .. vim.inspect(q))
  H.check(vim.deep_equal(q.titles, { 'Allow once', 'Allow for this session', 'Deny' }), 'actions: ' .. vim.inspect(q))

  H.check(vim.deep_equal(H.lines(buf), original), 'buffer after the denial: ' .. vim.inspect(H.lines(buf)))
  H.check(not vim.bo[buf].modified, 'the buffer is modified after the denial')

  local text = H.chat_text(st)
  H.check(H.has_line(st, '▸ edit_file cart/fee.go'), 'no tool call line:\n' .. text)
  H.check(text:find('\n? parley wants to change', 1, true) and H.has_line(st, '  → Deny'), 'no question/answer:\n' .. text)
  H.check(text:find('\n✗ edit_file: permission denied', 1, true), 'no denial line:\n' .. text)
  H.check(not text:find('✎', 1, true), 'an edit is listed:\n' .. text)
  H.check(H.has_line(st, 'I left it unchanged.'), 'no answer:\n' .. text)
  for _, e in ipairs(st.events) do
    H.check(e.kind ~= 'edit', 'edit event: ' .. vim.inspect(e))
  end

  -- workspace/didChangeConfiguration: the next turn accepts edits.
  local agent = vim.deepcopy(require('parley.config').options.init_options.agent)
  agent.permission_mode = 'acceptEdits'
  require('parley').set_agent(agent)
  vim.cmd('ParleyChat Do it anyway.')
  local r2 = H.wait_turn(st, 'the turn after set_agent')
  H.check(r2.stopReason == 'end_turn' and r2.turn == 2, 'result: ' .. vim.inspect(r2))
  H.check(#asked == 1, 'asked again: ' .. vim.inspect(asked))
  H.check(H.lines(buf)[4]:find('return Fee() - 2', 1, true), 'buffer after acceptEdits: ' .. vim.inspect(H.lines(buf)))
  H.check(H.has_line(st, '✎ modify cart/fee.go'), 'no edit line:\n' .. H.chat_text(st))
end)
