-- parley.memory: :ParleyMemory, the agent's long-term memories through
-- the server's parley/memory* requests. Lists go to a scratch buffer
-- (parley://memory, one per client root) with keys to show, add, edit,
-- forget and search; questions go through vim.ui.input and vim.ui.select,
-- so any picker plugin applies. Works on Neovim 0.7.
local util = require('parley.util')

local M = {}

local api = vim.api

M.types = { 'fact', 'preference', 'decision', 'code_pattern', 'error_solution', 'project_context', 'instruction', 'note' }

M.subcommands = { 'list', 'search', 'show', 'add', 'edit', 'forget', 'stale', 'stats' }

-- root -> { buf = listing buffer, refs = { [line] = memory }, view = function to redraw }
M.states = {}

local function state(client)
  local root = client.config.root_dir or ''
  local st = M.states[root]
  if not st then
    st = { root = root, refs = {} }
    M.states[root] = st
  end
  return st
end

--- Sends a parley/memory* request; cb(result) runs only on success
--- (errors are reported with the server's reason).
function M.request(client, method, params, cb)
  util.request(client, method, params, function(err, result)
    if err then
      util.error(method .. ': ' .. util.err_text(err))
      return
    end
    if cb then
      cb(result)
    end
  end, 0)
end

--- One memory on one line: [ref] type ★importance #tags: text, and why it
--- is stale.
function M.line(m)
  local parts = { '[' .. m.ref .. ']', m.type, '★' .. tostring(m.importance) }
  if m.scope == 'user' then
    table.insert(parts, 'user')
  end
  for _, t in ipairs(type(m.tags) == 'table' and m.tags or {}) do
    table.insert(parts, '#' .. t)
  end
  local text = vim.trim((m.content or ''):gsub('%s+', ' '))
  local line = table.concat(parts, ' ') .. ': ' .. text
  if type(m.stale) == 'table' and #m.stale > 0 then
    line = line .. '  [STALE: ' .. table.concat(m.stale, '; ') .. ']'
  end
  return line
end

--- A memory in full, as lines.
function M.detail(m)
  local lines = { '# Memory ' .. m.ref, '' }
  vim.list_extend(lines, vim.split(m.content or '', '\n', { plain = true }))
  vim.list_extend(lines, { '', 'type: ' .. m.type, 'importance: ' .. tostring(m.importance), 'scope: ' .. tostring(m.scope) })
  if type(m.tags) == 'table' and #m.tags > 0 then
    table.insert(lines, 'tags: ' .. table.concat(m.tags, ', '))
  end
  for _, a in ipairs(type(m.anchors) == 'table' and m.anchors or {}) do
    table.insert(lines, 'anchor: ' .. a.path .. ((a.symbol and a.symbol ~= '') and ('#' .. a.symbol) or ''))
  end
  local dates = 'written ' .. tostring(m.created or ''):sub(1, 10)
  if m.updated then
    dates = dates .. ', edited ' .. m.updated:sub(1, 10)
  end
  if m.used then
    dates = dates .. ', last recalled ' .. m.used:sub(1, 10)
  end
  table.insert(lines, dates)
  if type(m.stale) == 'table' and #m.stale > 0 then
    vim.list_extend(lines, { '', 'STALE: ' .. table.concat(m.stale, '; ') .. ' since it was written.',
      'Edit it (e, or :ParleyMemory edit ' .. m.ref .. ') to confirm it, or forget it.' })
  end
  return lines
end

--- The stats as lines, one per store.
function M.stats_lines(stores)
  local out = {}
  for _, s in ipairs(stores or {}) do
    if not s.available then
      table.insert(out, s.scope .. ' memories: unavailable')
    else
      local parts = {}
      for _, t in ipairs(M.types) do
        local n = type(s.types) == 'table' and s.types[t] or nil
        if n and n > 0 then
          table.insert(parts, n .. ' ' .. t)
        end
      end
      local l = s.scope .. ' memories: ' .. s.count
      if #parts > 0 then
        l = l .. ' (' .. table.concat(parts, ', ') .. ')'
      end
      if s.stale and s.stale > 0 then
        l = l .. ', ' .. s.stale .. ' stale'
      end
      table.insert(out, l .. (s.dir and (' in ' .. s.dir) or ''))
    end
  end
  return out
end

local HELP = '<CR> show · a add · e edit · d forget · s search · S stale · r list · q close'

--- The listing buffer of st, created and shown in a split when needed.
local function listing(client, st)
  if not (st.buf and api.nvim_buf_is_valid(st.buf)) then
    st.buf = api.nvim_create_buf(false, true)
    api.nvim_buf_set_name(st.buf, 'parley://memory/' .. st.root)
    vim.bo[st.buf].bufhidden = 'hide'
    vim.bo[st.buf].filetype = 'parley-memory'
    local function map(lhs, fn)
      vim.keymap.set('n', lhs, fn, { buffer = st.buf, silent = true, nowait = true })
    end
    local function under_cursor(fn)
      return function()
        local m = st.refs[api.nvim_win_get_cursor(0)[1]]
        if m then
          fn(m.ref)
        end
      end
    end
    map('<CR>', under_cursor(function(ref) M.show(client, ref) end))
    map('e', under_cursor(function(ref) M.edit(client, ref) end))
    map('d', under_cursor(function(ref) M.forget(client, ref) end))
    map('a', function() M.add(client) end)
    map('s', function() M.search(client) end)
    map('S', function() M.list(client, { stale = true }) end)
    map('r', function() M.list(client) end)
    map('q', '<cmd>close<cr>')
  end
  if vim.fn.bufwinid(st.buf) == -1 then
    vim.cmd('botright split')
    api.nvim_win_set_buf(0, st.buf)
  end
  return st.buf
end

local function draw(client, st, title, lines, refs)
  local buf = listing(client, st)
  vim.bo[buf].modifiable = true
  local all = { title, HELP, '' }
  vim.list_extend(all, lines)
  api.nvim_buf_set_lines(buf, 0, -1, false, all)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  st.refs = {}
  for i, m in pairs(refs or {}) do
    st.refs[i + 3] = m
  end
end

local function draw_memories(client, st, title, list, none)
  local lines, refs = {}, {}
  for i, m in ipairs(list or {}) do
    lines[i], refs[i] = M.line(m), m
  end
  if #lines == 0 then
    lines = { none }
  end
  draw(client, st, title, lines, refs)
end

--- Lists the memories (filter: {types?, scope?, tags?, stale?}) in the
--- listing buffer.
function M.list(client, filter, cb)
  local st = state(client)
  M.request(client, 'parley/memoryList', util.object(filter), function(res)
    local stale = filter and filter.stale
    st.redraw = function() M.list(client, filter) end
    draw_memories(client, st, stale and 'parley: stale memories (edit to confirm, or forget)' or 'parley: memories',
      res.memories, stale and 'no stale memories' or 'no memories')
    if cb then
      cb(res.memories)
    end
  end)
end

local function run_search(client, query, cb)
  local st = state(client)
  M.request(client, 'parley/memorySearch', { query = query, k = 50 }, function(res)
    st.redraw = function() run_search(client, query) end
    draw_memories(client, st, 'parley: memories matching "' .. query .. '"', res.memories, 'no memory matches')
    if cb then
      cb(res.memories)
    end
  end)
end

--- Searches memories by words (asks for them when query is empty).
function M.search(client, query, cb)
  if query and vim.trim(query) ~= '' then
    return run_search(client, vim.trim(query), cb)
  end
  vim.ui.input({ prompt = 'Search memories: ' }, function(q)
    if q and vim.trim(q) ~= '' then
      run_search(client, vim.trim(q), cb)
    end
  end)
end

--- Shows one memory in full in the listing buffer (r goes back).
function M.show(client, ref)
  local st = state(client)
  M.request(client, 'parley/memoryShow', { id = ref }, function(res)
    draw(client, st, 'parley: memory ' .. ref, M.detail(res.memory), {})
    -- e and d act on the shown memory from any of its lines.
    for i = 1, api.nvim_buf_line_count(st.buf) do
      st.refs[i] = res.memory
    end
  end)
end

local function after_change(client, msg)
  util.notify(msg)
  local st = state(client)
  if st.buf and api.nvim_buf_is_valid(st.buf) and vim.fn.bufwinid(st.buf) ~= -1 then
    (st.redraw or function() M.list(client) end)()
  end
end

--- Asks for an importance (1-10); on_done(n) only for a valid answer.
local function ask_importance(current, on_done)
  vim.ui.input({ prompt = 'Importance 1-10: ', default = tostring(current) }, function(v)
    if v == nil then
      return
    end
    local n = tonumber(vim.trim(v))
    if not n or n ~= math.floor(n) or n < 1 or n > 10 then
      util.error('importance must be a whole number from 1 to 10, not "' .. v .. '"')
      return
    end
    on_done(n)
  end)
end

local function pick_type(prompt, on_done)
  vim.ui.select(M.types, { prompt = prompt }, function(t)
    if t then
      on_done(t)
    end
  end)
end

--- Adds a memory: its text, type, importance and scope are asked.
function M.add(client, content)
  local function with_content(text)
    pick_type('Memory type:', function(typ)
      ask_importance(5, function(imp)
        vim.ui.select({ 'workspace', 'user' }, {
          prompt = 'Scope:',
          format_item = function(s) return s == 'user' and 'user (every workspace)' or 'workspace (this one)' end,
        }, function(scope)
          if not scope then
            return
          end
          M.request(client, 'parley/memoryAdd', { content = text, type = typ, importance = imp, scope = scope }, function(res)
            after_change(client, 'remembered as ' .. res.memory.ref)
          end)
        end)
      end)
    end)
  end
  if content and vim.trim(content) ~= '' then
    return with_content(vim.trim(content))
  end
  vim.ui.input({ prompt = 'Remember: ' }, function(text)
    if text and vim.trim(text) ~= '' then
      with_content(text)
    end
  end)
end

local EDIT_FIELDS = { 'content', 'type', 'importance', 'tags', 'confirm as still true' }

--- Edits one field of a memory (or confirms it, clearing a stale mark).
function M.edit(client, ref)
  M.request(client, 'parley/memoryShow', { id = ref }, function(res)
    local m = res.memory
    local function save(params)
      params.id = ref
      M.request(client, 'parley/memoryEdit', params, function(out)
        after_change(client, 'memory ' .. out.memory.ref .. ' saved')
      end)
    end
    vim.ui.select(EDIT_FIELDS, { prompt = 'Edit memory ' .. ref .. ':' }, function(field)
      if field == 'content' then
        vim.ui.input({ prompt = 'Memory ' .. ref .. ': ', default = m.content }, function(v)
          if v and vim.trim(v) ~= '' then
            save({ content = v })
          end
        end)
      elseif field == 'type' then
        pick_type('Memory type:', function(t) save({ type = t }) end)
      elseif field == 'importance' then
        ask_importance(m.importance, function(n) save({ importance = n }) end)
      elseif field == 'tags' then
        local tags = type(m.tags) == 'table' and table.concat(m.tags, ', ') or ''
        vim.ui.input({ prompt = 'Tags (comma-separated): ', default = tags }, function(v)
          if v then
            local list = {}
            for t in v:gmatch('[^,%s]+') do
              table.insert(list, t)
            end
            save({ tags = list })
          end
        end)
      elseif field then
        save({})
      end
    end)
  end)
end

--- Forgets a memory after asking.
function M.forget(client, ref)
  M.request(client, 'parley/memoryShow', { id = ref }, function(res)
    local prompt = 'Forget memory ' .. ref .. '? ' .. util.first_line(res.memory.content, 60)
    vim.ui.select({ 'Forget', 'Keep' }, { prompt = prompt }, function(choice)
      if choice ~= 'Forget' then
        return
      end
      M.request(client, 'parley/memoryForget', { id = ref }, function(out)
        after_change(client, 'forgot memory ' .. out.memory.ref)
      end)
    end)
  end)
end

--- Echoes each store's counts.
function M.stats(client, cb)
  M.request(client, 'parley/memoryStats', vim.empty_dict(), function(res)
    local lines = M.stats_lines(res.stores)
    api.nvim_echo({ { 'parley: ' .. table.concat(lines, '\n') } }, true, {})
    if cb then
      cb(lines)
    end
  end)
end

--- :ParleyMemory [list|search Q|show ID|add [TEXT]|edit ID|forget ID|stale|stats]
function M.command(client, args)
  local sub, rest = vim.trim(args or ''):match('^(%S*)%s*(.-)$')
  if sub == '' or sub == 'list' then
    return M.list(client)
  elseif sub == 'stale' then
    return M.list(client, { stale = true })
  elseif sub == 'search' then
    return M.search(client, rest)
  elseif sub == 'add' then
    return M.add(client, rest)
  elseif sub == 'stats' then
    return M.stats(client)
  elseif sub == 'show' or sub == 'edit' or sub == 'forget' then
    if rest == '' then
      util.warn(':ParleyMemory ' .. sub .. ' ID (12, or u12 for a user memory)')
      return
    end
    return M[sub](client, rest)
  end
  util.warn('unknown :ParleyMemory subcommand "' .. sub .. '" (' .. table.concat(M.subcommands, ', ') .. ')')
end

--- Completion of :ParleyMemory's subcommand.
function M.complete(arglead, cmdline)
  if cmdline:match('^%S+%s+%S+%s') then
    return {}
  end
  local out = {}
  for _, s in ipairs(M.subcommands) do
    if s:sub(1, #arglead) == arglead then
      table.insert(out, s)
    end
  end
  return out
end

return M
