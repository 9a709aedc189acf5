# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_planforge_global_optspecs
    string join \n store= p/plan= actor= format= color= q/quiet no-pager C= h/help V/version
end

function __fish_planforge_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_planforge_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_planforge_using_subcommand
    set -l cmd (__fish_planforge_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c planforge -n "__fish_planforge_needs_command" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_needs_command" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_needs_command" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_needs_command" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_needs_command" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_needs_command" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_needs_command" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_needs_command" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_needs_command" -s h -l help -d 'Print help'
complete -c planforge -n "__fish_planforge_needs_command" -s V -l version -d 'Print version'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "init" -d 'Create a plan store (default ./plans) with its registry and git files'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "list" -d 'List the plans in the store'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "use" -d 'Make a plan the store\'s current plan'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "create" -d 'Create an empty editable plan'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "remove" -d 'Delete a plan from the store'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "author" -d 'Start a plan from an owner\'s request, kept verbatim'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "status" -d 'Show a plan\'s state, revision, digest and issue counts'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "show" -d 'Render the whole plan as prose'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "outline" -d 'One flat outline of the plan: phases, node ids, tools, issue counts'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "read" -d 'Read one slice of the plan by a key the outline printed'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "add-node" -d 'Add a node'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "set-config" -d 'Replace a node\'s whole definition'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "set" -d 'Set one field of a node\'s definition'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "phase" -d 'Set or clear a node\'s phase'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "connect" -d 'Connect two nodes with an edge'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "disconnect" -d 'Remove an edge'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "remove-node" -d 'Remove a node and its edges'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "bounds" -d 'Print or set the plan\'s bounds'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "edit" -d 'Edit one node as YAML in $VISUAL / $EDITOR'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "undo" -d 'Undo your latest change to the plan'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "redo" -d 'Take back your latest undo'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "validate" -d 'Check plans or plan documents (for CI)'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "freeze" -d 'Check the plan and make it reviewable (read-only)'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "unfreeze" -d 'Make a reviewable plan editable again'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "upgrade" -d 'Bring every plan of the store to the current format now'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "submit" -d 'Freeze and approve the plan: it becomes executable, forever'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "clone" -d 'Copy a plan (or its first revisions) into a new editable plan'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "diff" -d 'Compare two revisions of a plan, or two plan documents'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "raw" -d 'Print the plan\'s content as JSON (wire form)'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "log" -d 'Show the plan\'s history, one line per change'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "ops" -d 'Print the plan\'s op log'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "export" -d 'Write the plan as a plan document (JSON or YAML)'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "import" -d 'Create a plan from a plan document'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "graph" -d 'Draw the plan as a Graphviz or Mermaid diagram'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "templates" -d 'List the plan templates'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "instantiate" -d 'Create a plan from a template'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "orchestrate" -d 'Turn a task decomposition into an orchestration plan'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "explain" -d 'Explain an issue code'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "schema" -d 'Print the JSON Schema of plan documents'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "tool" -d 'Run one model-facing tool call'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "mcp" -d 'Serve the model-facing tools over MCP (stdio)'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "registry" -d 'List, show or add the tools calls may invoke'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "repl" -d 'Interactive shell: every line is a planforge command'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c planforge -n "__fish_planforge_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c planforge -n "__fish_planforge_using_subcommand init" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand init" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand init" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand init" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand init" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand init" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand init" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand init" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand list" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand list" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand list" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand list" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand list" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand list" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand list" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand list" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand use" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand use" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand use" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand use" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand use" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand use" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand use" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand use" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand use" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand create" -l label -d 'A short label' -r
complete -c planforge -n "__fish_planforge_using_subcommand create" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand create" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand create" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand create" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand create" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand create" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand create" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand create" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand remove" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand remove" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand remove" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand remove" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand remove" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand remove" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand remove" -l force -d 'Also delete a reviewable or executable plan'
complete -c planforge -n "__fish_planforge_using_subcommand remove" -s y -l yes -d 'Do not ask (needed without a terminal)'
complete -c planforge -n "__fish_planforge_using_subcommand remove" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand remove" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand author" -l id -d 'The plan id [default: a fresh one]' -r
complete -c planforge -n "__fish_planforge_using_subcommand author" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand author" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand author" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand author" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand author" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand author" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand author" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand author" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand author" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand status" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand status" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand status" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand status" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand status" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand status" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand status" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand status" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand show" -l audience -d 'Who reads it' -r -f -a "model\t''
operator\t''"
complete -c planforge -n "__fish_planforge_using_subcommand show" -l rev -d 'Show the plan as it was at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand show" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand show" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand show" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand show" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand show" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand show" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand show" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand show" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand outline" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand outline" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand outline" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand outline" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand outline" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand outline" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand outline" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand outline" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand outline" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand read" -l phase -d 'Read this phase (`(unphased)` or "" for the nodes without one)' -r
complete -c planforge -n "__fish_planforge_using_subcommand read" -l node -d 'Read this node' -r
complete -c planforge -n "__fish_planforge_using_subcommand read" -l max-bytes -d 'Print at most N bytes of prose (1024 to 1048576): nodes in full while they fit, then the ids of the others' -r
complete -c planforge -n "__fish_planforge_using_subcommand read" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand read" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand read" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand read" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand read" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand read" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand read" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand read" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand read" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l kind -d 'The node kind' -r -f -a "entry\t''
call\t''
reason\t''
transform\t''
branch\t''
select\t''
join\t''"
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l phase -d 'The phase (a label for reading; edges alone order execution)' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l def -d 'The definition: JSON or YAML text, @FILE, or - for stdin. Field flags below are applied on top of it' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l input -d 'entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number, boolean, enum:A,B,…); repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l tool -d 'call: the tool to invoke (from the registry)' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l arg -d 'call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node, @node.path, @node[last].path, @node[all], @node[2].path) or a plain string; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l output -d 'call, transform: an output field, PATH:TYPE (as --input); repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l authority -d 'call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read, create, update, delete); repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l replay-safe -d 'call: whether repeating the call is safe (--replay-safe or --replay-safe=false)' -r -f -a "true\t''
false\t''"
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l on-indeterminate -d 'call: what to do when it is unknown whether the call took effect' -r -f -a "retry\t''
halt\t''
skip\t''"
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l on-missing-value -d 'call: what to do when an argument\'s value is missing at run time' -r -f -a "fail\t''
omit\t''"
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l declassify -d 'call: an output field this call asserts is sanitised; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l prompt -d 'reason: a prompt part: text, or a reference (@node.path); repeatable, in order' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l output-schema -d 'reason: the JSON Schema object of its output' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l max-attempts -d 'reason: how many attempts at a valid output (≥ 1)' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l source -d 'transform: the call whose artifact it reads (@node)' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l step -d 'transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l emit -d 'transform: `rows`, or `value:FIELD`' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l evaluator -d 'branch, select: the predicate evaluator (built in: structured)' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l predicate -d 'branch, select: the predicate (JSON or YAML)' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l case -d 'select: a case label; repeatable, in order' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l replace -d 'Replace an existing node with this id, in place'
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l scaffold -d 'Fill missing required strings with the placeholder `lorem ipsum` (freeze refuses it until replaced) and missing lists and objects with empty ones'
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l diamond -d 'join: mark it explicitly as a diamond join ({"kind": "diamond"})'
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand add-node" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l kind -d 'The node\'s kind, as a check [default: the node\'s current kind]' -r -f -a "entry\t''
call\t''
reason\t''
transform\t''
branch\t''
select\t''
join\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l def -d 'The definition: JSON or YAML text, @FILE, or - for stdin. Field flags below are applied on top of it' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l input -d 'entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number, boolean, enum:A,B,…); repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l tool -d 'call: the tool to invoke (from the registry)' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l arg -d 'call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node, @node.path, @node[last].path, @node[all], @node[2].path) or a plain string; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l output -d 'call, transform: an output field, PATH:TYPE (as --input); repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l authority -d 'call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read, create, update, delete); repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l replay-safe -d 'call: whether repeating the call is safe (--replay-safe or --replay-safe=false)' -r -f -a "true\t''
false\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l on-indeterminate -d 'call: what to do when it is unknown whether the call took effect' -r -f -a "retry\t''
halt\t''
skip\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l on-missing-value -d 'call: what to do when an argument\'s value is missing at run time' -r -f -a "fail\t''
omit\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l declassify -d 'call: an output field this call asserts is sanitised; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l prompt -d 'reason: a prompt part: text, or a reference (@node.path); repeatable, in order' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l output-schema -d 'reason: the JSON Schema object of its output' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l max-attempts -d 'reason: how many attempts at a valid output (≥ 1)' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l source -d 'transform: the call whose artifact it reads (@node)' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l step -d 'transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l emit -d 'transform: `rows`, or `value:FIELD`' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l evaluator -d 'branch, select: the predicate evaluator (built in: structured)' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l predicate -d 'branch, select: the predicate (JSON or YAML)' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l case -d 'select: a case label; repeatable, in order' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l diamond -d 'join: mark it explicitly as a diamond join ({"kind": "diamond"})'
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand set-config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand set" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand set" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand set" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand set" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand set" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand set" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand set" -l add -d 'Add PATH as a new field even when it is one letter off a field the node has'
complete -c planforge -n "__fish_planforge_using_subcommand set" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand set" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand phase" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand phase" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l clear -d 'Make the node unphased'
complete -c planforge -n "__fish_planforge_using_subcommand phase" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand phase" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand phase" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l handle -d 'When the edge fires [default: always]' -r
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l id -d 'The edge id [default: `<from>__<to>`, made unique]' -r
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand connect" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand connect" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand connect" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand connect" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand connect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand disconnect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -s y -l yes -d 'Do not ask (needed without a terminal)'
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand remove-node" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l max-nodes -d 'Most nodes the plan may hold' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l max-edges -d 'Most edges the plan may hold' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l max-steps -d 'Most node executions in one run' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l max-concurrent-frames -d 'Most executions at the same time' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l max-encoded-bytes -d 'Most bytes of the plan\'s canonical encoding' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand bounds" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand edit" -l from -d 'Start from this file (one an earlier edit kept) instead of the node as it is; the header is renewed for the current revision' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand edit" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand edit" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand edit" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand edit" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand edit" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand edit" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand edit" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand edit" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand undo" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand undo" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand undo" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand undo" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand undo" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand undo" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand undo" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand undo" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand undo" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand redo" -l expect-rev -d 'Refuse (revision_moved) unless the plan is at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand redo" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand redo" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand redo" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand redo" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand redo" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand redo" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand redo" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand redo" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand redo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l registry -d 'The registry to check against [default: the store\'s]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l max-findings -d 'List at most N findings per document or plan; the rest are counted (0: list them all)' -r
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l max-bytes -d 'Draw at most N bytes of findings in text mode (1024 to 1048576); the findings not drawn are counted. JSON, SARIF and github list them all' -r
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l stdin-filename -d 'The file name outputs give standard input (-)' -r
complete -c planforge -n "__fish_planforge_using_subcommand validate" -s o -l output -d 'Write the report, in any --format, to FILE (replaced atomically) instead of stdout' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l fail-on -d 'Which findings fail the run (exit 1): blocking ones, advisories too, or none (never: exit 0 even on input errors)' -r -f -a "blocking\t'Blocking findings'
advisory\t'Blocking and advisory findings'
never\t'None: exit 0 whenever the run completes'"
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand validate" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand validate" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l all -d 'Every plan in the store'
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l exit-zero -d 'Exit 0 whatever was found: the same as --fail-on never'
complete -c planforge -n "__fish_planforge_using_subcommand validate" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand validate" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand freeze" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand unfreeze" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand upgrade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand submit" -l by -d 'Who approves [default: the actor]' -r
complete -c planforge -n "__fish_planforge_using_subcommand submit" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand submit" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand submit" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand submit" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand submit" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand submit" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand submit" -s y -l yes -d 'Approve without asking'
complete -c planforge -n "__fish_planforge_using_subcommand submit" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand submit" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand submit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand clone" -l at -d 'Clone the plan as it was at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand clone" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand clone" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand clone" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand clone" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand clone" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand clone" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand clone" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand clone" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand clone" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l files -d 'Compare two plan documents instead (JSON or YAML; no store needed)' -r
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand diff" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand diff" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l exit-code -d 'Exit 1 when there are differences'
complete -c planforge -n "__fish_planforge_using_subcommand diff" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand diff" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand raw" -l rev -d 'At this revision [default: the current one]' -r
complete -c planforge -n "__fish_planforge_using_subcommand raw" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand raw" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand raw" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand raw" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand raw" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand raw" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand raw" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand raw" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand raw" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand log" -s n -l max-count -d 'Only the N newest changes' -r
complete -c planforge -n "__fish_planforge_using_subcommand log" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand log" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand log" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand log" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand log" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand log" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand log" -l reverse -d 'Oldest first'
complete -c planforge -n "__fish_planforge_using_subcommand log" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand log" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l since-lamport -d 'Only ops with a lamport greater than N' -r
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l through -d 'Only the first REV ops (the ops of revision REV)' -r
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand ops" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand ops" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand ops" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand ops" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand ops" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand export" -l rev -d 'Export the plan as it was at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand export" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand export" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand export" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand export" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand export" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand export" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand export" -l no-digest -d 'Leave the digest out (a document to edit by hand)'
complete -c planforge -n "__fish_planforge_using_subcommand export" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand export" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand import" -l id -d 'The new plan\'s id [default: the document\'s planId, else a fresh one]' -r
complete -c planforge -n "__fish_planforge_using_subcommand import" -l input-format -d 'The document\'s syntax [default: by extension, else sniffed]' -r -f -a "json\t''
yaml\t''"
complete -c planforge -n "__fish_planforge_using_subcommand import" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand import" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand import" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand import" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand import" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand import" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand import" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand import" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand graph" -l rev -d 'Draw the plan as it was at this revision' -r
complete -c planforge -n "__fish_planforge_using_subcommand graph" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand graph" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand graph" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand graph" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand graph" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand graph" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand graph" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand graph" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand graph" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand templates" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand templates" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand templates" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand templates" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand templates" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand templates" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand templates" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand templates" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand templates" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l arg -d 'A param value, NAME=VALUE; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l id -d 'The new plan\'s id [default: a fresh one]' -r
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand instantiate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l id -d 'The new plan\'s id [default: a fresh one]' -r
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l print -d 'Print the plan without storing it'
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand orchestrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand explain" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand explain" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand explain" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand explain" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand explain" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand explain" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand explain" -l all -d 'Explain every code'
complete -c planforge -n "__fish_planforge_using_subcommand explain" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand explain" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand schema" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand schema" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand schema" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand schema" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand schema" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand schema" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand schema" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand schema" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand tool" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand tool" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand tool" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand tool" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand tool" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand tool" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand tool" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand tool" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand tool" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l tier -d 'Which tools to offer' -r -f -a "front\t'list_templates, instantiate_plan, author_plan: for a conversational agent'
authoring\t'The graph mechanics (create_plan, add_node, … plan_read): for an authoring agent'
all\t'Both tiers'"
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l read-only -d 'Refuse every tool that changes plans (read-only tools still work)'
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -f -a "list" -d 'List the tools'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -f -a "show" -d 'Show one tool'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -f -a "add" -d 'Add a tool to registry.yaml'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and not __fish_seen_subcommand_from list show add help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l returns -d 'What it returns: text, bytes, media, or artifact:CLASS' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l summary -d 'One line shown in messages' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l required-arg -d 'An arg every call must pass; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l tools-arg -d 'The arg listing the tools a spawned subagent may use' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l writes -d 'An arg whose value names the artifact the call writes; repeatable' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l spawns-agent -d 'It starts a subagent'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the tools'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one tool'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add a tool to registry.yaml'
complete -c planforge -n "__fish_planforge_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c planforge -n "__fish_planforge_using_subcommand repl" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand repl" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand repl" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand repl" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand repl" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand repl" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand repl" -l keep-going -d 'In a script, run every line even after one fails; exit with the first failure\'s code'
complete -c planforge -n "__fish_planforge_using_subcommand repl" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand repl" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand repl" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand completions" -l store -d 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand completions" -s p -l plan -d 'The plan to work on [env: PLANFORGE_PLAN] [default: the store\'s current plan]' -r
complete -c planforge -n "__fish_planforge_using_subcommand completions" -l actor -d 'Who is acting [env: PLANFORGE_ACTOR, else $USER]' -r
complete -c planforge -n "__fish_planforge_using_subcommand completions" -l format -d 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)' -r -f -a "text\t''
json\t''
yaml\t''
sarif\t''
github\t''
dot\t''
mermaid\t''"
complete -c planforge -n "__fish_planforge_using_subcommand completions" -l color -d 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c planforge -n "__fish_planforge_using_subcommand completions" -s C -d 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there' -r -F
complete -c planforge -n "__fish_planforge_using_subcommand completions" -s q -l quiet -d 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
complete -c planforge -n "__fish_planforge_using_subcommand completions" -l no-pager -d 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
complete -c planforge -n "__fish_planforge_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "init" -d 'Create a plan store (default ./plans) with its registry and git files'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "list" -d 'List the plans in the store'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "use" -d 'Make a plan the store\'s current plan'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "create" -d 'Create an empty editable plan'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "remove" -d 'Delete a plan from the store'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "author" -d 'Start a plan from an owner\'s request, kept verbatim'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "status" -d 'Show a plan\'s state, revision, digest and issue counts'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "show" -d 'Render the whole plan as prose'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "outline" -d 'One flat outline of the plan: phases, node ids, tools, issue counts'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "read" -d 'Read one slice of the plan by a key the outline printed'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "add-node" -d 'Add a node'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "set-config" -d 'Replace a node\'s whole definition'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "set" -d 'Set one field of a node\'s definition'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "phase" -d 'Set or clear a node\'s phase'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "connect" -d 'Connect two nodes with an edge'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "disconnect" -d 'Remove an edge'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "remove-node" -d 'Remove a node and its edges'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "bounds" -d 'Print or set the plan\'s bounds'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "edit" -d 'Edit one node as YAML in $VISUAL / $EDITOR'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "undo" -d 'Undo your latest change to the plan'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "redo" -d 'Take back your latest undo'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "validate" -d 'Check plans or plan documents (for CI)'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "freeze" -d 'Check the plan and make it reviewable (read-only)'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "unfreeze" -d 'Make a reviewable plan editable again'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "upgrade" -d 'Bring every plan of the store to the current format now'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "submit" -d 'Freeze and approve the plan: it becomes executable, forever'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "clone" -d 'Copy a plan (or its first revisions) into a new editable plan'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "diff" -d 'Compare two revisions of a plan, or two plan documents'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "raw" -d 'Print the plan\'s content as JSON (wire form)'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "log" -d 'Show the plan\'s history, one line per change'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "ops" -d 'Print the plan\'s op log'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "export" -d 'Write the plan as a plan document (JSON or YAML)'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "import" -d 'Create a plan from a plan document'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "graph" -d 'Draw the plan as a Graphviz or Mermaid diagram'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "templates" -d 'List the plan templates'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "instantiate" -d 'Create a plan from a template'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "orchestrate" -d 'Turn a task decomposition into an orchestration plan'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "explain" -d 'Explain an issue code'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "schema" -d 'Print the JSON Schema of plan documents'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "tool" -d 'Run one model-facing tool call'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "mcp" -d 'Serve the model-facing tools over MCP (stdio)'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "registry" -d 'List, show or add the tools calls may invoke'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "repl" -d 'Interactive shell: every line is a planforge command'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c planforge -n "__fish_planforge_using_subcommand help; and not __fish_seen_subcommand_from init list use create remove author status show outline read add-node set-config set phase connect disconnect remove-node bounds edit undo redo validate freeze unfreeze upgrade submit clone diff raw log ops export import graph templates instantiate orchestrate explain schema tool mcp registry repl completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c planforge -n "__fish_planforge_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "list" -d 'List the tools'
complete -c planforge -n "__fish_planforge_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "show" -d 'Show one tool'
complete -c planforge -n "__fish_planforge_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "add" -d 'Add a tool to registry.yaml'
