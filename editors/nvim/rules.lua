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

local function config(root)
  return {
    name = "rulesdsl",
    cmd = vim.g.rulesdsl_lsp_cmd or { "rulesdsl", "lsp" },
    root_dir = root,
  }
end

local client_id = nil   -- Neovim 0.7: one server for every rules buffer, started once

local function attach(buf, root)
  if vim.lsp.start ~= nil then      -- Neovim 0.8 and later reuses a running server itself
    vim.lsp.start(config(root), { bufnr = buf })
    return
  end
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client(config(root))
  end
  if client_id ~= nil then
    vim.lsp.buf_attach_client(buf, client_id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "rules",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    attach(args.buf, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h"))
  end,
})
