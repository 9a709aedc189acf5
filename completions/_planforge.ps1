
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'planforge' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'planforge'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'planforge' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a plan store (default ./plans) with its registry and git files')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the plans in the store')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a plan the store''s current plan')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an empty editable plan')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Delete a plan from the store')
            [CompletionResult]::new('author', 'author', [CompletionResultType]::ParameterValue, 'Start a plan from an owner''s request, kept verbatim')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show a plan''s state, revision, digest and issue counts')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Render the whole plan as prose')
            [CompletionResult]::new('outline', 'outline', [CompletionResultType]::ParameterValue, 'One flat outline of the plan: phases, node ids, tools, issue counts')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read one slice of the plan by a key the outline printed')
            [CompletionResult]::new('add-node', 'add-node', [CompletionResultType]::ParameterValue, 'Add a node')
            [CompletionResult]::new('set-config', 'set-config', [CompletionResultType]::ParameterValue, 'Replace a node''s whole definition')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set one field of a node''s definition')
            [CompletionResult]::new('phase', 'phase', [CompletionResultType]::ParameterValue, 'Set or clear a node''s phase')
            [CompletionResult]::new('connect', 'connect', [CompletionResultType]::ParameterValue, 'Connect two nodes with an edge')
            [CompletionResult]::new('disconnect', 'disconnect', [CompletionResultType]::ParameterValue, 'Remove an edge')
            [CompletionResult]::new('remove-node', 'remove-node', [CompletionResultType]::ParameterValue, 'Remove a node and its edges')
            [CompletionResult]::new('bounds', 'bounds', [CompletionResultType]::ParameterValue, 'Print or set the plan''s bounds')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit one node as YAML in $VISUAL / $EDITOR')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Undo your latest change to the plan')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Take back your latest undo')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check plans or plan documents (for CI)')
            [CompletionResult]::new('freeze', 'freeze', [CompletionResultType]::ParameterValue, 'Check the plan and make it reviewable (read-only)')
            [CompletionResult]::new('unfreeze', 'unfreeze', [CompletionResultType]::ParameterValue, 'Make a reviewable plan editable again')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Bring every plan of the store to the current format now')
            [CompletionResult]::new('submit', 'submit', [CompletionResultType]::ParameterValue, 'Freeze and approve the plan: it becomes executable, forever')
            [CompletionResult]::new('clone', 'clone', [CompletionResultType]::ParameterValue, 'Copy a plan (or its first revisions) into a new editable plan')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two revisions of a plan, or two plan documents')
            [CompletionResult]::new('raw', 'raw', [CompletionResultType]::ParameterValue, 'Print the plan''s content as JSON (wire form)')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the plan''s history, one line per change')
            [CompletionResult]::new('ops', 'ops', [CompletionResultType]::ParameterValue, 'Print the plan''s op log')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the plan as a plan document (JSON or YAML)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Create a plan from a plan document')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Draw the plan as a Graphviz or Mermaid diagram')
            [CompletionResult]::new('templates', 'templates', [CompletionResultType]::ParameterValue, 'List the plan templates')
            [CompletionResult]::new('instantiate', 'instantiate', [CompletionResultType]::ParameterValue, 'Create a plan from a template')
            [CompletionResult]::new('orchestrate', 'orchestrate', [CompletionResultType]::ParameterValue, 'Turn a task decomposition into an orchestration plan')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain an issue code')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of plan documents')
            [CompletionResult]::new('tool', 'tool', [CompletionResultType]::ParameterValue, 'Run one model-facing tool call')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the model-facing tools over MCP (stdio)')
            [CompletionResult]::new('registry', 'registry', [CompletionResultType]::ParameterValue, 'List, show or add the tools calls may invoke')
            [CompletionResult]::new('repl', 'repl', [CompletionResultType]::ParameterValue, 'Interactive shell: every line is a planforge command')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'planforge;init' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;list' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;use' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;create' {
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'A short label')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;remove' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Also delete a reviewable or executable plan')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask (needed without a terminal)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;author' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The plan id [default: a fresh one]')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;status' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;show' {
            [CompletionResult]::new('--audience', '--audience', [CompletionResultType]::ParameterName, 'Who reads it')
            [CompletionResult]::new('--rev', '--rev', [CompletionResultType]::ParameterName, 'Show the plan as it was at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;outline' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;read' {
            [CompletionResult]::new('--phase', '--phase', [CompletionResultType]::ParameterName, 'Read this phase (`(unphased)` or "" for the nodes without one)')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'Read this node')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Print at most N bytes of prose (1024 to 1048576): nodes in full while they fit, then the ids of the others')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;add-node' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'The node kind')
            [CompletionResult]::new('--phase', '--phase', [CompletionResultType]::ParameterName, 'The phase (a label for reading; edges alone order execution)')
            [CompletionResult]::new('--def', '--def', [CompletionResultType]::ParameterName, 'The definition: JSON or YAML text, @FILE, or - for stdin. Field flags below are applied on top of it')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number, boolean, enum:A,B,…); repeatable')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'call: the tool to invoke (from the registry)')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node, @node.path, @node[last].path, @node[all], @node[2].path) or a plain string; repeatable')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'call, transform: an output field, PATH:TYPE (as --input); repeatable')
            [CompletionResult]::new('--authority', '--authority', [CompletionResultType]::ParameterName, 'call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read, create, update, delete); repeatable')
            [CompletionResult]::new('--replay-safe', '--replay-safe', [CompletionResultType]::ParameterName, 'call: whether repeating the call is safe (--replay-safe or --replay-safe=false)')
            [CompletionResult]::new('--on-indeterminate', '--on-indeterminate', [CompletionResultType]::ParameterName, 'call: what to do when it is unknown whether the call took effect')
            [CompletionResult]::new('--on-missing-value', '--on-missing-value', [CompletionResultType]::ParameterName, 'call: what to do when an argument''s value is missing at run time')
            [CompletionResult]::new('--declassify', '--declassify', [CompletionResultType]::ParameterName, 'call: an output field this call asserts is sanitised; repeatable')
            [CompletionResult]::new('--prompt', '--prompt', [CompletionResultType]::ParameterName, 'reason: a prompt part: text, or a reference (@node.path); repeatable, in order')
            [CompletionResult]::new('--output-schema', '--output-schema', [CompletionResultType]::ParameterName, 'reason: the JSON Schema object of its output')
            [CompletionResult]::new('--max-attempts', '--max-attempts', [CompletionResultType]::ParameterName, 'reason: how many attempts at a valid output (≥ 1)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'transform: the call whose artifact it reads (@node)')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order')
            [CompletionResult]::new('--emit', '--emit', [CompletionResultType]::ParameterName, 'transform: `rows`, or `value:FIELD`')
            [CompletionResult]::new('--evaluator', '--evaluator', [CompletionResultType]::ParameterName, 'branch, select: the predicate evaluator (built in: structured)')
            [CompletionResult]::new('--predicate', '--predicate', [CompletionResultType]::ParameterName, 'branch, select: the predicate (JSON or YAML)')
            [CompletionResult]::new('--case', '--case', [CompletionResultType]::ParameterName, 'select: a case label; repeatable, in order')
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Replace an existing node with this id, in place')
            [CompletionResult]::new('--scaffold', '--scaffold', [CompletionResultType]::ParameterName, 'Fill missing required strings with the placeholder `lorem ipsum` (freeze refuses it until replaced) and missing lists and objects with empty ones')
            [CompletionResult]::new('--diamond', '--diamond', [CompletionResultType]::ParameterName, 'join: mark it explicitly as a diamond join ({"kind": "diamond"})')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;set-config' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'The node''s kind, as a check [default: the node''s current kind]')
            [CompletionResult]::new('--def', '--def', [CompletionResultType]::ParameterName, 'The definition: JSON or YAML text, @FILE, or - for stdin. Field flags below are applied on top of it')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number, boolean, enum:A,B,…); repeatable')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'call: the tool to invoke (from the registry)')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node, @node.path, @node[last].path, @node[all], @node[2].path) or a plain string; repeatable')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'call, transform: an output field, PATH:TYPE (as --input); repeatable')
            [CompletionResult]::new('--authority', '--authority', [CompletionResultType]::ParameterName, 'call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read, create, update, delete); repeatable')
            [CompletionResult]::new('--replay-safe', '--replay-safe', [CompletionResultType]::ParameterName, 'call: whether repeating the call is safe (--replay-safe or --replay-safe=false)')
            [CompletionResult]::new('--on-indeterminate', '--on-indeterminate', [CompletionResultType]::ParameterName, 'call: what to do when it is unknown whether the call took effect')
            [CompletionResult]::new('--on-missing-value', '--on-missing-value', [CompletionResultType]::ParameterName, 'call: what to do when an argument''s value is missing at run time')
            [CompletionResult]::new('--declassify', '--declassify', [CompletionResultType]::ParameterName, 'call: an output field this call asserts is sanitised; repeatable')
            [CompletionResult]::new('--prompt', '--prompt', [CompletionResultType]::ParameterName, 'reason: a prompt part: text, or a reference (@node.path); repeatable, in order')
            [CompletionResult]::new('--output-schema', '--output-schema', [CompletionResultType]::ParameterName, 'reason: the JSON Schema object of its output')
            [CompletionResult]::new('--max-attempts', '--max-attempts', [CompletionResultType]::ParameterName, 'reason: how many attempts at a valid output (≥ 1)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'transform: the call whose artifact it reads (@node)')
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order')
            [CompletionResult]::new('--emit', '--emit', [CompletionResultType]::ParameterName, 'transform: `rows`, or `value:FIELD`')
            [CompletionResult]::new('--evaluator', '--evaluator', [CompletionResultType]::ParameterName, 'branch, select: the predicate evaluator (built in: structured)')
            [CompletionResult]::new('--predicate', '--predicate', [CompletionResultType]::ParameterName, 'branch, select: the predicate (JSON or YAML)')
            [CompletionResult]::new('--case', '--case', [CompletionResultType]::ParameterName, 'select: a case label; repeatable, in order')
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--diamond', '--diamond', [CompletionResultType]::ParameterName, 'join: mark it explicitly as a diamond join ({"kind": "diamond"})')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;set' {
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--add', '--add', [CompletionResultType]::ParameterName, 'Add PATH as a new field even when it is one letter off a field the node has')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;phase' {
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'Make the node unphased')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;connect' {
            [CompletionResult]::new('--handle', '--handle', [CompletionResultType]::ParameterName, 'When the edge fires [default: always]')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The edge id [default: `<from>__<to>`, made unique]')
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;disconnect' {
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;remove-node' {
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask (needed without a terminal)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;bounds' {
            [CompletionResult]::new('--max-nodes', '--max-nodes', [CompletionResultType]::ParameterName, 'Most nodes the plan may hold')
            [CompletionResult]::new('--max-edges', '--max-edges', [CompletionResultType]::ParameterName, 'Most edges the plan may hold')
            [CompletionResult]::new('--max-steps', '--max-steps', [CompletionResultType]::ParameterName, 'Most node executions in one run')
            [CompletionResult]::new('--max-concurrent-frames', '--max-concurrent-frames', [CompletionResultType]::ParameterName, 'Most executions at the same time')
            [CompletionResult]::new('--max-encoded-bytes', '--max-encoded-bytes', [CompletionResultType]::ParameterName, 'Most bytes of the plan''s canonical encoding')
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;edit' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start from this file (one an earlier edit kept) instead of the node as it is; the header is renewed for the current revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;undo' {
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;redo' {
            [CompletionResult]::new('--expect-rev', '--expect-rev', [CompletionResultType]::ParameterName, 'Refuse (revision_moved) unless the plan is at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;validate' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'The registry to check against [default: the store''s]')
            [CompletionResult]::new('--max-findings', '--max-findings', [CompletionResultType]::ParameterName, 'List at most N findings per document or plan; the rest are counted (0: list them all)')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Draw at most N bytes of findings in text mode (1024 to 1048576); the findings not drawn are counted. JSON, SARIF and github list them all')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The file name outputs give standard input (-)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report, in any --format, to FILE (replaced atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report, in any --format, to FILE (replaced atomically) instead of stdout')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Which findings fail the run (exit 1): blocking ones, advisories too, or none (never: exit 0 even on input errors)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every plan in the store')
            [CompletionResult]::new('--exit-zero', '--exit-zero', [CompletionResultType]::ParameterName, 'Exit 0 whatever was found: the same as --fail-on never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;freeze' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;unfreeze' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;upgrade' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;submit' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Who approves [default: the actor]')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Approve without asking')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Approve without asking')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;clone' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Clone the plan as it was at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;diff' {
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Compare two plan documents instead (JSON or YAML; no store needed)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when there are differences')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;raw' {
            [CompletionResult]::new('--rev', '--rev', [CompletionResultType]::ParameterName, 'At this revision [default: the current one]')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Only the N newest changes')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Only the N newest changes')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Oldest first')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;ops' {
            [CompletionResult]::new('--since-lamport', '--since-lamport', [CompletionResultType]::ParameterName, 'Only ops with a lamport greater than N')
            [CompletionResult]::new('--through', '--through', [CompletionResultType]::ParameterName, 'Only the first REV ops (the ops of revision REV)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;export' {
            [CompletionResult]::new('--rev', '--rev', [CompletionResultType]::ParameterName, 'Export the plan as it was at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--no-digest', '--no-digest', [CompletionResultType]::ParameterName, 'Leave the digest out (a document to edit by hand)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;import' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The new plan''s id [default: the document''s planId, else a fresh one]')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'The document''s syntax [default: by extension, else sniffed]')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;graph' {
            [CompletionResult]::new('--rev', '--rev', [CompletionResultType]::ParameterName, 'Draw the plan as it was at this revision')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;templates' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;instantiate' {
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'A param value, NAME=VALUE; repeatable')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The new plan''s id [default: a fresh one]')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;orchestrate' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The new plan''s id [default: a fresh one]')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--print', '--print', [CompletionResultType]::ParameterName, 'Print the plan without storing it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;explain' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Explain every code')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;schema' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;tool' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;mcp' {
            [CompletionResult]::new('--tier', '--tier', [CompletionResultType]::ParameterName, 'Which tools to offer')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every tool that changes plans (read-only tools still work)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;registry' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tools')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one tool')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a tool to registry.yaml')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'planforge;registry;list' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'planforge;registry;show' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'planforge;registry;add' {
            [CompletionResult]::new('--returns', '--returns', [CompletionResultType]::ParameterName, 'What it returns: text, bytes, media, or artifact:CLASS')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'One line shown in messages')
            [CompletionResult]::new('--required-arg', '--required-arg', [CompletionResultType]::ParameterName, 'An arg every call must pass; repeatable')
            [CompletionResult]::new('--tools-arg', '--tools-arg', [CompletionResultType]::ParameterName, 'The arg listing the tools a spawned subagent may use')
            [CompletionResult]::new('--writes', '--writes', [CompletionResultType]::ParameterName, 'An arg whose value names the artifact the call writes; repeatable')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--spawns-agent', '--spawns-agent', [CompletionResultType]::ParameterName, 'It starts a subagent')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'planforge;registry;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tools')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one tool')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a tool to registry.yaml')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'planforge;registry;help;list' {
            break
        }
        'planforge;registry;help;show' {
            break
        }
        'planforge;registry;help;add' {
            break
        }
        'planforge;registry;help;help' {
            break
        }
        'planforge;repl' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'In a script, run every line even after one fails; exit with the first failure''s code')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;completions' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan to work on [env: PLANFORGE_PLAN] [default: the store''s current plan]')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting [env: PLANFORGE_ACTOR, else $USER]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (commands that print documents or diagrams add yaml, sarif, github, dot or mermaid)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR (as git -C): the store is looked for from there, and relative paths are read from there')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no prose on success (errors still go to stderr, and a --format json document is always printed); the exit code says how it went')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page long output (on a terminal it goes through $PAGER, else less -FRX)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'planforge;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a plan store (default ./plans) with its registry and git files')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the plans in the store')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a plan the store''s current plan')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an empty editable plan')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Delete a plan from the store')
            [CompletionResult]::new('author', 'author', [CompletionResultType]::ParameterValue, 'Start a plan from an owner''s request, kept verbatim')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show a plan''s state, revision, digest and issue counts')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Render the whole plan as prose')
            [CompletionResult]::new('outline', 'outline', [CompletionResultType]::ParameterValue, 'One flat outline of the plan: phases, node ids, tools, issue counts')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read one slice of the plan by a key the outline printed')
            [CompletionResult]::new('add-node', 'add-node', [CompletionResultType]::ParameterValue, 'Add a node')
            [CompletionResult]::new('set-config', 'set-config', [CompletionResultType]::ParameterValue, 'Replace a node''s whole definition')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set one field of a node''s definition')
            [CompletionResult]::new('phase', 'phase', [CompletionResultType]::ParameterValue, 'Set or clear a node''s phase')
            [CompletionResult]::new('connect', 'connect', [CompletionResultType]::ParameterValue, 'Connect two nodes with an edge')
            [CompletionResult]::new('disconnect', 'disconnect', [CompletionResultType]::ParameterValue, 'Remove an edge')
            [CompletionResult]::new('remove-node', 'remove-node', [CompletionResultType]::ParameterValue, 'Remove a node and its edges')
            [CompletionResult]::new('bounds', 'bounds', [CompletionResultType]::ParameterValue, 'Print or set the plan''s bounds')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit one node as YAML in $VISUAL / $EDITOR')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Undo your latest change to the plan')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Take back your latest undo')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check plans or plan documents (for CI)')
            [CompletionResult]::new('freeze', 'freeze', [CompletionResultType]::ParameterValue, 'Check the plan and make it reviewable (read-only)')
            [CompletionResult]::new('unfreeze', 'unfreeze', [CompletionResultType]::ParameterValue, 'Make a reviewable plan editable again')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Bring every plan of the store to the current format now')
            [CompletionResult]::new('submit', 'submit', [CompletionResultType]::ParameterValue, 'Freeze and approve the plan: it becomes executable, forever')
            [CompletionResult]::new('clone', 'clone', [CompletionResultType]::ParameterValue, 'Copy a plan (or its first revisions) into a new editable plan')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two revisions of a plan, or two plan documents')
            [CompletionResult]::new('raw', 'raw', [CompletionResultType]::ParameterValue, 'Print the plan''s content as JSON (wire form)')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the plan''s history, one line per change')
            [CompletionResult]::new('ops', 'ops', [CompletionResultType]::ParameterValue, 'Print the plan''s op log')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the plan as a plan document (JSON or YAML)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Create a plan from a plan document')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Draw the plan as a Graphviz or Mermaid diagram')
            [CompletionResult]::new('templates', 'templates', [CompletionResultType]::ParameterValue, 'List the plan templates')
            [CompletionResult]::new('instantiate', 'instantiate', [CompletionResultType]::ParameterValue, 'Create a plan from a template')
            [CompletionResult]::new('orchestrate', 'orchestrate', [CompletionResultType]::ParameterValue, 'Turn a task decomposition into an orchestration plan')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain an issue code')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of plan documents')
            [CompletionResult]::new('tool', 'tool', [CompletionResultType]::ParameterValue, 'Run one model-facing tool call')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the model-facing tools over MCP (stdio)')
            [CompletionResult]::new('registry', 'registry', [CompletionResultType]::ParameterValue, 'List, show or add the tools calls may invoke')
            [CompletionResult]::new('repl', 'repl', [CompletionResultType]::ParameterValue, 'Interactive shell: every line is a planforge command')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'planforge;help;init' {
            break
        }
        'planforge;help;list' {
            break
        }
        'planforge;help;use' {
            break
        }
        'planforge;help;create' {
            break
        }
        'planforge;help;remove' {
            break
        }
        'planforge;help;author' {
            break
        }
        'planforge;help;status' {
            break
        }
        'planforge;help;show' {
            break
        }
        'planforge;help;outline' {
            break
        }
        'planforge;help;read' {
            break
        }
        'planforge;help;add-node' {
            break
        }
        'planforge;help;set-config' {
            break
        }
        'planforge;help;set' {
            break
        }
        'planforge;help;phase' {
            break
        }
        'planforge;help;connect' {
            break
        }
        'planforge;help;disconnect' {
            break
        }
        'planforge;help;remove-node' {
            break
        }
        'planforge;help;bounds' {
            break
        }
        'planforge;help;edit' {
            break
        }
        'planforge;help;undo' {
            break
        }
        'planforge;help;redo' {
            break
        }
        'planforge;help;validate' {
            break
        }
        'planforge;help;freeze' {
            break
        }
        'planforge;help;unfreeze' {
            break
        }
        'planforge;help;upgrade' {
            break
        }
        'planforge;help;submit' {
            break
        }
        'planforge;help;clone' {
            break
        }
        'planforge;help;diff' {
            break
        }
        'planforge;help;raw' {
            break
        }
        'planforge;help;log' {
            break
        }
        'planforge;help;ops' {
            break
        }
        'planforge;help;export' {
            break
        }
        'planforge;help;import' {
            break
        }
        'planforge;help;graph' {
            break
        }
        'planforge;help;templates' {
            break
        }
        'planforge;help;instantiate' {
            break
        }
        'planforge;help;orchestrate' {
            break
        }
        'planforge;help;explain' {
            break
        }
        'planforge;help;schema' {
            break
        }
        'planforge;help;tool' {
            break
        }
        'planforge;help;mcp' {
            break
        }
        'planforge;help;registry' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tools')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one tool')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a tool to registry.yaml')
            break
        }
        'planforge;help;registry;list' {
            break
        }
        'planforge;help;registry;show' {
            break
        }
        'planforge;help;registry;add' {
            break
        }
        'planforge;help;repl' {
            break
        }
        'planforge;help;completions' {
            break
        }
        'planforge;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
