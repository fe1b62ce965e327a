-- What inline completion computes without state (completion.lua keeps
-- the state and the drawing): the items of an answer as suggestions at the
-- cursor, the parts of a suggestion a partial accept takes, tabs expanded
-- for virtual text.
local util = require('parley.util')

local M = {}

--- The id an item reports events with: its command's argument, else its own.
function M.item_id(item)
  local cmd = item.command
  local arg = type(cmd) == 'table' and type(cmd.arguments) == 'table' and cmd.arguments[1]
  if type(arg) == 'table' and arg.id ~= nil then
    return arg.id
  end
  return item.id
end

--- s with its tabs expanded to spaces, as if it started at screen column
--- start (virtual text shows a tab as ^I on some versions).
function M.expand_tabs(s, start, ts)
  if not s:find('\t', 1, true) then
    return s
  end
  local out, width = {}, start
  for ch in s:gmatch('[%z\1-\127\194-\244][\128-\191]*') do
    if ch == '\t' then
      local n = ts - (width % ts)
      table.insert(out, string.rep(' ', n))
      width = width + n
    else
      table.insert(out, ch)
      width = width + vim.fn.strdisplaywidth(ch)
    end
  end
  return table.concat(out)
end

--- The items of result as suggestions at (row, col) of line: those whose
--- text starts with what their range covers before the cursor.
function M.suggestions(result, line, row, col, enc)
  local items = type(result) == 'table' and (result.items or (result[1] ~= nil and result)) or {}
  local out = {}
  for _, item in ipairs(items) do
    local text = item.insertText
    if type(text) == 'table' then
      text = text.value
    end
    if type(text) == 'string' then
      text = text:gsub('\r\n', '\n')
      local start, stop = col, col
      local ok = true
      local r = item.range
      if type(r) == 'table' and r.start and r['end'] then
        if r.start.line ~= row or r['end'].line ~= row then
          ok = false
        else
          start = util.byte_col(line, r.start.character, enc)
          stop = util.byte_col(line, r['end'].character, enc)
          if start > col or stop < col then
            ok = false
          end
        end
      end
      local typed = line:sub(start + 1, col)
      if ok and text:sub(1, #typed) == typed then
        local ghost = text:sub(#typed + 1)
        if ghost ~= '' then
          table.insert(out, { item = item, id = M.item_id(item), ghost = ghost, stop = stop })
        end
      end
    end
  end
  return out
end

--- The part of ghost accept_word takes: the next word with the spaces
--- before it, else the next run of punctuation, else the spaces (a line
--- break and the next line's indentation).
function M.next_word(ghost)
  return ghost:match('^%s*[%w_]+') or ghost:match('^%s*[^%w_%s]+') or ghost:match('^%s+') or ghost
end

--- The part of ghost accept_line takes: the rest of the cursor's line,
--- or when that is empty the line break and the next line.
function M.next_line(ghost)
  local first = ghost:match('^[^\n]*')
  if first ~= '' then
    return first
  end
  return ghost:match('^\n[^\n]*') or ghost
end

return M
