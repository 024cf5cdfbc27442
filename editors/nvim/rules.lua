-- rulesdsl in Neovim (0.7 or later): `*.rules` files get the filetype `rules`, `#`
-- comments, and the language server `rulesdsl lsp` (diagnostics as you type, hover,
-- go to definition, completion, symbols, formatting).
--
-- Use: copy this file to ~/.config/nvim/plugin/rules.lua, or from init.lua
--   dofile("/path/to/rulesdsl/editors/nvim/rules.lua")
-- The server is `rulesdsl lsp` (pip install "rulesdsl[lsp]"); another command, such as a
-- virtual environment's, goes in vim.g.rulesdsl_lsp_cmd before this file is loaded:
--   vim.g.rulesdsl_lsp_cmd = { "/path/to/venv/bin/rulesdsl", "lsp" }

local group = vim.api.nvim_create_augroup("rulesdsl", { clear = true })

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  group = group,
  pattern = "*.rules",
  callback = function(args)
    vim.bo[args.buf].filetype = "rules"
  end,
})

local client_id = nil   -- one server for every rules buffer of this Neovim

local function start_server(root)
  local config = {
    name = "rulesdsl",
    cmd = vim.g.rulesdsl_lsp_cmd or { "rulesdsl", "lsp" },
    root_dir = root,
  }
  if client_id ~= nil and vim.lsp.get_client_by_id(client_id) ~= nil then
    return client_id
  end
  client_id = vim.lsp.start_client(config)
  return client_id
end

vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "rules",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local root = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h")
    if vim.lsp.start ~= nil then      -- Neovim 0.8 and later: reuses a running server
      vim.lsp.start({ name = "rulesdsl", cmd = vim.g.rulesdsl_lsp_cmd or { "rulesdsl", "lsp" },
                      root_dir = root }, { bufnr = args.buf })
      return
    end
    local id = start_server(root)
    if id ~= nil then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
