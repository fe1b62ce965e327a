-- parley.mentions: @-mentions in the chat (docs/protocol.md, "@-mentions").
-- `@` + text completes from parley/mentionCandidates: Insert-mode
-- completion (completefunc) in the chat input buffer (parley.input), the
-- item's detail as its menu text; <Tab> completion at the "parley> "
-- prompt. A pick inserts the mention's text; the Mention objects picked
-- are kept per chat (st.mentions, text -> Mention) and a message sends
-- those whose text is still in it. The server's mentions event is drawn
-- as one line per mention under the user's message: "@label · N tokens".
local util = require('parley.util')

local M = {}

local api = vim.api
local has_011 = vim.fn.has('nvim-0.11') == 1

--- Candidates asked per query (the protocol's default).
M.limit = 50

--- Characters that may come right before an "@" that starts a mention.
local BEFORE = '[%s%(%[{"\'`,;]'

--- parley/mentionCandidates' items for query, asked synchronously
--- (completion needs them now; at most 1 s). {} without a server or an
--- answer.
function M.candidates(client, query, uri)
  if not client then
    return {}
  end
  local params = { query = query, limit = M.limit }
  if uri and uri ~= '' then
    params.uri = uri
  end
  local ok, resp
  if has_011 then
    ok, resp = pcall(client.request_sync, client, 'parley/mentionCandidates', params, 1000, 0)
  else
    ok, resp = pcall(client.request_sync, 'parley/mentionCandidates', params, 1000, 0)
  end
  if not ok or type(resp) ~= 'table' or resp.err or type(resp.result) ~= 'table' or type(resp.result.items) ~= 'table' then
    return {}
  end
  return resp.result.items
end

--- The "@word" ending at byte col (0-based, exclusive) of line: its start
--- (0-based byte index of the "@") and the query after it; nil when the
--- text before col does not end in a mention ("a@b" is an address;
--- "@url:ADDR" is an address being typed).
function M.query_at(line, col)
  local before = line:sub(1, col)
  local s, word = before:match('()@([^%s@]*)$')
  if not s then
    return nil
  end
  if s > 1 and not before:sub(s - 1, s - 1):match(BEFORE) then
    return nil
  end
  if word:lower():match('^url:') then
    return nil
  end
  return s - 1, word
end

--- Completion items (complete-items) for mention items: word is the
--- mention's text, abbr the label, menu the detail.
function M.complete_items(items)
  local out = {}
  for _, it in ipairs(items) do
    local m = type(it) == 'table' and it.mention
    if type(m) == 'table' and type(m.text) == 'string' and m.text ~= '' then
      table.insert(out, {
        word = m.text,
        abbr = type(it.label) == 'string' and it.label or m.text,
        menu = type(it.detail) == 'string' and it.detail or '',
        kind = type(m.kind) == 'string' and m.kind:sub(1, 1) or '',
        equal = 1, -- ranked by the server: Vim must not filter them again
        dup = 0,
        icase = 1,
      })
    end
  end
  return out
end

--- Keeps the mentions of items under their text in st[field]
--- ('offered': what the completion menu shows; 'mentions': the picks a
--- message may send).
function M.remember(st, field, items)
  st[field] = st[field] or {}
  for _, it in ipairs(items) do
    local m = type(it) == 'table' and it.mention
    if type(m) == 'table' and type(m.text) == 'string' then
      st[field][m.text] = m
    end
  end
end

--- CompleteDone in the chat input buffer: the item taken (if any) becomes
--- a pick of st; what else was offered is forgotten.
function M.completed(st, item)
  local word = type(item) == 'table' and item.word
  local m = word and st.offered and st.offered[word]
  if m then
    st.mentions = st.mentions or {}
    st.mentions[word] = m
  end
  st.offered = nil
end

local function escape(s)
  return (s:gsub('[%^%$%(%)%%%.%[%]%*%+%-%?]', '%%%0'))
end

--- Whether mention text t stands in message as a word of its own: at the
--- start or after a space or bracket, and followed by the end, a space,
--- or punctuation that ends there.
function M.mentioned(message, t)
  if t == '' then
    return false
  end
  local init = 1
  while true do
    local i, j = message:find(t, init, true)
    if not i then
      return false
    end
    local before_ok = i == 1 or message:sub(i - 1, i - 1):match(BEFORE)
    local after = message:sub(j + 1)
    if before_ok and (after == '' or after:match('^%s') or after:match('^[%.,;:!%?%)%]}\'"`]$') or after:match('^[%.,;:!%?%)%]}\'"`]%s')) then
      return true
    end
    init = i + 1
  end
end

--- The "@url:ADDR" words of message as url mentions.
function M.urls(message)
  local out = {}
  for addr in (' ' .. message):gmatch('[%s%(%[{"\'`,;]@url:(%S+)') do
    addr = addr:gsub('[%.,;:!%?%)%]}\'"`]+$', '')
    if addr ~= '' then
      table.insert(out, { kind = 'url', text = '@url:' .. addr, url = addr })
    end
  end
  return out
end

--- The picked mentions to send with message (those of st.mentions whose
--- text is still in it, in the message's order; a picked "@url:" stands
--- for each "@url:ADDR" typed), or nil for none. The picks are forgotten:
--- the next message starts afresh.
function M.take(st, message)
  local out, seen = {}, {}
  local picked = st.mentions or {}
  st.mentions = nil
  local function add(m, at)
    if not seen[m.text] then
      seen[m.text] = true
      table.insert(out, { at = at, m = m })
    end
  end
  for text, m in pairs(picked) do
    if m.kind == 'url' then
      for _, u in ipairs(M.urls(message)) do
        add(u, message:find(u.text, 1, true) or 0)
      end
    elseif M.mentioned(message, text) then
      add(m, message:find(text, 1, true) or 0)
    end
  end
  table.sort(out, function(a, b) return a.at < b.at end)
  local list = {}
  for _, x in ipairs(out) do
    table.insert(list, x.m)
  end
  return #list > 0 and list or nil
end

--- Whether the mentions need the editor's selection as the context.
function M.wants_selection(list)
  for _, m in ipairs(list or {}) do
    if m.kind == 'selection' then
      return true
    end
  end
  return false
end

-- The mentions event -----------------------------------------------------

--- One line per report: "@label · N tokens", or "@label · ✗ error".
function M.lines(reports)
  local out = {}
  for _, r in ipairs(reports or {}) do
    if type(r) == 'table' then
      local label = type(r.label) == 'string' and r.label ~= '' and r.label or (r.text or '?')
      if label:sub(1, 1) ~= '@' then
        label = '@' .. label
      end
      if type(r.error) == 'string' and r.error ~= '' then
        table.insert(out, label .. ' · ✗ ' .. util.first_line(r.error, 160))
      else
        local n = tonumber(r.tokens) or 0
        table.insert(out, string.format('%s · %d token%s', label, n, n == 1 and '' or 's'))
      end
    end
  end
  return out
end

--- Draws the mentions event of st's running turn under the user's
--- message (at st.mentions_at, set when the message was drawn), else at
--- the end.
function M.show(st, ev)
  local lines = M.lines(ev.mentions)
  if #lines == 0 then
    return
  end
  local B = require('parley.chat_buffer')
  local at = st.mentions_at
  st.mentions_at = nil
  if at and at <= api.nvim_buf_line_count(B.buffer(st)) then
    B.insert_lines(st, at, lines)
    if st.answer_mark and st.answer_mark[1] >= at then
      st.answer_mark = { st.answer_mark[1] + #lines, st.answer_mark[2] }
    end
  else
    B.add_event_lines(st, lines)
  end
end

-- Completion ----------------------------------------------------------------

--- The completefunc of the chat input buffer (see :help complete-functions):
--- findstart gives the column of the "@" before the cursor (-3: no
--- mention, completion ends quietly); then the candidates for the text
--- after it, asked again as the user types (refresh = 'always').
function M.completefunc(findstart, base)
  local input = require('parley.input')
  local buf = api.nvim_get_current_buf()
  if findstart == 1 then
    local line = api.nvim_get_current_line()
    local col = api.nvim_win_get_cursor(0)[2]
    local start = M.query_at(line, col)
    return start or -3
  end
  local ctx = input.context_of(buf)
  if not ctx then
    return {}
  end
  local query = (base or ''):gsub('^@', '')
  local items = M.candidates(ctx.client, query, ctx.uri)
  M.remember(ctx.st, 'offered', items)
  return { words = M.complete_items(items), refresh = 'always' }
end

--- Completion of the "parley> " prompt (the whole line is arglead): the
--- line with its last "@word" completed; every candidate offered is kept
--- (the prompt cannot tell which one was taken).
function M.complete_line(arglead, client, st, uri)
  local start, query = M.query_at(arglead, #arglead)
  if not start then
    return {}
  end
  local items = M.candidates(client, query, uri)
  M.remember(st, 'mentions', items)
  local out = {}
  for _, it in ipairs(M.complete_items(items)) do
    table.insert(out, arglead:sub(1, start) .. it.word)
  end
  return out
end

return M
