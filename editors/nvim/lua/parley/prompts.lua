-- Prompt commands (parley/promptCommands): "/NAME args" as a chat message
-- runs the Markdown prompt file NAME of .parley/commands/ or the user's
-- config directory (the server expands it). Here: completing the names
-- where a message is typed (:ParleyChat, :ParleyNew, the "parley> "
-- prompt) and listing them with their descriptions (:ParleyCommands).
-- The same completions offer @-mentions (parley.mentions) for an "@word".
local M = {}

local api = vim.api
local has_011 = vim.fn.has('nvim-0.11') == 1

--- The client completion asks: the current buffer's, else any running one.
local function client_now()
  local clients = require('parley.client')
  return clients.for_buffer(0, false) or clients.all()[1]
end

--- The server's prompt commands, asked synchronously (completion needs
--- them now; at most 1 s). {} without a server or an answer.
function M.list(client)
  client = client or client_now()
  if not client then
    return {}
  end
  local ok, resp
  if has_011 then
    ok, resp = pcall(client.request_sync, client, 'parley/promptCommands', vim.empty_dict(), 1000, 0)
  else
    ok, resp = pcall(client.request_sync, 'parley/promptCommands', vim.empty_dict(), 1000, 0)
  end
  if not ok or type(resp) ~= 'table' or resp.err or type(resp.result) ~= 'table' then
    return {}
  end
  return resp.result
end

--- The "/NAME" completions of arglead (the message so far): only while
--- the message is the command's name, before any argument.
function M.names(arglead, commands)
  if not arglead:match('^/%S*$') then
    return {}
  end
  local out = {}
  for _, c in ipairs(commands) do
    local name = '/' .. c.name
    if name:sub(1, #arglead) == arglead then
      table.insert(out, name)
    end
  end
  return out
end

--- The @-mention completions of a line (parley.mentions), for the chat
--- of the client completion asks; uri is the file @diagnostics means.
local function mention_completions(line, uri)
  local client = client_now()
  if not client then
    return {}
  end
  local st = require('parley.chat').state(client)
  return require('parley.mentions').complete_line(line, client, st, uri)
end

--- Completion of :ParleyChat and :ParleyNew: a prompt command as the
--- first word, an @-mention as any word.
function M.complete(arglead, cmdline)
  if arglead:match('^@') then
    local buf = api.nvim_get_current_buf()
    return mention_completions(arglead, api.nvim_buf_get_name(buf) ~= '' and vim.uri_from_bufnr(buf) or nil)
  end
  if not cmdline:match('^%S+%s+%S*$') then
    return {}
  end
  return M.names(arglead, M.list())
end

--- Completion of the "parley> " prompt (vim.ui.input's customlist; the
--- whole line is arglead): a prompt command, or the @-mention being typed.
function M.complete_input(arglead)
  if require('parley.mentions').query_at(arglead, #arglead) then
    local client = client_now()
    return mention_completions(arglead, client and require('parley.chat').state(client).prompt_uri)
  end
  return M.names(arglead, M.list())
end

--- One line per command: "/NAME HINT  description (source)".
function M.lines(commands)
  if #commands == 0 then
    return { 'parley: no prompt commands (add Markdown files to .parley/commands/)' }
  end
  local out = {}
  for _, c in ipairs(commands) do
    local head = '/' .. c.name
    if c.argumentHint and c.argumentHint ~= '' then
      head = head .. ' ' .. c.argumentHint
    end
    local tail = c.source or ''
    if c.needsApproval then
      tail = tail .. ', shell lines not approved: parley commands approve'
    end
    table.insert(out, string.format('%-24s %s (%s)', head, c.description or '', tail))
  end
  return out
end

--- :ParleyCommands
function M.show(client)
  local chunks = {}
  for _, l in ipairs(M.lines(M.list(client))) do
    table.insert(chunks, { l .. '\n' })
  end
  api.nvim_echo(chunks, true, {})
end

return M
