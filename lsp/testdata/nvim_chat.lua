-- End-to-end test of parley/chat in a real client: headless Neovim (0.7+,
-- built-in LSP client) asks the agent for an edit; a scripted model API
-- (fakellm) answers with an edit_file call and then "done". Driven by
-- TestNeovimChatE2E, which sets PARLEY_ROOT (the fixture workspace),
-- PARLEY_CMD (the server command), PARLEY_RESULT (where this script writes
-- "ok" or the failure), PARLEY_FAKE_API_URL and PARLEY_FAKE_API_KEY (the
-- model API), and PARLEY_CHAT_OLD_LINE / PARLEY_CHAT_NEW_LINE (line 4 of
-- cart/fee.go before and after the edit).
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/nvim_helpers.lua')
local check, root = H.check, H.root
local old_line = os.getenv('PARLEY_CHAT_OLD_LINE')
local new_line = os.getenv('PARLEY_CHAT_NEW_LINE')

H.run(function()
  local events = {} -- parley/event params in arrival order
  local applied = {} -- workspace/applyEdit: { params = ..., reply = ... }
  local client, buf = H.start({
    init_options = {
      agent = {
        api_url = os.getenv('PARLEY_FAKE_API_URL'),
        api_key = os.getenv('PARLEY_FAKE_API_KEY'),
        model = 'fake-model',
        provider = 'openai-compatible',
        -- Neovim does not confirm edits itself: in "default" mode every edit
        -- would be a window/showMessageRequest question.
        permission_mode = 'acceptEdits',
        -- This client does not answer parley/diagnostics: without this the
        -- server would start gopls for the edit (the fallback), which the
        -- test does not need, and stop it while the test cleans up.
        lsp = { go = { disabled = true } },
      },
    },
    handlers = {
      ['parley/event'] = function(_, params) table.insert(events, params) end,
      -- Neovim's own handler applies the edit; record what came and went.
      ['workspace/applyEdit'] = function(err, params, ctx, config)
        local reply = vim.lsp.handlers['workspace/applyEdit'](err, params, ctx, config)
        table.insert(applied, { params = params, reply = reply })
        return reply
      end,
    },
  })
  local original = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  check(original[4] == old_line, 'line 4 before the chat: ' .. vim.inspect(original))

  H.wait_indexed(client, buf)

  -- The turn: the server sends workspace/applyEdit while the request runs,
  -- so wait asynchronously (vim.wait keeps handling messages).
  local answered, chat_err, chat_res = false, nil, nil
  local sent = client.request('parley/chat', { message = 'Make Discount subtract 2 from the fee.' },
    function(e, r)
      chat_err, chat_res, answered = e, r, true
    end, buf)
  check(sent, 'parley/chat was not sent')
  local function kinds()
    local out = {}
    for _, e in ipairs(events) do table.insert(out, e.kind) end
    return table.concat(out, ',')
  end
  local function saw_done()
    return #events > 0 and events[#events].kind == 'done'
  end
  check(vim.wait(30000, function() return answered and saw_done() end, 20),
    'no parley/chat response and done event within 30 s; answered=' .. tostring(answered) ..
    ' events: ' .. kinds())

  check(not chat_err, 'parley/chat: ' .. vim.inspect(chat_err))
  check(chat_res and chat_res.stopReason == 'end_turn' and chat_res.text == 'done' and not chat_res.error,
    'parley/chat result: ' .. vim.inspect(chat_res))

  -- The event stream.
  local seen = {}
  for _, e in ipairs(events) do
    check(e.session == chat_res.session and e.turn == chat_res.turn,
      'event of another session or turn: ' .. vim.inspect(e))
    seen[e.kind] = seen[e.kind] or e
  end
  for _, k in ipairs({ 'toolCall', 'toolResult', 'edit', 'done' }) do
    check(seen[k], 'no ' .. k .. ' event; kinds: ' .. kinds())
  end
  check(seen.toolCall.toolName == 'edit_file', 'toolCall: ' .. vim.inspect(seen.toolCall))
  check(seen.toolResult.toolCallId == seen.toolCall.toolCallId and seen.toolResult.result and
    not seen.toolResult.result.isError, 'toolResult: ' .. vim.inspect(seen.toolResult))
  local changes = seen.edit.changes or {}
  check(#changes == 1 and changes[1].uri == vim.uri_from_fname(root .. '/cart/fee.go'),
    'edit event: ' .. vim.inspect(seen.edit))
  check(seen.done.stopReason == 'end_turn', 'done event: ' .. vim.inspect(seen.done))

  check(#applied == 1 and applied[1].reply and applied[1].reply.applied,
    'workspace/applyEdit: ' .. vim.inspect(applied))
  -- Neovim 0.7 lists resource operations, so the edit is a versioned
  -- TextDocumentEdit (the buffer's version guards against stale edits).
  local dc = applied[1].params.edit.documentChanges or {}
  check(#dc == 1 and dc[1].textDocument and type(dc[1].textDocument.version) == 'number',
    'applyEdit is not a versioned TextDocumentEdit: ' .. vim.inspect(applied))

  -- The edit is in the buffer (only line 4 differs), not saved.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local want = vim.deepcopy(original)
  want[4] = new_line
  check(vim.deep_equal(lines, want), 'buffer after the edit: ' .. vim.inspect(lines) ..
    '\nworkspace/applyEdit: ' .. vim.inspect(applied))
  check(vim.bo[buf].modified, 'buffer not modified after the edit')

  -- One undo takes the agent's edit back and the buffer is unmodified.
  vim.cmd('normal! u')
  lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  check(vim.deep_equal(lines, original), 'buffer after undo: ' .. vim.inspect(lines) ..
    '\nworkspace/applyEdit: ' .. vim.inspect(applied))
  check(not vim.bo[buf].modified, 'buffer still modified after undo')
  H.finish('ok')
end)
