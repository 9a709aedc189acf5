
use builtin;
use str;

set edit:completion:arg-completer[planforge] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'planforge'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'planforge'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create a plan store (default ./plans) with its registry and git files'
            cand list 'List the plans in the store'
            cand use 'Make a plan the store''s current plan'
            cand create 'Create an empty editable plan'
            cand remove 'Delete a plan from the store'
            cand author 'Start a plan from an owner''s request, kept verbatim'
            cand status 'Show a plan''s state, revision, digest and issue counts'
            cand show 'Render the whole plan as prose'
            cand outline 'One flat outline of the plan: phases, node ids, tools, issue counts'
            cand read 'Read one slice of the plan by a key the outline printed'
            cand add-node 'Add a node'
            cand set-config 'Replace a node''s whole definition'
            cand set 'Set one field of a node''s definition'
            cand phase 'Set or clear a node''s phase'
            cand connect 'Connect two nodes with an edge'
            cand disconnect 'Remove an edge'
            cand remove-node 'Remove a node and its edges'
            cand bounds 'Print or set the plan''s bounds'
            cand edit 'Edit one node as YAML in $VISUAL / $EDITOR'
            cand undo 'Undo your latest change to the plan'
            cand redo 'Take back your latest undo'
            cand validate 'Check plans or plan documents (for CI)'
            cand freeze 'Check the plan and make it reviewable (read-only)'
            cand unfreeze 'Make a reviewable plan editable again'
            cand upgrade 'Bring every plan of the store to the current format now'
            cand submit 'Freeze and approve the plan: it becomes executable, forever'
            cand clone 'Copy a plan (or its first revisions) into a new editable plan'
            cand diff 'Compare two revisions of a plan, or two plan documents'
            cand raw 'Print the plan''s content as JSON (wire form)'
            cand log 'Show the plan''s history, one line per change'
            cand ops 'Print the plan''s op log'
            cand export 'Write the plan as a plan document (JSON or YAML)'
            cand import 'Create a plan from a plan document'
            cand graph 'Draw the plan as a Graphviz or Mermaid diagram'
            cand templates 'List the plan templates'
            cand instantiate 'Create a plan from a template'
            cand orchestrate 'Turn a task decomposition into an orchestration plan'
            cand explain 'Explain an issue code'
            cand schema 'Print the JSON Schema of plan documents'
            cand tool 'Run one model-facing tool call'
            cand mcp 'Serve the model-facing tools over MCP (stdio)'
            cand registry 'List, show or add the tools calls may invoke'
            cand repl 'Interactive shell: every line is a planforge command'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'planforge;init'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;list'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;use'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;create'= {
            cand --label 'A short label'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;remove'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --force 'Also delete a reviewable or executable plan'
            cand -y 'Do not ask (needed without a terminal)'
            cand --yes 'Do not ask (needed without a terminal)'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;author'= {
            cand --id 'The plan id [default: a fresh one]'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;status'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;show'= {
            cand --audience 'Who reads it'
            cand --rev 'Show the plan as it was at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;outline'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;read'= {
            cand --phase 'Read this phase (`(unphased)` or "" for the nodes without one)'
            cand --node 'Read this node'
            cand --max-bytes 'Print at most N bytes of prose (1024 to 1048576): nodes in full while they fit, then the ids of the others'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;add-node'= {
            cand --kind 'The node kind'
            cand --phase 'The phase (a label for reading; edges alone order execution)'
            cand --def 'The definition: JSON or YAML text, @FILE, or - for stdin. Field flags below are applied on top of it'
            cand --input 'entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number, boolean, enum:A,B,…); repeatable'
            cand --tool 'call: the tool to invoke (from the registry)'
            cand --arg 'call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node, @node.path, @node[last].path, @node[all], @node[2].path) or a plain string; repeatable'
            cand --output 'call, transform: an output field, PATH:TYPE (as --input); repeatable'
            cand --authority 'call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read, create, update, delete); repeatable'
            cand --replay-safe 'call: whether repeating the call is safe (--replay-safe or --replay-safe=false)'
            cand --on-indeterminate 'call: what to do when it is unknown whether the call took effect'
            cand --on-missing-value 'call: what to do when an argument''s value is missing at run time'
            cand --declassify 'call: an output field this call asserts is sanitised; repeatable'
            cand --prompt 'reason: a prompt part: text, or a reference (@node.path); repeatable, in order'
            cand --output-schema 'reason: the JSON Schema object of its output'
            cand --max-attempts 'reason: how many attempts at a valid output (≥ 1)'
            cand --source 'transform: the call whose artifact it reads (@node)'
            cand --step 'transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order'
            cand --emit 'transform: `rows`, or `value:FIELD`'
            cand --evaluator 'branch, select: the predicate evaluator (built in: structured)'
            cand --predicate 'branch, select: the predicate (JSON or YAML)'
            cand --case 'select: a case label; repeatable, in order'
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --replace 'Replace an existing node with this id, in place'
            cand --scaffold 'Fill missing required strings with the placeholder `lorem ipsum` (freeze refuses it until replaced) and missing lists and objects with empty ones'
            cand --diamond 'join: mark it explicitly as a diamond join ({"kind": "diamond"})'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;set-config'= {
            cand --kind 'The node''s kind, as a check [default: the node''s current kind]'
            cand --def 'The definition: JSON or YAML text, @FILE, or - for stdin. Field flags below are applied on top of it'
            cand --input 'entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number, boolean, enum:A,B,…); repeatable'
            cand --tool 'call: the tool to invoke (from the registry)'
            cand --arg 'call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node, @node.path, @node[last].path, @node[all], @node[2].path) or a plain string; repeatable'
            cand --output 'call, transform: an output field, PATH:TYPE (as --input); repeatable'
            cand --authority 'call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read, create, update, delete); repeatable'
            cand --replay-safe 'call: whether repeating the call is safe (--replay-safe or --replay-safe=false)'
            cand --on-indeterminate 'call: what to do when it is unknown whether the call took effect'
            cand --on-missing-value 'call: what to do when an argument''s value is missing at run time'
            cand --declassify 'call: an output field this call asserts is sanitised; repeatable'
            cand --prompt 'reason: a prompt part: text, or a reference (@node.path); repeatable, in order'
            cand --output-schema 'reason: the JSON Schema object of its output'
            cand --max-attempts 'reason: how many attempts at a valid output (≥ 1)'
            cand --source 'transform: the call whose artifact it reads (@node)'
            cand --step 'transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order'
            cand --emit 'transform: `rows`, or `value:FIELD`'
            cand --evaluator 'branch, select: the predicate evaluator (built in: structured)'
            cand --predicate 'branch, select: the predicate (JSON or YAML)'
            cand --case 'select: a case label; repeatable, in order'
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --diamond 'join: mark it explicitly as a diamond join ({"kind": "diamond"})'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;set'= {
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --add 'Add PATH as a new field even when it is one letter off a field the node has'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;phase'= {
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --clear 'Make the node unphased'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;connect'= {
            cand --handle 'When the edge fires [default: always]'
            cand --id 'The edge id [default: `<from>__<to>`, made unique]'
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;disconnect'= {
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;remove-node'= {
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -y 'Do not ask (needed without a terminal)'
            cand --yes 'Do not ask (needed without a terminal)'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;bounds'= {
            cand --max-nodes 'Most nodes the plan may hold'
            cand --max-edges 'Most edges the plan may hold'
            cand --max-steps 'Most node executions in one run'
            cand --max-concurrent-frames 'Most executions at the same time'
            cand --max-encoded-bytes 'Most bytes of the plan''s canonical encoding'
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;edit'= {
            cand --from 'Start from this file (one an earlier edit kept) instead of the node as it is; the header is renewed for the current revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;undo'= {
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;redo'= {
            cand --expect-rev 'Refuse (revision_moved) unless the plan is at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;validate'= {
            cand --registry 'The registry to check against [default: the store''s]'
            cand --max-findings 'List at most N findings per document or plan; the rest are counted (0: list them all)'
            cand --max-bytes 'Draw at most N bytes of findings in text mode (1024 to 1048576); the findings not drawn are counted. JSON, SARIF and github list them all'
            cand --stdin-filename 'The file name outputs give standard input (-)'
            cand -o 'Write the report, in any --format, to FILE (replaced atomically) instead of stdout'
            cand --output 'Write the report, in any --format, to FILE (replaced atomically) instead of stdout'
            cand --fail-on 'Which findings fail the run (exit 1): blocking ones, advisories too, or none (never: exit 0 even on input errors)'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --all 'Every plan in the store'
            cand --exit-zero 'Exit 0 whatever was found: the same as --fail-on never'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;freeze'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;unfreeze'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;upgrade'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;submit'= {
            cand --by 'Who approves [default: the actor]'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -y 'Approve without asking'
            cand --yes 'Approve without asking'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;clone'= {
            cand --at 'Clone the plan as it was at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;diff'= {
            cand --files 'Compare two plan documents instead (JSON or YAML; no store needed)'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --exit-code 'Exit 1 when there are differences'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;raw'= {
            cand --rev 'At this revision [default: the current one]'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;log'= {
            cand -n 'Only the N newest changes'
            cand --max-count 'Only the N newest changes'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --reverse 'Oldest first'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;ops'= {
            cand --since-lamport 'Only ops with a lamport greater than N'
            cand --through 'Only the first REV ops (the ops of revision REV)'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;export'= {
            cand --rev 'Export the plan as it was at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --no-digest 'Leave the digest out (a document to edit by hand)'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;import'= {
            cand --id 'The new plan''s id [default: the document''s planId, else a fresh one]'
            cand --input-format 'The document''s syntax [default: by extension, else sniffed]'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;graph'= {
            cand --rev 'Draw the plan as it was at this revision'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;templates'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;instantiate'= {
            cand --arg 'A param value, NAME=VALUE; repeatable'
            cand --id 'The new plan''s id [default: a fresh one]'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;orchestrate'= {
            cand --id 'The new plan''s id [default: a fresh one]'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --print 'Print the plan without storing it'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;explain'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --all 'Explain every code'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;schema'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;tool'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;mcp'= {
            cand --tier 'Which tools to offer'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --read-only 'Refuse every tool that changes plans (read-only tools still work)'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;registry'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'List the tools'
            cand show 'Show one tool'
            cand add 'Add a tool to registry.yaml'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'planforge;registry;list'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'planforge;registry;show'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'planforge;registry;add'= {
            cand --returns 'What it returns: text, bytes, media, or artifact:CLASS'
            cand --summary 'One line shown in messages'
            cand --required-arg 'An arg every call must pass; repeatable'
            cand --tools-arg 'The arg listing the tools a spawned subagent may use'
            cand --writes 'An arg whose value names the artifact the call writes; repeatable'
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --spawns-agent 'It starts a subagent'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'planforge;registry;help'= {
            cand list 'List the tools'
            cand show 'Show one tool'
            cand add 'Add a tool to registry.yaml'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'planforge;registry;help;list'= {
        }
        &'planforge;registry;help;show'= {
        }
        &'planforge;registry;help;add'= {
        }
        &'planforge;registry;help;help'= {
        }
        &'planforge;repl'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand --keep-going 'In a script, run every line even after one fails; exit with the first failure''s code'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;completions'= {
            cand --store 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]'
            cand -p 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --plan 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]'
            cand --actor 'Who is acting [env: PLANFORGE_ACTOR, else $USER]'
            cand --format 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)'
            cand --color 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)'
            cand -C 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there'
            cand -q 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --quiet 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went'
            cand --no-pager 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'planforge;help'= {
            cand init 'Create a plan store (default ./plans) with its registry and git files'
            cand list 'List the plans in the store'
            cand use 'Make a plan the store''s current plan'
            cand create 'Create an empty editable plan'
            cand remove 'Delete a plan from the store'
            cand author 'Start a plan from an owner''s request, kept verbatim'
            cand status 'Show a plan''s state, revision, digest and issue counts'
            cand show 'Render the whole plan as prose'
            cand outline 'One flat outline of the plan: phases, node ids, tools, issue counts'
            cand read 'Read one slice of the plan by a key the outline printed'
            cand add-node 'Add a node'
            cand set-config 'Replace a node''s whole definition'
            cand set 'Set one field of a node''s definition'
            cand phase 'Set or clear a node''s phase'
            cand connect 'Connect two nodes with an edge'
            cand disconnect 'Remove an edge'
            cand remove-node 'Remove a node and its edges'
            cand bounds 'Print or set the plan''s bounds'
            cand edit 'Edit one node as YAML in $VISUAL / $EDITOR'
            cand undo 'Undo your latest change to the plan'
            cand redo 'Take back your latest undo'
            cand validate 'Check plans or plan documents (for CI)'
            cand freeze 'Check the plan and make it reviewable (read-only)'
            cand unfreeze 'Make a reviewable plan editable again'
            cand upgrade 'Bring every plan of the store to the current format now'
            cand submit 'Freeze and approve the plan: it becomes executable, forever'
            cand clone 'Copy a plan (or its first revisions) into a new editable plan'
            cand diff 'Compare two revisions of a plan, or two plan documents'
            cand raw 'Print the plan''s content as JSON (wire form)'
            cand log 'Show the plan''s history, one line per change'
            cand ops 'Print the plan''s op log'
            cand export 'Write the plan as a plan document (JSON or YAML)'
            cand import 'Create a plan from a plan document'
            cand graph 'Draw the plan as a Graphviz or Mermaid diagram'
            cand templates 'List the plan templates'
            cand instantiate 'Create a plan from a template'
            cand orchestrate 'Turn a task decomposition into an orchestration plan'
            cand explain 'Explain an issue code'
            cand schema 'Print the JSON Schema of plan documents'
            cand tool 'Run one model-facing tool call'
            cand mcp 'Serve the model-facing tools over MCP (stdio)'
            cand registry 'List, show or add the tools calls may invoke'
            cand repl 'Interactive shell: every line is a planforge command'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'planforge;help;init'= {
        }
        &'planforge;help;list'= {
        }
        &'planforge;help;use'= {
        }
        &'planforge;help;create'= {
        }
        &'planforge;help;remove'= {
        }
        &'planforge;help;author'= {
        }
        &'planforge;help;status'= {
        }
        &'planforge;help;show'= {
        }
        &'planforge;help;outline'= {
        }
        &'planforge;help;read'= {
        }
        &'planforge;help;add-node'= {
        }
        &'planforge;help;set-config'= {
        }
        &'planforge;help;set'= {
        }
        &'planforge;help;phase'= {
        }
        &'planforge;help;connect'= {
        }
        &'planforge;help;disconnect'= {
        }
        &'planforge;help;remove-node'= {
        }
        &'planforge;help;bounds'= {
        }
        &'planforge;help;edit'= {
        }
        &'planforge;help;undo'= {
        }
        &'planforge;help;redo'= {
        }
        &'planforge;help;validate'= {
        }
        &'planforge;help;freeze'= {
        }
        &'planforge;help;unfreeze'= {
        }
        &'planforge;help;upgrade'= {
        }
        &'planforge;help;submit'= {
        }
        &'planforge;help;clone'= {
        }
        &'planforge;help;diff'= {
        }
        &'planforge;help;raw'= {
        }
        &'planforge;help;log'= {
        }
        &'planforge;help;ops'= {
        }
        &'planforge;help;export'= {
        }
        &'planforge;help;import'= {
        }
        &'planforge;help;graph'= {
        }
        &'planforge;help;templates'= {
        }
        &'planforge;help;instantiate'= {
        }
        &'planforge;help;orchestrate'= {
        }
        &'planforge;help;explain'= {
        }
        &'planforge;help;schema'= {
        }
        &'planforge;help;tool'= {
        }
        &'planforge;help;mcp'= {
        }
        &'planforge;help;registry'= {
            cand list 'List the tools'
            cand show 'Show one tool'
            cand add 'Add a tool to registry.yaml'
        }
        &'planforge;help;registry;list'= {
        }
        &'planforge;help;registry;show'= {
        }
        &'planforge;help;registry;add'= {
        }
        &'planforge;help;repl'= {
        }
        &'planforge;help;completions'= {
        }
        &'planforge;help;help'= {
        }
    ]
    $completions[$command]
}
