;;; rules-mode.el --- rulesdsl rules files, with `rulesdsl lsp' through eglot  -*- lexical-binding: t; -*-

;; Use: (load "/path/to/rulesdsl/editors/emacs/rules-mode.el") in init.el, then
;; M-x eglot in a .rules buffer (or keep the hook below to start it on opening).
;; The server is `rulesdsl lsp' (pip install "rulesdsl[lsp]"); eglot is part of
;; Emacs 29 (M-x package-install RET eglot before that).

(define-derived-mode rules-mode prog-mode "Rules"
  "Major mode for rulesdsl rules files."
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (modify-syntax-entry ?# "<" rules-mode-syntax-table)
  (modify-syntax-entry ?\n ">" rules-mode-syntax-table)
  (modify-syntax-entry ?_ "_" rules-mode-syntax-table))

(add-to-list 'auto-mode-alist '("\\.rules\\'" . rules-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(rules-mode . ("rulesdsl" "lsp"))))

(add-hook 'rules-mode-hook #'eglot-ensure)

(provide 'rules-mode)
;;; rules-mode.el ends here
