-- parley.format: the one-line forms of tool calls, tool results, token
-- usage and chat contexts shown in the chat buffer, for live events and resumed history.
local util = require('parley.util')

local M = {}

local summary_keys = { 'path', 'file_path', 'command', 'pattern', 'query', 'url', 'name', 'symbol', 'description' }

--- One line about a tool call's arguments: the path, command, pattern ...
local function input_summary(input, root)
  if type(input) ~= 'table' then
    return ''
  end
  for _, k in ipairs(summary_keys) do
    local v = input[k]
    if type(v) == 'string' and v ~= '' then
      if k == 'path' or k == 'file_path' then
        v = util.relative(v, root)
      end
      return util.first_line(v, 80)
    end
  end
  local ok, json = pcall(vim.json.encode, input)
  return ok and util.first_line(json, 60) or ''
end

function M.tool_call(name, input, root)
  local s = input_summary(input, root)
  return '▸ ' .. (name or 'tool') .. (s ~= '' and (' ' .. s) or '')
end

function M.tool_result(name, content, is_error)
  local first = util.first_line(content, 100)
  return (is_error and '✗ ' or '✓ ') .. (name or 'tool') .. (first ~= '' and (': ' .. first) or '')
end

function M.usage(usage)
  if type(usage) ~= 'table' then
    return ''
  end
  local s = string.format('%d in, %d out', usage.inputTokens or 0, usage.outputTokens or 0)
  if (usage.cacheReadTokens or 0) > 0 then
    s = s .. string.format(', %d cached', usage.cacheReadTokens)
  end
  return s .. ' tokens'
end

--- "path:line" or "path:first-last" for a chat context (nil without one).
function M.context_label(ctx, root)
  if not ctx then
    return nil
  end
  local label = util.uri_label(ctx.uri, root)
  local r = ctx.range
  if r then
    if r.start.line == r['end'].line then
      label = label .. ':' .. (r.start.line + 1)
    else
      label = label .. ':' .. (r.start.line + 1) .. '-' .. (r['end'].line + 1)
    end
  end
  return label
end

return M
