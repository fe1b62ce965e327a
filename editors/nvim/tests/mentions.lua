-- @-mentions (mentions_test.go's TestMentions): the pure parts (the query
-- at the cursor, a mention standing in a message, the picks kept on send,
-- the event's lines); then against the server: the "parley> " prompt
-- completes an @-mention, and in the chat input buffer (:ParleyInput)
-- typing "@fee" opens the completion menu from parley/mentionCandidates
-- (the detail as menu text), <CR> takes cart/fee.go, <C-s> sends it with
-- the mention, and the mentions event is drawn under the message. The Go
-- side checks that the model got the file.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local api = vim.api

H.async(function()
  H.setup()
  local chat = require('parley.chat')
  local mentions = require('parley.mentions')
  local prompts = require('parley.prompts')

  local s, q = mentions.query_at('see @fe', 7)
  H.check(s == 4 and q == 'fe', 'query_at: ' .. tostring(s) .. ' ' .. tostring(q))
  H.check(mentions.query_at('mail me@x', 9) == nil, 'an address is not a mention')
  H.check(mentions.query_at('@url:https://go', 15) == nil, 'an @url: address is not a query')
  H.check(mentions.query_at('see @fe now', 11) == nil, 'the cursor past the word')
  H.check(mentions.mentioned('see @a.go.', '@a.go') and mentions.mentioned('@a.go', '@a.go'), 'mentioned')
  H.check(not mentions.mentioned('see @a.go.orig', '@a.go') and not mentions.mentioned('x@a.go', '@a.go'), 'not mentioned')
  local file = { kind = 'file', text = '@a.go', path = 'a.go' }
  local st0 = { mentions = { ['@a.go'] = file, ['@url:'] = { kind = 'url', text = '@url:' }, ['@b.go'] = { kind = 'file', text = '@b.go' } } }
  local kept = mentions.take(st0, 'read @url:https://go.dev. then @a.go')
  H.check(vim.deep_equal(kept, { { kind = 'url', text = '@url:https://go.dev', url = 'https://go.dev' }, file }), 'kept: ' .. vim.inspect(kept))
  H.check(st0.mentions == nil, 'the picks outlive the message')
  H.check(mentions.take({ mentions = { ['@a.go'] = file } }, 'nothing') == nil, 'a deleted pick was kept')
  local lines = mentions.lines({ { kind = 'file', text = '@a.go', label = 'a.go', tokens = 12 }, { kind = 'url', text = '@url:x', label = 'x', tokens = 0, error = 'refused' } })
  H.check(vim.deep_equal(lines, { '@a.go · 12 tokens', '@x · ✗ refused' }), 'lines: ' .. vim.inspect(lines))

  local _, _, client = H.open('cart/fee.go')
  H.wait_indexed(client)

  local c = prompts.complete_input('Explain @fee')
  H.check(vim.tbl_contains(c, 'Explain @cart/fee.go'), 'the prompt completes a mention: ' .. vim.inspect(c))
  H.check(vim.tbl_contains(vim.fn.getcompletion('ParleyChat why @fee', 'cmdline'), '@cart/fee.go'), ':ParleyChat completes a mention')
  chat.state(client).mentions = nil -- the prompt's offers are not this message's picks

  vim.cmd('ParleyInput')
  local ibuf = api.nvim_get_current_buf()
  H.check(api.nvim_buf_get_name(ibuf):find('parley://input/', 1, true), 'not the input buffer: ' .. api.nvim_buf_get_name(ibuf))
  H.feed('Explain @fee', 100)
  H.wait_async(5000, function() return vim.fn.pumvisible() == 1 end, 'the mention completion menu')
  local info = vim.fn.complete_info({ 'items' })
  local first = info.items[1] or {}
  H.check(first.word == '@cart/fee.go' and first.abbr == 'cart/fee.go', 'the first item: ' .. vim.inspect(info.items))
  H.feed('<CR>')
  H.check(api.nvim_get_current_line() == 'Explain @cart/fee.go', 'after <CR>: ' .. api.nvim_get_current_line())
  H.feed(' please<C-s>', 100)
  local st = chat.state(client)
  H.wait_async(30000, function() return not st.running and st.last ~= nil end, function()
    return 'the turn; chat buffer:\n' .. H.chat_text(st)
  end)
  local p = H.last_params
  H.check(p and p.message == 'Explain @cart/fee.go please', 'message: ' .. vim.inspect(p))
  H.check(p.mentions and #p.mentions == 1 and p.mentions[1].kind == 'file' and p.mentions[1].path == 'cart/fee.go',
    'mentions sent: ' .. vim.inspect(p.mentions))
  H.check(vim.deep_equal(H.lines(ibuf), { '' }), 'the input buffer was not emptied: ' .. vim.inspect(H.lines(ibuf)))
  local text = H.chat_text(st)
  local at = text:find('\n@cart/fee.go · %d+ tokens\n')
  H.check(at and at < text:find('## parley', 1, true), 'the mention line under the message:\n' .. text)
  H.check(H.has_line(st, 'Done.'), 'no answer:\n' .. text)
end)
