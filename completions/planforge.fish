complete --keep-order --exclusive --command planforge --arguments "(COMPLETE=fish planforge -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
