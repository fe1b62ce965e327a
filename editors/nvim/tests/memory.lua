-- :ParleyMemory through the real server's parley/memory* requests: add
-- (the text given or asked, then type, importance and scope through
-- vim.ui), the listing buffer with its markers, search, show, a memory
-- anchored to cart/fee.go going stale when the buffer changes, edit from
-- the listing buffer's `e` (confirming clears the stale mark) and from
-- the command, forget only after "Forget" is chosen, stats, and errors
-- reported with the server's reason.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup()
  local memory = require('parley.memory')
  local buf, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)
  local st = memory.states[H.root]

  local function listing()
    st = memory.states[H.root]
    return st and st.buf and vim.api.nvim_buf_is_valid(st.buf) and H.lines(st.buf) or {}
  end
  local function wait_listing(first, what)
    H.wait(10000, function() return listing()[1] == first end, function()
      return what .. '; listing:\n' .. table.concat(listing(), '\n')
    end)
    return listing()
  end
  local function refs()
    local out = {}
    for _, m in ipairs(H.request(client, 'parley/memoryList').memories) do
      out[#out + 1] = m.ref .. '=' .. m.importance
    end
    return table.concat(out, ' ')
  end

  H.script_ui({ 'decision', '8', 'workspace' })
  vim.cmd('ParleyMemory add Releases are cut on Fridays')
  H.wait_note('remembered as 1')
  H.check(vim.deep_equal(H.asked, { 'Memory type:', 'Importance 1-10: ', 'Scope:' }), 'asked ' .. vim.inspect(H.asked))
  H.script_ui({ 'Prefers tabs', 'preference', '5', 'user' })
  vim.cmd('ParleyMemory add')
  H.wait_note('remembered as u1')
  H.check(#H.answers == 0, 'answers left: ' .. vim.inspect(H.answers))

  vim.cmd('ParleyMemory')
  local lines = wait_listing('parley: memories', 'the list')
  H.check(lines[4] == '[1] decision ★8: Releases are cut on Fridays' and lines[5] == '[u1] preference ★5 user: Prefers tabs',
    'listing:\n' .. table.concat(lines, '\n'))
  H.check(vim.fn.bufwinid(st.buf) ~= -1, 'the listing is not shown')

  vim.cmd('ParleyMemory search when are releases cut')
  lines = wait_listing('parley: memories matching "when are releases cut"', 'the search')
  H.check(#lines == 4 and lines[4]:find('^%[1%]'), 'search:\n' .. table.concat(lines, '\n'))

  vim.cmd('ParleyMemory show 1')
  lines = wait_listing('parley: memory 1', 'show 1')
  H.check(vim.tbl_contains(lines, 'importance: 8') and vim.tbl_contains(lines, 'Releases are cut on Fridays'),
    'show:\n' .. table.concat(lines, '\n'))

  -- An anchored memory goes stale when the editor's buffer changes the file.
  H.request(client, 'parley/memoryAdd', { content = 'Discount lives in fee.go', anchors = { { path = 'cart/fee.go' } } })
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '// a new first line' })
  vim.cmd('ParleyMemory stale')
  H.wait(10000, function()
    local l = listing()
    return l[1] == 'parley: stale memories (edit to confirm, or forget)' and l[4] and l[4]:find('STALE', 1, true)
  end, function() return 'the stale list:\n' .. table.concat(listing(), '\n') end)
  lines = listing()
  H.check(lines[4] == '[2] fact ★5: Discount lives in fee.go  [STALE: cart/fee.go changed]', 'stale:\n' .. table.concat(lines, '\n'))

  -- `e` on its line: confirm it; the stale list is redrawn empty.
  vim.api.nvim_set_current_win(vim.fn.bufwinid(st.buf))
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  H.script_ui({ 'confirm as still true' })
  vim.cmd('normal e')
  H.wait_note('memory 2 saved')
  wait_listing('parley: stale memories (edit to confirm, or forget)', 'the stale list again')
  H.wait(10000, function() return listing()[4] == 'no stale memories' end, function() return 'no stale memories:\n' .. table.concat(listing(), '\n') end)

  H.script_ui({ 'importance', '9' })
  vim.cmd('ParleyMemory edit 1')
  H.wait_note('memory 1 saved')
  H.check(refs() == '1=9 2=5 u1=5', 'after edit: ' .. refs())

  -- A bad importance is refused before any request.
  H.script_ui({ 'importance', '11' })
  vim.cmd('ParleyMemory edit 1')
  local bad, at = H.wait_note('importance must be a whole number from 1 to 10, not "11"')
  H.check(bad.level == vim.log.levels.ERROR, 'level ' .. tostring(bad.level))
  table.remove(H.notes, at)

  H.script_ui({ 'Keep' })
  vim.cmd('ParleyMemory forget u1')
  H.wait(10000, function() return #H.answers == 0 and H.asked[#H.asked]:find('^Forget memory u1%? Prefers tabs') end, 'the forget question')
  H.check(refs() == '1=9 2=5 u1=5', 'kept: ' .. refs())
  H.script_ui({ 'Forget' })
  vim.cmd('ParleyMemory forget u1')
  H.wait_note('forgot memory u1')
  H.check(refs() == '1=9 2=5', 'after forget: ' .. refs())

  local stats
  memory.stats(client, function(l) stats = l end)
  H.wait(10000, function() return stats ~= nil end, 'the stats')
  H.check(stats[1]:find('^workspace memories: 2 %(1 fact, 1 decision%) in ') and stats[2]:find('^user memories: 0 in '),
    'stats ' .. vim.inspect(stats))
  vim.cmd('ParleyMemory stats')

  -- The server's reason reaches the user.
  vim.cmd('ParleyMemory show 99')
  local err, i = H.wait_note('parley/memoryShow: parley/memoryShow: memory 99: memory not found')
  H.check(err.level == vim.log.levels.ERROR, 'level ' .. tostring(err.level))
  table.remove(H.notes, i)
  vim.cmd('ParleyMemory frobnicate')
  H.check(H.note('unknown :ParleyMemory subcommand "frobnicate"'), 'notes ' .. vim.inspect(H.notes))
  H.check(vim.deep_equal(memory.complete('s', 'ParleyMemory s'), { 'search', 'show', 'stale', 'stats' }), 'completion')
end)
