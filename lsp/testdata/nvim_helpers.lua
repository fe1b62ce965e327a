-- Shared by the headless-Neovim tests of the language server
-- (nvim_e2e.lua, nvim_chat.lua): the verdict, a client started on the
-- fixture workspace with cart/fee.go open, requests, and waiting for the
-- first index run. The Go side (runNeovim in nvim_test.go) sets PARLEY_ROOT,
-- PARLEY_CMD and PARLEY_RESULT.
local H = { root = os.getenv('PARLEY_ROOT') }

-- finish writes "ok" or the failure for the Go side and quits.
function H.finish(msg)
  local f = io.open(os.getenv('PARLEY_RESULT'), 'w')
  f:write(msg)
  f:close()
  vim.cmd(msg == 'ok' and 'qall!' or 'cquit! 1')
end

function H.check(cond, msg)
  if not cond then
    H.finish('FAIL: ' .. msg)
    error(msg)
  end
end

-- start starts the test binary as `parley serve` with extra start_client
-- options, opens cart/fee.go and attaches; it returns the client and the
-- buffer.
function H.start(extra)
  local initialized = false
  local opts = {
    cmd = { os.getenv('PARLEY_CMD'), 'serve', '--log-level', 'debug' },
    cmd_env = { PARLEY_LSP_TEST_SERVE = '1' },
    root_dir = H.root,
    workspace_folders = { { uri = vim.uri_from_fname(H.root), name = 'shop' } },
    flags = { debounce_text_changes = 0 },
    on_init = function() initialized = true end,
  }
  for k, v in pairs(extra or {}) do
    opts[k] = v
  end
  local client_id = vim.lsp.start_client(opts)
  H.check(client_id, 'start_client failed')
  H.check(vim.wait(10000, function() return initialized end, 20), 'server did not initialize')
  local client = vim.lsp.get_client_by_id(client_id)
  vim.cmd('edit ' .. H.root .. '/cart/fee.go')
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return client, buf
end

-- request is a synchronous request that must succeed.
function H.request(client, buf, method, params)
  local res, rerr = client.request_sync(method, params, 10000, buf)
  H.check(res, method .. ': ' .. tostring(rerr))
  H.check(not res.err, method .. ': ' .. vim.inspect(res.err))
  return res.result
end

-- wait_indexed waits for the first index run.
function H.wait_indexed(client, buf)
  H.check(vim.wait(20000, function()
    local st = H.request(client, buf, 'parley/indexStatus', vim.empty_dict())
    return st.folders and st.folders[1] and st.folders[1].runs >= 1 and not st.indexing
  end, 50), 'indexing did not finish')
end

-- run runs the test body, turning an error into the verdict.
function H.run(body)
  local ok, err = pcall(body)
  if not ok then
    H.finish('FAIL: ' .. tostring(err))
  end
end

return H
