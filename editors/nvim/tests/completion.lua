-- Inline completion end to end: the workspace's .parley/config.json
-- points the completion model at the fake (nvim_test.go has its fim
-- rules, every answer held PARLEY_TEST_FIM_DELAY ms). Typing in Insert
-- mode shows the model's answer as ghost text; the accept key inserts it
-- and one `u` takes it back; the position is sent in UTF-16 (a line with
-- non-ASCII text before the cursor); a second keystroke while the first
-- request waits for the model cancels it, and only the second answer
-- shows.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local api = vim.api
local util = require('parley.util')

-- The plugin's parley/inlineCompletion requests: { id, params, err,
-- result, answered }, the ids it cancelled and the events it sent.
local reqs, cancelled, events, commands = {}, {}, {}, {}
local request = util.request
util.request = function(client, method, params, handler, bufnr)
  if method == 'parley/inlineCompletion' then
    local r = { params = vim.deepcopy(params) }
    table.insert(reqs, r)
    local ok, id = request(client, method, params, function(err, result, ...)
      r.err, r.result, r.answered = err, result, true
      return handler(err, result, ...)
    end, bufnr)
    r.id = id
    return ok, id
  elseif method == 'workspace/executeCommand' then
    table.insert(commands, vim.deepcopy(params))
  end
  return request(client, method, params, handler, bufnr)
end
local cancel = util.cancel_request
util.cancel_request = function(client, id)
  table.insert(cancelled, id)
  return cancel(client, id)
end
local notify = util.notify_server
util.notify_server = function(client, method, params)
  if method == 'parley/completionEvent' then
    table.insert(events, params.event)
  end
  return notify(client, method, params)
end

local completion = require('parley.completion')

--- The ghost text in buf: { row, col, pos, text, lines }, or nil.
local function ghost(buf)
  local m = api.nvim_buf_get_extmarks(buf, completion.ns, 0, -1, { details = true })
  if #m == 0 then
    return nil
  end
  local d = m[1][4]
  local g = { row = m[1][2], col = m[1][3], pos = d.virt_text_pos, text = d.virt_text and d.virt_text[1][1], lines = {} }
  for _, l in ipairs(d.virt_lines or {}) do
    table.insert(g.lines, l[1][1])
  end
  return g
end

local function state()
  return 'requests: ' .. vim.inspect(reqs) .. '\nevents: ' .. vim.inspect(events) .. '\nnotes: ' .. vim.inspect(H.notes)
end

H.async(function()
  H.setup()
  local delay = tonumber(os.getenv('PARLEY_TEST_FIM_DELAY'))

  -- A new line in an empty function body: a multi-line completion, its
  -- first line over the empty rest of the line, the next as a virtual line.
  local buf, _, client = H.open('cart/double.go')
  H.wait_indexed(client)
  local original = H.lines(buf)
  H.feed('4GA', 10)
  H.feed('<CR>')
  H.wait_async(10000, function() return ghost(buf) ~= nil end, function() return 'the ghost text; ' .. state() end)
  local g = ghost(buf)
  H.check(g.row == 4 and g.col == 1 and g.pos == 'overlay' and g.text == 'total := 2 * Fee()', 'ghost text ' .. vim.inspect(g))
  H.check(vim.deep_equal(g.lines, { '        return total' }), 'virt_lines ' .. vim.inspect(g.lines))
  H.check(reqs[#reqs].params.position.line == 4 and reqs[#reqs].params.position.character == 1 and
    reqs[#reqs].params.context.triggerKind == 2, 'params ' .. vim.inspect(reqs[#reqs].params))
  H.check(events[#events] == 'shown', 'events ' .. vim.inspect(events))

  H.feed('<M-l>')
  local want = vim.deepcopy(original)
  table.insert(want, 5, '\ttotal := 2 * Fee()')
  table.insert(want, 6, '\treturn total')
  H.check(vim.deep_equal(H.lines(buf), want), 'after accept: ' .. vim.inspect(H.lines(buf)))
  H.check(vim.deep_equal(api.nvim_win_get_cursor(0), { 6, 13 }), 'cursor ' .. vim.inspect(api.nvim_win_get_cursor(0)))
  H.check(ghost(buf) == nil, 'ghost text after accept')
  H.check(events[#events] == 'shown', 'events after accept ' .. vim.inspect(events))
  H.check(#commands == 1 and commands[1].command == 'parley.completion.accepted', 'executeCommand ' .. vim.inspect(commands))
  H.feed('<Esc>')
  H.feed('u')
  local lines = H.lines(buf)
  H.check(#lines == #original + 1 and vim.trim(lines[5]) == '' and not table.concat(lines, '\n'):find('total'),
    'after one u: ' .. vim.inspect(lines))

  -- UTF-16: "« héllo 😀 »" comes before the cursor; with text after it,
  -- the suggestion goes after the end of the line.
  buf = H.open('cart/fee.go')
  local line4 = H.lines(buf)[4]
  local at = line4:find('return Fee() - 1', 1, true) + #'return Fee() - 1' - 1
  api.nvim_win_set_cursor(0, { 4, at - 1 })
  H.feed('a', 10)
  local n = #reqs
  H.feed(' +')
  H.wait_async(10000, function() return ghost(buf) ~= nil end, function() return 'the ghost text in fee.go; ' .. state() end)
  g = ghost(buf)
  H.check(g.pos == 'eol' and g.text == ' Fee()' and g.col == at + 2, 'fee.go ghost text ' .. vim.inspect(g))
  local p = reqs[#reqs].params.position
  -- 😀 is two UTF-16 code units; " +" two more.
  H.check(#reqs > n and p.line == 3 and p.character == vim.fn.strchars(line4:sub(1, at)) + 1 + 2,
    'UTF-16 position ' .. vim.inspect(p) .. ' for byte ' .. (at + 2))
  H.feed('<M-l>')
  H.check(H.lines(buf)[4] == line4:sub(1, at) .. ' + Fee()' .. line4:sub(at + 1), 'fee.go after accept: ' .. H.lines(buf)[4])
  H.feed('<Esc>')

  -- A second keystroke while the first request waits for the model.
  buf = H.open('cart/tax.go')
  H.feed('3GA', 10)
  n = #reqs
  H.feed('v')
  H.wait_async(5000, function() return #reqs > n end, 'the request after v')
  local first = reqs[#reqs]
  -- Time for the server's debounce (75 ms) to pass and the request to
  -- reach the fake, which holds its answer much longer.
  H.sleep(math.floor(delay / 4))
  H.check(not first.answered, 'the first request was answered before the second keystroke: ' .. state())
  H.feed('a')
  H.wait_async(10000, function() return ghost(buf) ~= nil end, function() return 'the ghost text in tax.go; ' .. state() end)
  g = ghost(buf)
  H.check(g.text == 'r second = 2', 'tax.go ghost text ' .. vim.inspect(g))
  H.check(vim.tbl_contains(cancelled, first.id), 'the first request was not cancelled: ' .. vim.inspect(cancelled))
  local items = first.result and first.result.items or {}
  H.check(#items == 0, 'the superseded request got items: ' .. state())
  H.feed('<Esc>')
  H.check(ghost(buf) == nil, 'ghost text after <Esc>')
  H.check(events[#events] == 'dismissed', 'events ' .. vim.inspect(events))
  local f = assert(io.open(os.getenv('PARLEY_TEST_RESULT') .. '.events', 'w'))
  f:write(table.concat(events, '\n'))
  f:close()
end)
