"""Where researchers and editors already work: OpenSpiel (`openspiel`), PettingZoo
(`pettingzoo`) and a language server (`lsp`), each behind its optional extra
(`pip install "rulesdsl[openspiel]"` ...). `encoding` derives the fixed action space and
observation vector the first two share."""
