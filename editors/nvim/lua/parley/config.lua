-- The plugin's options: defaults, and what setup() made of the user's.
local M = {}

M.defaults = {
  -- The server command; `parley serve` speaks LSP on stdin/stdout.
  cmd = { 'parley', 'serve' },
  -- Extra environment for the server process (a table), or nil.
  cmd_env = nil,
  -- Start the client automatically for buffers of these filetypes ({'*'}
  -- for every file buffer).
  filetypes = {
    'go', 'python', 'javascript', 'javascriptreact', 'typescript', 'typescriptreact',
    'java', 'rust', 'c', 'cpp', 'cs', 'ruby', 'php', 'kotlin', 'lua', 'sh', 'bash',
    'zsh', 'swift',
  },
  -- false: start only with :ParleyStart.
  autostart = true,
  -- A buffer's root is the nearest directory above it holding one of
  -- these; without one, the current directory (if the file is under it),
  -- else the file's directory.
  root_markers = { '.parley', '.git', '.hg' },
  -- Sent as initializationOptions: { logLevel = 'info', agent = {...},
  -- index = {...} } (see docs/protocol.md).
  init_options = {},
  -- Passed to the LSP client as they are.
  flags = {},
  -- Merged into Neovim's client capabilities.
  capabilities = nil,
  -- Called as on_attach(client, bufnr) for every buffer parley attaches to.
  on_attach = nil,
  chat = {
    -- Where :ParleyChat opens the chat buffer: 'right', 'left', 'bottom',
    -- 'top', 'tab' or 'current'.
    position = 'right',
    width = 80,
    height = 15,
    -- Show the model's thinking (one line per fragment run, prefixed "> ").
    show_thinking = false,
  },
  approvals = {
    -- 'select' asks with vim.ui.select, 'confirm' with confirm().
    ui = 'select',
    -- How long (ms) to wait for an answer from a vim.ui.select that does
    -- not answer at once, on Neovim < 0.10; no answer denies.
    timeout = 300000,
  },
  -- false, true (the default keys below) or a table of lhs per action.
  keymaps = false,
  -- Inline completion as ghost text in Insert mode (parley/inlineCompletion;
  -- the server answers nothing until a completion model is configured).
  -- completion = false turns it off.
  completion = {
    enabled = true,
    -- Insert-mode keys: each acts when a suggestion is shown and is typed
    -- as itself otherwise ('' or false: no mapping).
    accept = '<M-l>',
    -- Accept only the next word, or the rest of the line, of it.
    accept_word = '<M-Right>',
    accept_line = '<M-C-Right>',
    -- Ask for a completion here (also inside comments and strings).
    invoke = '<M-\\>',
    dismiss = '<C-]>',
    next = '<M-]>',
    prev = '<M-[>',
    -- Wait this long (ms) after the last change before asking the server
    -- (which debounces too).
    debounce_ms = 50,
    -- Only buffers of these filetypes (nil: every buffer parley serves).
    filetypes = nil,
  },
  -- Next-edit proposals (parley/nextEdit): after you change a buffer and
  -- pause, the edit that most likely comes next (the same rename at a
  -- parameter's other uses, a missing import) as virtual text.
  -- next_edit = false turns them off.
  next_edit = {
    enabled = true,
    -- Normal- and Insert-mode keys: each acts when a proposal is shown
    -- and is typed as itself otherwise ('' or false: no mapping).
    accept = '<M-CR>',
    jump = '<M-n>',
    dismiss = '<M-BS>',
    -- Wait this long (ms) after the last change before asking the server.
    debounce_ms = 400,
    -- Only buffers of these filetypes (nil: every buffer parley serves).
    filetypes = nil,
  },
}

M.default_keymaps = {
  chat = '<leader>pc',
  new = '<leader>pn',
  stop = '<leader>px',
  sessions = '<leader>ps',
  code_action = '<leader>pa',
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  -- Lists replace, not merge.
  if opts and opts.filetypes then
    M.options.filetypes = opts.filetypes
  end
  if opts and opts.cmd then
    M.options.cmd = type(opts.cmd) == 'string' and { opts.cmd } or opts.cmd
  end
  if opts and opts.root_markers then
    M.options.root_markers = opts.root_markers
  end
  if opts and type(opts.completion) == 'boolean' then
    M.options.completion = vim.deepcopy(M.defaults.completion)
    M.options.completion.enabled = opts.completion
  elseif opts and type(opts.completion) == 'table' and opts.completion.filetypes then
    M.options.completion.filetypes = opts.completion.filetypes
  end
  if opts and type(opts.next_edit) == 'boolean' then
    M.options.next_edit = vim.deepcopy(M.defaults.next_edit)
    M.options.next_edit.enabled = opts.next_edit
  elseif opts and type(opts.next_edit) == 'table' and opts.next_edit.filetypes then
    M.options.next_edit.filetypes = opts.next_edit.filetypes
  end
  return M.options
end

return M
