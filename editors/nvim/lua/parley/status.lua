-- Progress of parley's clients ($/progress with tokens parley/index/N and
-- parley/chat/N) and the statusline text made from it.
local M = {}

-- "client_id\ttoken" -> { client_id, token, kind, title, message, percentage }
M.items = {}

--- Tells statuslines to redraw: fires User ParleyStatus and redraws.
function M.changed()
  vim.cmd('silent doautocmd <nomodeline> User ParleyStatus')
  pcall(vim.cmd, 'redrawstatus')
end

--- The $/progress handler of parley's clients: records parley's own
--- tokens, then lets Neovim's handler (and whatever hooks it) see it too.
function M.on_progress(err, result, ctx, cfg)
  local token = result and result.token
  local value = result and result.value
  if type(token) == 'string' and type(value) == 'table' then
    local kind = token:match('^parley/([^/]+)/')
    if kind then
      local key = ctx.client_id .. '\t' .. token
      if value.kind == 'begin' then
        M.items[key] = {
          client_id = ctx.client_id, token = token, kind = kind,
          title = value.title, message = value.message, percentage = value.percentage,
        }
      elseif value.kind == 'report' and M.items[key] then
        M.items[key].message = value.message or M.items[key].message
        M.items[key].percentage = value.percentage or M.items[key].percentage
      elseif value.kind == 'end' then
        M.items[key] = nil
      end
      M.changed()
    end
  end
  local default = vim.lsp.handlers['$/progress']
  if default then
    return default(err, result, ctx, cfg)
  end
end

--- Forgets the progress of a client that exited.
function M.on_exit(client_id)
  for key, item in pairs(M.items) do
    if item.client_id == client_id then
      M.items[key] = nil
    end
  end
  M.changed()
end

--- The active progress items of a kind ('index', 'chat'), optionally of
--- one client.
function M.active(kind, client_id)
  local out = {}
  for _, item in pairs(M.items) do
    if item.kind == kind and (client_id == nil or item.client_id == client_id) then
      table.insert(out, item)
    end
  end
  return out
end

--- The index part: "indexing N/M" (files, summed over the folders being
--- indexed), "indexing P%" before the first count, or "idle".
function M.index_text()
  local items = M.active('index')
  if #items == 0 then
    return 'idle'
  end
  local done, total, pct, counted = 0, 0, nil, false
  for _, item in ipairs(items) do
    local d, t = tostring(item.message or ''):match('(%d+)/(%d+)')
    if d then
      done, total, counted = done + tonumber(d), total + tonumber(t), true
    elseif item.percentage then
      pct = item.percentage
    end
  end
  if counted then
    return string.format('indexing %d/%d', done, total)
  end
  return pct and string.format('indexing %d%%', pct) or 'indexing'
end

--- The statusline text: "" without a parley client, else
--- "parley: idle", "parley: indexing 120/900", with " · chat: running"
--- while a turn runs and " · chat: compacting" while :ParleyCompact does.
function M.statusline()
  if #require('parley.client').all() == 0 then
    return ''
  end
  local text = 'parley: ' .. M.index_text()
  local chat = require('parley.chat')
  if chat.any_running() then
    text = text .. ' · chat: running'
  else
    for _, st in pairs(chat.states) do
      if st.compacting then
        return text .. ' · chat: compacting'
      end
    end
  end
  return text
end

return M
