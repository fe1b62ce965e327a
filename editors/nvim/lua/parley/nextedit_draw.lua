-- Drawing a next-edit proposal (nextedit.lua holds its state, requests
-- and keys): the replaced text struck through, the new text as virtual
-- text after it (inline on 0.10+, at the end of the line before), and a
-- hint of the keys and what the proposal does.
local util = require('parley.util')

local D = {}

local api = vim.api
local cursor = util.cursor
local line_at = util.line_at

-- 0.10 and later draw virtual text inside the line ('inline').
local has_inline = vim.fn.has('nvim-0.10') == 1

local function enc(shown)
  return shown and shown.client.offset_encoding or 'utf-16'
end

--- The loaded buffer of uri, or nil (never creates one).
function D.loaded_buf(uri)
  local fname = vim.uri_to_fname(uri)
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) then
      local name = api.nvim_buf_get_name(b)
      if name ~= '' and (name == fname or vim.uri_from_bufnr(b) == uri) then
        return b
      end
    end
  end
  return nil
end

function D.clear(shown, ns)
  if not shown then
    return
  end
  for b in pairs(shown.drawn or {}) do
    if api.nvim_buf_is_valid(b) then
      pcall(api.nvim_buf_clear_namespace, b, ns, 0, -1)
    end
  end
  shown.drawn = {}
end

--- Fills in e's buffer and byte positions when its buffer is loaded;
--- false when it is not (or the range lies outside it).
local function locate(shown, e)
  local b = D.loaded_buf(e.uri)
  e.buf = b
  if not b then
    return false
  end
  local s, en = e.range.start, e.range['end']
  local n = api.nvim_buf_line_count(b)
  if s.line < 0 or en.line < s.line or en.line >= n then
    e.buf = nil
    return false
  end
  e.srow, e.scol = s.line, util.byte_col(line_at(b, s.line), s.character, enc(shown))
  e.erow, e.ecol = en.line, util.byte_col(line_at(b, en.line), en.character, enc(shown))
  return true
end

local function detab(s, buf)
  if not s:find('\t', 1, true) then
    return s
  end
  return (s:gsub('\t', string.rep(' ', vim.bo[buf].tabstop)))
end

--- The hint shown at the end of a line: the keys and what the proposal
--- does.
local function hint_text(shown, key)
  local parts = {}
  if key('accept') then
    table.insert(parts, key('accept') .. ' accept')
  end
  if key('jump') and #shown.edits > 1 then
    table.insert(parts, key('jump') .. ' jump')
  end
  if shown.why and shown.why ~= '' then
    table.insert(parts, shown.why)
  end
  return table.concat(parts, ' · ')
end

--- The edit nearest the cursor in the current buffer, or nil.
function D.nearest(shown)
  local cur = api.nvim_get_current_buf()
  local row, col = cursor()
  local best, dist = nil, nil
  for _, e in ipairs(shown.edits) do
    if e.buf == cur then
      local d = math.abs(e.srow - row) * 1e6 + math.abs(e.scol - col)
      if not dist or d < dist then
        best, dist = e, d
      end
    end
  end
  return best
end

--- Draws the proposal shown in every loaded buffer it edits (key names
--- the keys for the hint).
function D.render(shown, ns, key)
  D.clear(shown, ns)
  local eol = {} -- buf -> row -> chunks
  -- sep: a separator from what the line shows already.
  local function add_eol(b, row, chunks, sep)
    eol[b] = eol[b] or {}
    local line = eol[b][row]
    if not line then
      line = {}
      eol[b][row] = line
    elseif sep then
      table.insert(line, { sep, 'ParleyNextEditHint' })
    end
    vim.list_extend(line, chunks)
  end
  local first_in = {}
  for _, e in ipairs(shown.edits) do
    if locate(shown, e) then
      local b = e.buf
      first_in[b] = first_in[b] or e
      shown.drawn[b] = true
      if e.erow > e.srow or e.ecol > e.scol then
        pcall(api.nvim_buf_set_extmark, b, ns, e.srow, e.scol,
          { end_row = e.erow, end_col = e.ecol, hl_group = 'ParleyNextEditOld' })
      end
      local lines = vim.split(e.newText, '\n', { plain = true })
      local o = {}
      if has_inline then
        if lines[1] ~= '' then
          o.virt_text = { { detab(lines[1], b), 'ParleyNextEditNew' } }
          o.virt_text_pos = 'inline'
          o.hl_mode = 'combine'
        end
      else
        local text = lines[1]
        if #lines == 1 and text == '' then
          add_eol(b, e.erow, { { '→ (deleted)', 'ParleyNextEditHint' } }, ', ')
        else
          add_eol(b, e.erow, { { '→ ', 'ParleyNextEditHint' }, { detab(text, b), 'ParleyNextEditNew' } }, ', ')
        end
      end
      if #lines > 1 then
        o.virt_lines = {}
        for i = 2, #lines do
          table.insert(o.virt_lines, { { detab(lines[i], b), 'ParleyNextEditNew' } })
        end
      end
      if next(o) then
        pcall(api.nvim_buf_set_extmark, b, ns, e.erow, e.ecol, o)
      end
    end
  end
  -- The hint: at the edit nearest the cursor in the current buffer, at
  -- the first edit in the others; in the buffer the proposal was asked
  -- for, at the cursor's line when it edits only other files.
  local cur = api.nvim_get_current_buf()
  local near = D.nearest(shown)
  shown.near = near
  local hint = { { '  ' .. hint_text(shown, key), 'ParleyNextEditHint' } }
  for b, e in pairs(first_in) do
    local at = (b == cur and near) or e
    add_eol(b, at.erow, hint)
  end
  if not first_in[shown.buf] and api.nvim_buf_is_valid(shown.buf) and api.nvim_buf_is_loaded(shown.buf) then
    local row = shown.row
    if cur == shown.buf then
      row = cursor()
    end
    shown.drawn[shown.buf] = true
    add_eol(shown.buf, math.min(row, api.nvim_buf_line_count(shown.buf) - 1), hint)
  end
  for b, rows in pairs(eol) do
    for row, chunks in pairs(rows) do
      pcall(api.nvim_buf_set_extmark, b, ns, row, 0,
        { virt_text = chunks, virt_text_pos = 'eol', hl_mode = 'combine' })
    end
  end
end

return D
