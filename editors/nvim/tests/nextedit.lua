-- Next-edit proposals end to end (nextedit_test.go writes cart/scale.go,
-- cart/shift.go and cart/grow.go): renaming a parameter at its declaration
-- in Normal mode (ciw) gets parley/nextEdit's proposal to rename its uses,
-- drawn in the buffer (the old text struck through, the new text and a
-- hint with the keys and the server's why); the jump key goes from edit
-- to edit; the accept key applies them all and sends the proposal's
-- command; one `u` takes them back and keeps the user's own rename.
-- A proposal with an edit in a file not open: the jump key opens it, the
-- accept key edits it too. A change after
-- the proposal dismisses it and the accept key then does nothing; a
-- proposal whose version is no longer the buffer's is never applied; an
-- answer for an older version is not shown. A proposal shown in Insert
-- mode is accepted there, an undo step of its own.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local api = vim.api
local util = require('parley.util')

-- The plugin's parley/nextEdit requests { params, err, result, answered },
-- and the commands it ran. With hold set, answers wait in held until the
-- test releases them; with fake set, fake(params) replaces the server's
-- answer.
local reqs, commands, held = {}, {}, {}
local hold, fake = false, nil
local request = util.request
util.request = function(client, method, params, handler, bufnr)
  if method == 'parley/nextEdit' then
    local r = { params = vim.deepcopy(params) }
    table.insert(reqs, r)
    local replace = fake
    return request(client, method, params, function(err, result, ...)
      if replace then
        r.server = result
        result = replace(params)
      end
      r.err, r.result, r.answered = err, result, true
      if hold then
        local rest = { ... }
        table.insert(held, { r = r, fn = function() return handler(err, result, unpack(rest)) end })
        return
      end
      return handler(err, result, ...)
    end, bufnr)
  elseif method == 'workspace/executeCommand' then
    table.insert(commands, vim.deepcopy(params))
  end
  return request(client, method, params, handler, bufnr)
end

local nextedit = require('parley.nextedit')
local has_inline = vim.fn.has('nvim-0.10') == 1

--- The proposal's marks in buf: old = { {row, col, end_row, end_col} },
--- new = { {row, col, text} } (inline, 0.10+), eol = { [row] = text }.
local function marks(buf)
  local out = { old = {}, new = {}, eol = {}, n = 0 }
  for _, m in ipairs(api.nvim_buf_get_extmarks(buf, nextedit.ns, 0, -1, { details = true })) do
    local d = m[4]
    out.n = out.n + 1
    if d.hl_group == 'ParleyNextEditOld' then
      table.insert(out.old, { m[2], m[3], d.end_row, d.end_col })
    end
    if d.virt_text then
      local text = ''
      for _, c in ipairs(d.virt_text) do
        text = text .. c[1]
      end
      if d.virt_text_pos == 'eol' then
        out.eol[m[2]] = text
      else
        table.insert(out.new, { m[2], m[3], text })
      end
    end
  end
  table.sort(out.old, function(a, b) return a[1] < b[1] end)
  table.sort(out.new, function(a, b) return a[1] < b[1] end)
  return out
end

local function shown()
  return nextedit._state().shown
end

local function state()
  local last = reqs[#reqs]
  return #reqs .. ' requests; the last: ' .. vim.inspect(last) .. '\nnotes: ' .. vim.inspect(H.notes) ..
    '\nstate: ' .. vim.inspect(nextedit._state()) .. '\nv:errmsg ' .. vim.v.errmsg
end

--- Waits for a proposal shown in buf.
local function wait_proposal(buf, what)
  H.wait_async(10000, function() return shown() ~= nil and #marks(buf).old > 0 end,
    function() return 'the proposal ' .. what .. '; ' .. state() end)
  return reqs[#reqs]
end

--- The 0-based byte column of the first occurrence of pat (plain) in s,
--- plus off.
local function col_of(s, pat, off)
  return s:find(pat, 1, true) - 1 + (off or 0)
end

local function cursor()
  return api.nvim_win_get_cursor(0)
end

H.async(function()
  H.setup()
  local buf, _, client = H.open('cart/scale.go')
  H.wait_indexed(client)
  local original = H.lines(buf)
  local utf16 = original[8]

  -- Rename n at the declaration (Normal mode: ciw, the name, <Esc>).
  H.feed('4G0f(l', 20)
  H.feed('ciwcount<Esc>')
  local r = wait_proposal(buf, 'after renaming n')
  local version = vim.lsp.util.buf_versions[buf]
  H.check(r.params.textDocument.version == version and r.params.textDocument.uri == vim.uri_from_bufnr(buf) and
    r.params.position.line == 3, 'params ' .. vim.inspect(r.params) .. ' at version ' .. tostring(version))
  H.check(r.result.why == 'rename n to count: 3 more uses' and #r.result.edits == 3, 'result ' .. vim.inspect(r.result))
  local m = marks(buf)
  local want_old = {
    { 4, 4, 4, 5 }, { 5, 10, 5, 11 }, { 7, col_of(utf16, 'return n', 7), 7, col_of(utf16, 'return n', 8) },
  }
  H.check(vim.deep_equal(m.old, want_old), 'struck-through ranges ' .. vim.inspect(m.old) .. ', want ' .. vim.inspect(want_old))
  local hint = '<M-CR> accept · <M-n> jump · rename n to count: 3 more uses'
  if has_inline then
    H.check(#m.new == 3 and m.new[1][3] == 'count' and m.new[3][2] == want_old[3][4], 'inline new text ' .. vim.inspect(m.new))
    H.check(m.eol[4] == '  ' .. hint, 'eol hint ' .. vim.inspect(m.eol))
  else
    H.check(m.eol[4] == '→ count  ' .. hint and m.eol[5] == '→ count' and m.eol[7] == '→ count',
      'eol text ' .. vim.inspect(m.eol))
  end
  H.check(H.lines(buf)[5] == original[5], 'the proposal changed the text')

  -- The jump key: edit to edit, round; the hint follows the cursor.
  H.feed('<M-n>')
  H.check(vim.deep_equal(cursor(), { 5, 4 }), 'first jump ' .. vim.inspect(cursor()))
  H.feed('<M-n>')
  H.check(vim.deep_equal(cursor(), { 6, 10 }), 'second jump ' .. vim.inspect(cursor()))
  H.feed('<M-n>')
  H.check(vim.deep_equal(cursor(), { 8, want_old[3][2] }), 'third jump (UTF-16 line) ' .. vim.inspect(cursor()))
  m = marks(buf)
  H.check((m.eol[7] or ''):find(hint, 1, true) and not (m.eol[4] or ''):find('accept', 1, true),
    'the hint after the third jump ' .. vim.inspect(m.eol))
  H.feed('<M-n>')
  H.check(vim.deep_equal(cursor(), { 5, 4 }), 'jump round ' .. vim.inspect(cursor()))

  -- Accept: every use renamed, the command sent, the marks gone.
  local n = #reqs
  H.feed('<M-CR>')
  local want = vim.deepcopy(original)
  want[4] = 'func Scale(count int, by int) int {'
  want[5] = '\tif count < 0 {'
  want[6] = '\t\treturn -count * by'
  want[8] = utf16:gsub('return n', 'return count')
  H.check(vim.deep_equal(H.lines(buf), want), 'after accept: ' .. vim.inspect(H.lines(buf)))
  H.check(#commands == 1 and commands[1].command == 'parley.nextEdit.accepted' and
    commands[1].arguments[1].id == r.result.id, 'executeCommand ' .. vim.inspect(commands))
  H.check(shown() == nil and marks(buf).n == 0, 'marks after accept ' .. vim.inspect(marks(buf)))
  -- The plugin's own change asks nothing.
  H.sleep(800)
  H.check(#reqs == n and shown() == nil, 'requests after accept: ' .. state())

  -- One u takes back the proposal and leaves the user's rename.
  H.feed('u')
  want = vim.deepcopy(original)
  want[4] = 'func Scale(count int, by int) int {'
  H.check(vim.deep_equal(H.lines(buf), want), 'after one u: ' .. vim.inspect(H.lines(buf)))

  -- A proposal with an edit in another file, not open (version null):
  -- the jump key opens that file at the edit and the accept key edits
  -- both files, each its own undo step. (The server's answer is replaced:
  -- it proposes nothing for an exported function renamed in an editor,
  -- whose buffer it has re-indexed by the time the request comes.)
  local cart = H.open('cart/cart.go')
  local fee_uri = vim.uri_from_fname(H.root .. '/cart/fee.go')
  local fee_line = 'func Discount() int { s := "« héllo 😀 »"; _ = s; return Fee() - 1 }'
  local fee_col = col_of(fee_line, 'Fee()')
  local enc = client.offset_encoding or 'utf-16'
  fake = function(params)
    local ch = util.character(fee_line, fee_col, enc)
    return {
      id = 'other-file', why = 'rename Fee to Charge: 2 more uses',
      edits = {
        { textDocument = { uri = params.textDocument.uri, version = params.textDocument.version },
          range = { start = { line = 15, character = 14 }, ['end'] = { line = 15, character = 17 } }, newText = 'Charge' },
        { textDocument = { uri = fee_uri },
          range = { start = { line = 3, character = ch }, ['end'] = { line = 3, character = ch + 3 } }, newText = 'Charge' },
      },
      command = { title = 'rename', command = 'parley.nextEdit.accepted', arguments = { { id = 'other-file' } } },
    }
  end
  H.feed('20G0w', 20)
  H.check(H.lines(cart)[20]:sub(cursor()[2] + 1, cursor()[2] + 3) == 'Fee', 'cursor on Fee: ' .. vim.inspect(cursor()))
  H.feed('ciwCharge<Esc>')
  r = wait_proposal(cart, 'after renaming Fee')
  fake = nil
  H.check(vim.deep_equal(marks(cart).old, { { 15, 14, 15, 17 } }), 'marks in cart.go ' .. vim.inspect(marks(cart)))
  -- The next edit after the cursor is in the next file.
  H.feed('<M-n>', 200)
  local fee = api.nvim_get_current_buf()
  H.check(api.nvim_buf_get_name(fee):match('cart/fee%.go$'), 'the jump opened ' .. api.nvim_buf_get_name(fee))
  H.check(vim.deep_equal(cursor(), { 4, fee_col }), 'cursor in fee.go ' .. vim.inspect(cursor()))
  H.check(shown() ~= nil, 'the jump to another file dismissed the proposal')
  H.attached(fee, 'cart/fee.go')
  H.check(vim.deep_equal(marks(fee).old, { { 3, fee_col, 3, fee_col + 3 } }), 'marks in fee.go ' .. vim.inspect(marks(fee)))
  H.feed('<M-n>', 200)
  H.check(api.nvim_get_current_buf() == cart and vim.deep_equal(cursor(), { 16, 14 }), 'the jump back to cart.go ' .. vim.inspect(cursor()))
  H.feed('<M-n>', 200)
  H.check(api.nvim_get_current_buf() == fee, 'the jump to fee.go again')
  H.feed('<M-CR>')
  H.check(H.lines(fee)[4] == fee_line:gsub('Fee%(%)', 'Charge()'), 'fee.go after accept: ' .. H.lines(fee)[4])
  H.check(H.lines(cart)[16] == '\treturn sum + Charge()' and H.lines(cart)[20]:find('func Charge', 1, true),
    'cart.go after accept: ' .. vim.inspect(H.lines(cart)))
  H.check(#commands == 2 and commands[2].arguments[1].id == 'other-file', 'executeCommand ' .. vim.inspect(commands))
  H.feed('u')
  H.check(H.lines(fee)[4] == fee_line, 'fee.go after u: ' .. H.lines(fee)[4])
  H.check(H.lines(cart)[16] == '\treturn sum + Charge()', 'cart.go after u in fee.go: ' .. H.lines(cart)[16])
  H.open('cart/cart.go')
  H.feed('u')
  H.check(H.lines(cart)[16] == '\treturn sum + Fee()' and H.lines(cart)[20]:find('func Charge', 1, true),
    'cart.go after u: ' .. vim.inspect(H.lines(cart)))

  -- Stale: a change after the proposal arrived dismisses it; the accept
  -- key then changes nothing.
  buf = H.open('cart/shift.go')
  original = H.lines(buf)
  H.feed('4G0f(l', 20)
  H.feed('ciwdelta<Esc>')
  wait_proposal(buf, 'after renaming k')
  H.feed('Go// end<Esc>')
  H.check(shown() == nil and marks(buf).n == 0, 'the proposal after a change ' .. vim.inspect(marks(buf)))
  H.feed('gg', 20)
  n = #commands
  H.feed('<M-CR>')
  want = vim.deepcopy(original)
  want[4] = 'func Shift(delta int, by int) int {'
  table.insert(want, '// end')
  H.check(vim.deep_equal(H.lines(buf), want), 'after a stale accept: ' .. vim.inspect(H.lines(buf)))
  H.sleep(800)
  H.check(vim.deep_equal(H.lines(buf), want) and #commands == n, 'later: ' .. vim.inspect(H.lines(buf)))

  -- In Insert mode: a pause after typing the new name shows the proposal,
  -- the accept key applies it there; after <Esc>, one u takes back the
  -- proposal and a second the typed name.
  H.feed('4G0f,w', 20)
  H.feed('ciwstep')
  wait_proposal(buf, 'in Insert mode')
  H.check(api.nvim_get_mode().mode == 'i', 'mode ' .. api.nvim_get_mode().mode)
  H.feed('<M-CR>')
  H.check(api.nvim_get_mode().mode == 'i', 'mode after accept ' .. api.nvim_get_mode().mode)
  local lines = H.lines(buf)
  H.check(lines[4] == 'func Shift(delta int, step int) int {' and lines[6] == '\t\treturn step - k' and lines[8] == '\treturn k + step',
    'after accept in Insert mode: ' .. vim.inspect(lines))
  H.feed('<Esc>')
  H.feed('u')
  lines = H.lines(buf)
  H.check(lines[4] == 'func Shift(delta int, step int) int {' and lines[6] == '\t\treturn by - k', 'after u: ' .. vim.inspect(lines))
  H.feed('u')
  H.check(H.lines(buf)[4] == 'func Shift(delta int, by int) int {', 'after a second u: ' .. H.lines(buf)[4])

  -- Stale: the buffer changed and the plugin was not told yet (no
  -- TextChanged between the change and the accept): the version check
  -- dismisses the proposal and applies nothing.
  buf = H.open('cart/grow.go')
  original = H.lines(buf)
  n = #commands
  H.feed('4G0f(l', 20)
  H.feed('ciwrate<Esc>')
  wait_proposal(buf, 'after renaming g')
  api.nvim_buf_set_lines(buf, -1, -1, false, { '// tail' })
  H.check(nextedit.accept() == true, 'accept() with a proposal shown returned false')
  want = vim.deepcopy(original)
  want[4] = 'func Grow(rate int, by int) int {'
  table.insert(want, '// tail')
  H.check(vim.deep_equal(H.lines(buf), want), 'after accepting a stale proposal: ' .. vim.inspect(H.lines(buf)))
  H.check(shown() == nil and marks(buf).n == 0 and #commands == n, 'state after a stale accept ' .. vim.inspect(commands))
  H.check(H.note('out of date'), 'no notice: ' .. vim.inspect(H.notes))

  -- An answer for a version the buffer no longer has is not shown.
  H.sleep(600)
  hold = true
  n = #held
  H.feed('4G0f,w', 20)
  H.feed('ciwstep<Esc>')
  H.wait_async(10000, function()
    local h = held[#held]
    return #held > n and h.r.result and #(h.r.result.edits or {}) > 0
  end, function() return 'a held proposal; ' .. state() end)
  local h = held[#held]
  api.nvim_buf_set_lines(buf, -1, -1, false, { '// more' })
  h.fn()
  hold = false
  H.check(shown() == nil and marks(buf).n == 0, 'an answer for an old version was shown ' .. vim.inspect(marks(buf)))
  H.check(vim.v.errmsg == '', 'v:errmsg ' .. vim.v.errmsg)
end)
