-- Approvals: the server asks before risky tool calls (shell commands,
-- fetches, edits in permission mode "default") with
-- window/showMessageRequest, offering "Allow once", "Allow for this
-- session" and "Deny". This handler, installed for parley's clients only,
-- asks with vim.ui.select (or confirm()) and answers the chosen action, or
-- null (deny) when the question is dismissed.
local config = require('parley.config')

local M = {}

local function title_of(action)
  return (tostring(action.title or ''):gsub('\r?\n', ' '))
end

--- Asks with confirm(): synchronous on every Neovim version.
local function ask_confirm(message, actions)
  local choices = {}
  for i, a in ipairs(actions) do
    choices[i] = '&' .. i .. ' ' .. title_of(a)
  end
  local n = vim.fn.confirm(message, table.concat(choices, '\n'), #actions, 'Warning')
  return actions[n]
end

--- Asks with vim.ui.select. Server requests must be answered by the
--- handler's return value: Neovim 0.10+ runs them in a coroutine, so an
--- asynchronous select can be waited for by yielding; older versions run
--- them on the main thread, where the answer is waited for with vim.wait
--- (a select that needs keyboard input cannot get it meanwhile; see
--- approvals.timeout and approvals.ui = 'confirm').
local function ask_select(message, actions)
  local co, is_main = coroutine.running()
  local in_coroutine = co ~= nil and not is_main
  local answered, choice, yielded = false, nil, false
  vim.ui.select(actions, {
    prompt = message,
    kind = 'parley.approval',
    format_item = title_of,
  }, function(item)
    if answered then
      return
    end
    answered, choice = true, item
    if yielded then
      vim.schedule(function() coroutine.resume(co) end)
    end
  end)
  if not answered then
    if in_coroutine then
      yielded = true
      coroutine.yield()
    else
      vim.wait(config.options.approvals.timeout, function() return answered end, 20)
    end
  end
  return choice
end

--- The window/showMessageRequest handler of parley's clients.
function M.handler(_, params, ctx)
  params = params or {}
  local actions = params.actions or {}
  local message = params.message or ''
  local chat = require('parley.chat')
  if #actions == 0 then
    vim.notify(message, vim.log.levels.WARN)
    return vim.NIL
  end
  chat.note(ctx.client_id, '? ' .. message)
  local choice
  if config.options.approvals.ui == 'confirm' then
    choice = ask_confirm(message, actions)
  else
    choice = ask_select(message, actions)
  end
  chat.note(ctx.client_id, '  → ' .. (choice and title_of(choice) or 'dismissed (denied)'))
  if not choice then
    return vim.NIL
  end
  return { title = choice.title }
end

return M
