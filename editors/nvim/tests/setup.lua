-- setup() starts the client for a buffer's root and attaches buffers of
-- the same root to the same client (another root gets its own); the
-- statusline follows index progress; :ParleyIndexStatus and
-- :ParleyReindex work.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')

H.run(function()
  H.setup({ keymaps = { chat = '<leader>pc', stop = '<leader>px' } })
  H.check(vim.fn.maparg('<leader>pc', 'n') ~= '' and vim.fn.maparg('<leader>pc', 'x') ~= '' and
    vim.fn.maparg('<leader>px', 'n') ~= '' and vim.fn.maparg('<leader>pn', 'n') == '', 'keymaps')
  for _, name in ipairs({ 'ParleyChat', 'ParleyNew', 'ParleyStop', 'ParleySessions', 'ParleyDeleteSession',
    'ParleyIndexStatus', 'ParleyReindex', 'ParleyStart' }) do
    H.check(vim.fn.exists(':' .. name) == 2, 'no command ' .. name)
  end
  local parley = require('parley')
  H.check(parley.statusline() == '', 'statusline before any client: ' .. vim.inspect(parley.statusline()))

  -- Every statusline text seen while progress arrives.
  local seen = {}
  vim.api.nvim_create_autocmd('User', {
    pattern = 'ParleyStatus',
    callback = function() table.insert(seen, parley.statusline()) end,
  })

  local buf, _, client = H.open('cart/fee.go')
  H.check(client.name == 'parley', 'client name ' .. tostring(client.name))
  H.check(client.config.root_dir == H.root, 'root ' .. tostring(client.config.root_dir) .. ', want ' .. H.root)

  -- A second file of the root: same client. A file of another root (a
  -- .git marker there) gets another.
  local buf2, _, client2 = H.open('cart/cart.go')
  H.check(client2.id == client.id, 'a second client for the same root')
  H.check(vim.lsp.buf_is_attached(buf, client.id) and vim.lsp.buf_is_attached(buf2, client.id), 'buffers not attached')
  local other = os.getenv('PARLEY_TEST_ROOT2')
  vim.cmd('edit ' .. vim.fn.fnameescape(other .. '/main.go'))
  local buf3 = vim.api.nvim_get_current_buf()
  local client3
  H.wait(15000, function()
    client3 = require('parley.client').for_buffer(buf3, false)
    return client3 and client3.initialized and vim.lsp.buf_is_attached(buf3, client3.id)
  end, 'the client of the second root')
  H.check(client3.id ~= client.id and client3.config.root_dir == other,
    'second root: client ' .. client3.id .. ' root ' .. tostring(client3.config.root_dir))
  H.check(not vim.lsp.buf_is_attached(buf3, client.id), 'the other root is attached to the first client')

  -- The first index run ends; the statusline showed it and is idle now.
  vim.cmd('buffer ' .. buf)
  H.wait_indexed(client)
  H.wait_indexed(client3)
  H.wait(10000, function() return parley.statusline() == 'parley: idle' end,
    function() return 'statusline idle, got ' .. vim.inspect(parley.statusline()) end)
  local indexing = false
  for _, s in ipairs(seen) do
    if s:match('^parley: indexing') then
      indexing = true
    end
  end
  H.check(indexing, 'statusline never showed indexing: ' .. vim.inspect(seen))

  -- :ParleyIndexStatus echoes the status of the buffer's server.
  vim.cmd('ParleyIndexStatus')
  H.wait(10000, function() return vim.fn.execute('messages'):find('parley: %d+ files, %d+ symbols, idle') end,
    function() return 'the index status; messages: ' .. vim.fn.execute('messages') end)
  local msgs = vim.fn.execute('messages')
  local files = tonumber(msgs:match('parley: (%d+) files'))
  H.check(files and files >= 3, 'index status: ' .. msgs)
  H.check(msgs:find(H.root, 1, true), 'index status does not name the folder: ' .. msgs)

  -- :ParleyReindex starts a second run.
  seen = {}
  vim.cmd('ParleyReindex')
  H.wait(10000, function() return vim.fn.execute('messages'):find('parley: reindexing', 1, true) end,
    'the reindex answer')
  H.wait(20000, function()
    local st = H.request(client, 'parley/indexStatus')
    return st.folders[1].runs >= 2 and not st.indexing
  end, 'the second index run')
  H.wait(10000, function() return parley.statusline() == 'parley: idle' end, 'idle after reindex')
end)
