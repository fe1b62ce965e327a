-- Helpers of the plugin's headless Neovim tests (driven by nvim_test.go).
-- Environment: PARLEY_TEST_ROOT (the fixture workspace), PARLEY_TEST_BIN
-- (the parley binary), PARLEY_TEST_RESULT (where the script writes "ok"
-- or "FAIL: ..."), PARLEY_TEST_API_URL / PARLEY_TEST_API_KEY (the fake
-- model API) and PARLEY_TEST_MODE (the permission mode).
local H = {}

H.root = os.getenv('PARLEY_TEST_ROOT')
local result_file = os.getenv('PARLEY_TEST_RESULT')

-- Messages given to vim.notify, { msg, level } in order; errors fail the
-- test at the end.
H.notes = {}
vim.notify = function(msg, level)
  table.insert(H.notes, { msg = tostring(msg), level = level })
end

local finished = false

function H.finish(msg)
  if finished then
    return
  end
  finished = true
  local f = assert(io.open(result_file, 'w'))
  f:write(msg)
  f:close()
  vim.cmd(msg == 'ok' and 'qall!' or 'cquit! 1')
end

function H.check(cond, msg)
  if not cond then
    error('check failed: ' .. msg, 0)
  end
end

--- Waits up to ms for cond() (handling events meanwhile) or fails.
function H.wait(ms, cond, what)
  local ok = vim.wait(ms, cond, 20)
  if not ok then
    error('timed out after ' .. ms .. ' ms waiting for ' .. (type(what) == 'function' and what() or what), 0)
  end
end

--- Writes the verdict of a test body that returned ok (or failed with
--- err), with the chat buffers for failure messages, and quits.
local function verdict(ok, err)
  if ok then
    for _, n in ipairs(H.notes) do
      if n.level == vim.log.levels.ERROR then
        ok, err = false, 'vim.notify error: ' .. n.msg
        break
      end
    end
  end
  -- The chat buffers, for failure messages.
  pcall(function()
    local f = assert(io.open(result_file .. '.chat', 'w'))
    for root, st in pairs(require('parley.chat').states) do
      f:write('--- ' .. root .. '\n' .. H.chat_text(st) .. '\n')
    end
    f:close()
  end)
  H.finish(ok and 'ok' or ('FAIL: ' .. tostring(err)))
end

--- Runs the test body; writes the verdict and quits.
function H.run(fn)
  verdict(xpcall(fn, debug.traceback))
end

-- Tests that type need Neovim's main loop (typeahead is read there, not
-- in vim.wait): H.async runs the body in a coroutine that H.sleep,
-- H.wait_async and H.feed suspend, resumed by timers.
local co

--- Runs fn as a coroutine (see above); writes the verdict and quits.
function H.async(fn)
  co = coroutine.create(function()
    return xpcall(fn, debug.traceback)
  end)
  local function step()
    local ok, body_ok, err = coroutine.resume(co)
    if not ok then
      verdict(false, body_ok)
    elseif coroutine.status(co) == 'dead' then
      verdict(body_ok, err)
    end
  end
  H._step = step
  vim.schedule(step)
end

--- Suspends the body for ms, while Neovim reads keys and handles events.
function H.sleep(ms)
  vim.defer_fn(function() H._step() end, ms)
  coroutine.yield()
end

--- H.wait for H.async bodies.
function H.wait_async(ms, cond, what)
  local deadline = vim.loop.now() + ms
  while not cond() do
    if vim.loop.now() > deadline then
      error('timed out after ' .. ms .. ' ms waiting for ' .. (type(what) == 'function' and what() or what), 0)
    end
    H.sleep(10)
  end
end

--- Types keys (Neovim's notation, mappings applied) and lets Neovim read
--- them; waits ms (default 20) after.
function H.feed(keys, ms)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'mt', false)
  H.sleep(ms or 20)
end

-- The params of the last parley/chat request sent, and of every
-- parley/compact request.
H.last_params = nil
H.compact_params = {}
local util = require('parley.util')
local request = util.request
util.request = function(client, method, params, handler, bufnr)
  if method == 'parley/chat' then
    H.last_params = vim.deepcopy(params)
  elseif method == 'parley/compact' then
    table.insert(H.compact_params, vim.deepcopy(params))
  end
  return request(client, method, params, handler, bufnr)
end

--- require('parley').setup for the test server and fake model.
function H.setup(extra)
  local opts = {
    cmd = { os.getenv('PARLEY_TEST_BIN'), 'serve', '--log-level', 'debug' },
    init_options = {
      logLevel = 'debug',
      agent = {
        api_url = os.getenv('PARLEY_TEST_API_URL'),
        api_key = os.getenv('PARLEY_TEST_API_KEY'),
        model = 'fake-model',
        provider = 'openai-compatible',
        permission_mode = os.getenv('PARLEY_TEST_MODE') or 'acceptEdits',
      },
    },
    flags = { debounce_text_changes = 0 },
    chat = { position = 'right' },
  }
  require('parley').setup(vim.tbl_deep_extend('force', opts, extra or {}))
end

--- Opens a fixture file and waits until parley's client is initialized
--- and attached to it; returns buf, win, client.
function H.open(rel)
  vim.cmd('edit ' .. vim.fn.fnameescape(H.root .. '/' .. rel))
  local buf = vim.api.nvim_get_current_buf()
  return buf, vim.api.nvim_get_current_win(), H.attached(buf, rel)
end

--- Waits until parley's client is initialized and attached to buf;
--- returns the client.
function H.attached(buf, what)
  local client
  H.wait(15000, function()
    client = require('parley.client').for_buffer(buf, false)
    return client and client.initialized and vim.lsp.buf_is_attached(buf, client.id)
  end, 'the parley client to start and attach to ' .. what)
  return client
end

--- A synchronous request to client, failing on errors.
function H.request(client, method, params)
  local res, err
  if vim.fn.has('nvim-0.11') == 1 then
    res, err = client:request_sync(method, params or vim.empty_dict(), 10000, 0)
  else
    res, err = client.request_sync(method, params or vim.empty_dict(), 10000, 0)
  end
  H.check(res, method .. ': ' .. tostring(err))
  H.check(not res.err, method .. ': ' .. vim.inspect(res.err))
  return res.result
end

--- Waits for the first index run to end.
function H.wait_indexed(client)
  H.wait(20000, function()
    local st = H.request(client, 'parley/indexStatus')
    return st.folders and st.folders[1] and st.folders[1].runs >= 1 and not st.indexing
  end, 'the first index run')
end

--- The lines of a buffer.
function H.lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

--- The chat buffer's text.
function H.chat_text(st)
  if not (st.buf and vim.api.nvim_buf_is_valid(st.buf)) then
    return ''
  end
  return table.concat(H.lines(st.buf), '\n')
end

--- Whether the chat buffer holds a line equal to line.
function H.has_line(st, line)
  for _, l in ipairs(H.lines(st.buf)) do
    if l == line then
      return true
    end
  end
  return false
end

--- Waits for the running turn of st to end; returns st.last.
function H.wait_turn(st, what)
  H.wait(30000, function() return not st.running and st.last ~= nil end, function()
    return (what or 'the turn to end') .. '; chat buffer:\n' .. H.chat_text(st)
  end)
  return st.last
end

--- The kinds of the chat state's events, comma-separated.
function H.kinds(st)
  local out = {}
  for _, e in ipairs(st.events) do
    table.insert(out, e.kind)
  end
  return table.concat(out, ',')
end

--- Scripts vim.ui.input and vim.ui.select: each question takes the next
--- answer of H.answers (an input's text, or the select item equal to it;
--- nil cancels); H.asked records the prompts.
H.answers, H.asked = {}, {}
function H.script_ui(answers)
  H.answers = answers
  vim.ui.input = function(opts, on_confirm)
    table.insert(H.asked, opts.prompt)
    on_confirm(table.remove(H.answers, 1))
  end
  vim.ui.select = function(items, opts, on_choice)
    table.insert(H.asked, opts.prompt)
    local want = table.remove(H.answers, 1)
    for i, item in ipairs(items) do
      if item == want then
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
end

--- The last note whose text contains s (plain), or nil.
function H.note(s)
  for i = #H.notes, 1, -1 do
    if H.notes[i].msg:find(s, 1, true) then
      return H.notes[i], i
    end
  end
end

--- Waits for a note containing s and returns it.
function H.wait_note(s)
  H.wait(10000, function() return H.note(s) ~= nil end, function() return 'a note "' .. s .. '"; notes: ' .. vim.inspect(H.notes) end)
  return H.note(s)
end

return H
