-- Small helpers shared by the parley modules, and the differences between
-- Neovim versions (0.7 through current) in one place.
local M = {}

local has_011 = vim.fn.has('nvim-0.11') == 1

-- Client methods became `client:method()` in Neovim 0.11; before that they
-- are plain functions in the client table.

--- Sends a request; returns (ok, request_id) like client.request.
function M.request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.notify_server(client, method, params)
  if has_011 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

function M.cancel_request(client, id)
  if has_011 then
    return client:cancel_request(id)
  end
  return client.cancel_request(id)
end

--- t as a JSON object for the server: Neovim encodes an empty table as
--- an array ([]), so nil or an empty table becomes vim.empty_dict().
function M.object(t)
  if t == nil or next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

--- Reports something to the user, prefixed with "parley: ".
function M.notify(msg, level)
  vim.notify('parley: ' .. msg, level or vim.log.levels.INFO)
end

function M.warn(msg)
  M.notify(msg, vim.log.levels.WARN)
end

function M.error(msg)
  M.notify(msg, vim.log.levels.ERROR)
end

--- The text of a JSON-RPC error.
function M.err_text(err)
  if type(err) ~= 'table' then
    return tostring(err)
  end
  return (err.message or 'error') .. (err.code and (' (' .. err.code .. ')') or '')
end

--- path without a trailing separator (except for the file system root).
function M.strip_slash(path)
  if #path > 1 then
    path = path:gsub('/+$', '')
  end
  return path
end

--- path relative to root when it lies under root, else unchanged.
function M.relative(path, root)
  if root and path:sub(1, #root + 1) == root .. '/' then
    return path:sub(#root + 2)
  end
  return path
end

--- The text of a file URI relative to root (other URIs unchanged).
function M.uri_label(uri, root)
  if type(uri) ~= 'string' then
    return '?'
  end
  if uri:match('^file:') then
    return M.relative(vim.uri_to_fname(uri), root)
  end
  return uri
end

--- The first non-empty line of s, cut to max characters.
function M.first_line(s, max)
  s = tostring(s or '')
  local line = s:match('^%s*([^\n]*)') or ''
  line = line:gsub('\r', ''):gsub('%s+$', '')
  max = max or 100
  if vim.fn.strchars(line) > max then
    line = vim.fn.strcharpart(line, 0, max - 1) .. '…'
  end
  return line
end

--- The character offset of byte column col (0-based) in line, in the
--- client's position encoding.
function M.character(line, col, encoding)
  local prefix = line:sub(1, col)
  if encoding == 'utf-8' then
    return #prefix
  end
  if has_011 then
    local ok, n = pcall(vim.str_utfindex, prefix, encoding == 'utf-32' and 'utf-32' or 'utf-16')
    return ok and n or #prefix
  end
  local ok, u32, u16 = pcall(vim.str_utfindex, prefix)
  if not ok then
    return #prefix
  end
  if encoding == 'utf-32' then
    return u32
  end
  return u16
end

--- The byte column (0-based) in line of character offset character in the
--- client's position encoding; clamped to the line's length.
function M.byte_col(line, character, encoding)
  character = math.max(0, tonumber(character) or 0)
  if encoding == 'utf-8' then
    return math.min(character, #line)
  end
  local ok, col
  if has_011 then
    ok, col = pcall(vim.str_byteindex, line, encoding == 'utf-32' and 'utf-32' or 'utf-16', character, false)
  else
    ok, col = pcall(vim.str_byteindex, line, character, encoding ~= 'utf-32')
  end
  if not ok or type(col) ~= 'number' then
    return #line
  end
  return math.min(col, #line)
end

--- The cursor of the current window: 0-based row, byte column.
function M.cursor()
  local pos = vim.api.nvim_win_get_cursor(0)
  return pos[1] - 1, pos[2]
end

--- Line row (0-based) of buf, '' past its end.
function M.line_at(buf, row)
  return vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ''
end

--- Whether the current mode is Insert (or a kind of it).
function M.in_insert()
  return vim.api.nvim_get_mode().mode:sub(1, 1) == 'i'
end

return M
