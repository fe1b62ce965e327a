-- Inline completion's Lua side against a stub client (no server): the
-- request's params, ghost text as extmarks (overlay at the end of the
-- line, 'eol' before text, virt_lines for the rest), typing through,
-- cycling, accept as one undo step with its command and events, dismissal
-- on a different change and a cursor move, stale answers dropped, a
-- superseded request cancelled, and :ParleyCompletionToggle.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local api = vim.api

H.async(function()
  require('parley').setup({ autostart = false, completion = { debounce_ms = 10 } })
  local completion = require('parley.completion')
  H.check(vim.fn.maparg('<M-l>', 'i') ~= '' and vim.fn.maparg('<M-]>', 'i') ~= '' and vim.fn.maparg('<M-[>', 'i') ~= '',
    'the default keys are not mapped')
  H.check(vim.fn.exists(':ParleyCompletionToggle') == 2, 'no :ParleyCompletionToggle')
  H.check(vim.fn.hlexists('ParleyGhostText') == 1, 'no ParleyGhostText highlight')

  -- The stub client: requests wait for answer(); everything is recorded.
  local fake = { id = 4242, name = 'parley', offset_encoding = 'utf-16', initialized = true }
  local sent, notes, cancelled, commands = {}, {}, {}, {}
  local next_id = 0
  local function args(...)
    local a = { ... }
    if a[1] == fake then
      table.remove(a, 1)
    end
    return unpack(a)
  end
  fake.request = function(...)
    local method, params, handler = args(...)
    next_id = next_id + 1
    if method == 'workspace/executeCommand' then
      table.insert(commands, params)
    else
      table.insert(sent, { id = next_id, params = params, handler = handler })
    end
    return true, next_id
  end
  fake.notify = function(...)
    local method, params = args(...)
    if method == 'parley/completionEvent' then
      table.insert(notes, params.id .. ':' .. params.event)
    end
    return true
  end
  fake.cancel_request = function(...)
    table.insert(cancelled, (args(...)))
  end
  completion.client_for = function() return fake end
  local function answer(req, items)
    req.handler(nil, { items = items }, { client_id = fake.id, method = 'parley/inlineCompletion' })
  end
  local function item(text, id, range)
    return { insertText = text, range = range,
      command = { title = '', command = 'parley.completion.accepted', arguments = { { id = id } } } }
  end
  local function marks(buf)
    return api.nvim_buf_get_extmarks(buf, completion.ns, 0, -1, { details = true })
  end
  local function ghost(buf)
    local m = marks(buf)
    if #m == 0 then
      return nil
    end
    H.check(#m == 1, 'more than one extmark: ' .. vim.inspect(m))
    local d = m[1][4]
    local out = { row = m[1][2], col = m[1][3], pos = d.virt_text_pos, text = d.virt_text and d.virt_text[1][1], hl = d.virt_text and d.virt_text[1][2] }
    out.lines = {}
    for _, l in ipairs(d.virt_lines or {}) do
      table.insert(out.lines, l[1][1])
    end
    return out
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(H.root .. '/scratch.go'))
  local buf = api.nvim_get_current_buf()
  -- Go's indent script re-indents on ':' (by 'shiftwidth').
  vim.bo[buf].tabstop = 4
  vim.bo[buf].shiftwidth = 0
  api.nvim_buf_set_lines(buf, 0, -1, false, { 'package main', '', 'func f() {', '\t', '}' })

  -- Typing asks after the debounce, at the cursor (UTF-16 characters).
  H.feed('4GA')
  H.feed('x', 60)
  H.wait_async(2000, function() return #sent == 1 end, 'the first request')
  local p = sent[1].params
  H.check(p.textDocument.uri == vim.uri_from_bufnr(buf), 'uri ' .. vim.inspect(p))
  H.check(p.position.line == 3 and p.position.character == 2 and p.context.triggerKind == 2, 'params ' .. vim.inspect(p))

  -- Two items: the first rewrites the typed "x" (its range starts before
  -- the cursor), the second inserts at the cursor.
  answer(sent[1], {
    item('x := 1\n\treturn', 'c1', { start = { line = 3, character = 1 }, ['end'] = { line = 3, character = 2 } }),
    item('yz', 'c2'),
  })
  local g = ghost(buf)
  H.check(g and g.row == 3 and g.col == 2 and g.pos == 'overlay' and g.text == ' := 1' and g.hl == 'ParleyGhostText',
    'ghost text at the end of the line: ' .. vim.inspect(g))
  H.check(vim.deep_equal(g.lines, { '    return' }), 'virt_lines (tabs expanded): ' .. vim.inspect(g.lines))
  H.check(completion.visible() and completion.text() == ' := 1\n\treturn', 'visible/text: ' .. tostring(completion.text()))
  H.check(vim.deep_equal(notes, { 'c1:shown' }), 'events ' .. vim.inspect(notes))

  -- Cycling.
  H.feed('<M-]>')
  g = ghost(buf)
  H.check(g and g.text == 'yz' and #g.lines == 0, 'after <M-]>: ' .. vim.inspect(g))
  H.feed('<M-[>')
  H.check(ghost(buf).text == ' := 1', 'after <M-[>: ' .. vim.inspect(ghost(buf)))
  H.check(vim.deep_equal(notes, { 'c1:shown', 'c2:shown' }), 'events after cycling ' .. vim.inspect(notes))

  -- Typing through keeps it, trimmed, and asks nothing.
  H.feed(' :', 60)
  g = ghost(buf)
  H.check(g and g.col == 4 and g.text == '= 1' and vim.deep_equal(g.lines, { '    return' }), 'typed through: ' .. vim.inspect(g))
  H.check(#sent == 1, 'a request while typing through: ' .. #sent)

  -- Accept: one change, the cursor at its end, the command run.
  H.feed('<M-l>')
  H.check(vim.deep_equal(H.lines(buf), { 'package main', '', 'func f() {', '\tx := 1', '\treturn', '}' }),
    'after accept: ' .. vim.inspect(H.lines(buf)))
  H.check(vim.deep_equal(api.nvim_win_get_cursor(0), { 5, 7 }), 'cursor ' .. vim.inspect(api.nvim_win_get_cursor(0)))
  H.check(ghost(buf) == nil and not completion.visible(), 'ghost text after accept')
  -- The command tells the server; no "accepted" event (it would count twice).
  H.check(vim.deep_equal(notes, { 'c1:shown', 'c2:shown' }), 'events after accept ' .. vim.inspect(notes))
  H.check(#commands == 1 and commands[1].command == 'parley.completion.accepted' and commands[1].arguments[1].id == 'c1',
    'executeCommand ' .. vim.inspect(commands))
  -- What is typed after it is a step of its own too.
  H.feed('Z<Esc>')
  H.check(#sent == 1, 'a request after accepting: ' .. #sent)
  H.feed('u')
  H.check(vim.deep_equal(H.lines(buf), { 'package main', '', 'func f() {', '\tx := 1', '\treturn', '}' }),
    'after one u: ' .. vim.inspect(H.lines(buf)))
  H.feed('u')
  H.check(vim.deep_equal(H.lines(buf), { 'package main', '', 'func f() {', '\tx :', '}' }),
    'after two u: ' .. vim.inspect(H.lines(buf)))

  -- A different change dismisses (and asks again); the superseded request
  -- is cancelled and its late answer dropped.
  H.feed('A', 10)
  H.feed('y', 60)
  H.wait_async(2000, function() return #sent == 2 end, 'the second request')
  answer(sent[2], { item('abc', 'c3') })
  H.check(ghost(buf).text == 'abc', 'c3: ' .. vim.inspect(ghost(buf)))
  H.feed('q', 60)
  H.check(ghost(buf) == nil, 'not dismissed by q: ' .. vim.inspect(ghost(buf)))
  H.check(notes[#notes] == 'c3:dismissed', 'events ' .. vim.inspect(notes))
  H.wait_async(2000, function() return #sent == 3 end, 'the request after q')
  H.feed('r', 60)
  H.wait_async(2000, function() return #sent == 4 end, 'the request after r')
  H.check(vim.tbl_contains(cancelled, sent[3].id), 'request 3 not cancelled: ' .. vim.inspect(cancelled))
  answer(sent[3], { item('stale', 'c4') })
  H.check(ghost(buf) == nil, 'a stale answer shown: ' .. vim.inspect(ghost(buf)))
  answer(sent[4], { item('fresh', 'c5') })
  H.check(ghost(buf).text == 'fresh', 'c5: ' .. vim.inspect(ghost(buf)))

  -- Typed to its end: gone, not reported dismissed, and asked again.
  H.feed('fresh', 60)
  H.check(ghost(buf) == nil, 'typed to its end: ' .. vim.inspect(ghost(buf)))
  H.check(notes[#notes] == 'c5:shown', 'events ' .. vim.inspect(notes))
  H.wait_async(2000, function() return #sent == 5 end, 'the request after typing it all')
  answer(sent[5], { item('more', 'c7') })
  H.check(ghost(buf).text == 'more', 'c7: ' .. vim.inspect(ghost(buf)))

  -- A cursor move dismisses.
  H.feed('<Left>', 60)
  H.check(ghost(buf) == nil, 'not dismissed by <Left>')
  H.check(notes[#notes] == 'c7:dismissed', 'events ' .. vim.inspect(notes))
  H.check(#sent == 5, 'a request after a cursor move')

  -- Text after the cursor: the first line goes after the end of the line.
  H.feed('<Esc>')
  api.nvim_buf_set_lines(buf, 3, 4, false, { '\tfoo()' })
  api.nvim_win_set_cursor(0, { 4, 4 })
  H.feed('a', 10)
  H.feed('b', 60)
  H.wait_async(2000, function() return #sent == 6 end, 'the request before ")"')
  answer(sent[6], { item('ar', 'c6') })
  g = ghost(buf)
  H.check(g and g.pos == 'eol' and g.text == 'ar' and g.col == 6, 'before text: ' .. vim.inspect(g))
  H.feed('<Esc>', 30)
  H.check(ghost(buf) == nil, 'not dismissed by <Esc>')
  H.check(notes[#notes] == 'c6:dismissed', 'events ' .. vim.inspect(notes))

  -- Partial accept: the next word (twice), then the rest of the line;
  -- the rest stays shown, nothing is asked, each is an undo step and
  -- the server hears "partial"; the last line is the whole remainder, an
  -- ordinary accept with its command.
  H.check(vim.fn.maparg('<M-Right>', 'i') ~= '' and vim.fn.maparg('<M-C-Right>', 'i') ~= '' and vim.fn.maparg('<M-\\>', 'i') ~= '',
    'the partial-accept and invoke keys are not mapped')
  api.nvim_buf_set_lines(buf, 3, 4, false, { '\t' })
  H.feed('4GA', 10)
  H.feed('v', 60)
  H.wait_async(2000, function() return #sent == 7 end, 'the request before the partial accepts')
  answer(sent[7], { item('alue := compute(1)\n\treturn value', 'c8') })
  H.check(ghost(buf).text == 'alue := compute(1)', 'c8: ' .. vim.inspect(ghost(buf)))
  H.feed('<M-Right>', 30)
  H.check(H.lines(buf)[4] == '\tvalue', 'after a word: ' .. vim.inspect(H.lines(buf)))
  g = ghost(buf)
  H.check(g and g.text == ' := compute(1)' and g.col == 6 and vim.deep_equal(g.lines, { '    return value' }),
    'the rest after a word: ' .. vim.inspect(g))
  H.feed('<M-Right>', 30)
  H.check(H.lines(buf)[4] == '\tvalue :=' and ghost(buf).text == ' compute(1)', 'after the second word: ' .. vim.inspect(H.lines(buf)))
  H.feed('<M-C-Right>', 30)
  H.check(H.lines(buf)[4] == '\tvalue := compute(1)' and ghost(buf).text == nil and vim.deep_equal(ghost(buf).lines, { '    return value' }),
    'after the line: ' .. vim.inspect(ghost(buf)))
  H.check(#sent == 7, 'a request after a partial accept: ' .. #sent)
  H.check(notes[#notes] == 'c8:partial' and #commands == 1, 'events ' .. vim.inspect(notes) .. ' commands ' .. #commands)
  H.feed('<M-C-Right>', 30)
  H.check(vim.deep_equal({ H.lines(buf)[4], H.lines(buf)[5] }, { '\tvalue := compute(1)', '\treturn value' }),
    'after the last line: ' .. vim.inspect(H.lines(buf)))
  H.check(ghost(buf) == nil and #commands == 2 and commands[2].arguments[1].id == 'c8', 'the last part is an accept: ' .. vim.inspect(commands))
  H.feed('<Esc>')
  H.feed('u')
  H.check(H.lines(buf)[4] == '\tvalue := compute(1)' and H.lines(buf)[5] == '}', 'one u takes back the last part: ' .. vim.inspect(H.lines(buf)))
  H.feed('u')
  H.check(H.lines(buf)[4] == '\tvalue :=', 'a second u takes back the line: ' .. vim.inspect(H.lines(buf)))

  -- The invoke key asks now, as an explicit request (trigger kind 1).
  H.feed('A', 10)
  H.feed('<M-\\>', 30)
  H.check(#sent == 8 and sent[8].params.context.triggerKind == 1, 'invoke: ' .. vim.inspect(sent[8] and sent[8].params))
  H.feed('<Esc>')

  -- Off: nothing is asked; the accept key types itself.
  vim.cmd('ParleyCompletionToggle')
  H.check(completion.enabled == false, 'still enabled')
  H.feed('A', 10)
  H.feed('z', 100)
  H.check(#sent == 8, 'asked while off')
  H.feed('<Esc>')
  vim.cmd('ParleyCompletionToggle on')
  H.check(completion.enabled == true, 'not enabled again')
end)
