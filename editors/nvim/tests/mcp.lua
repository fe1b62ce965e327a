-- MCP server events (nvim_test.go's TestMCPEvents configures a server
-- that cannot start): the failure is a "✗" line in the chat buffer and a
-- notification, the turn goes on; a restart (no session, sent while
-- another session is shown) is a "↻" line.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  local notified = {}
  local notify = vim.notify
  vim.notify = function(msg, level, opts)
    table.insert(notified, { msg = msg, level = level })
    return notify(msg, level, opts)
  end
  H.setup()
  local chat = require('parley.chat')
  local _, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)

  vim.cmd('ParleyChat hello')
  local st = chat.state(client)
  local r = H.wait_turn(st, 'the turn')
  H.check(r.stopReason == 'end_turn', 'result: ' .. vim.inspect(r))
  local text = H.chat_text(st)
  local line = text:match('\n(✗ MCP server down failed to start: [^\n]*)')
  H.check(line and line:find('no-such-mcp-server', 1, true), 'no failure line naming the command:\n' .. text)
  H.check(H.has_line(st, 'Hi there.'), 'no answer:\n' .. text)
  local warned = false
  for _, n in ipairs(notified) do
    if n.msg:find('MCP server down failed to start', 1, true) and n.level == vim.log.levels.WARN then
      warned = true
    end
  end
  H.check(warned, 'no notification: ' .. vim.inspect(notified))

  chat.on_event(nil, { session = '', turn = 0, kind = 'mcp', text = 'MCP server down restarted', mcp = { server = 'down', state = 'restarted' } },
    { client_id = client.id })
  H.check(H.has_line(st, '↻ MCP server down restarted'), 'no restart line:\n' .. H.chat_text(st))
  H.check(st.session ~= '', 'the mcp event took over the session: ' .. vim.inspect(st.session))
end)
