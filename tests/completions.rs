//! The committed completion scripts under completions/ are what
//! `planforge completions SHELL` prints today, and the bash one loads and,
//! in a real bash, completes commands and the store's phases, node ids and
//! plan ids by asking the binary.
//!
//! After changing the command line, refresh them with
//! `PLANFORGE_UPDATE_COMPLETIONS=1 cargo test --test completions`.

use std::path::{Path, PathBuf};
use std::process::Command;

const SHELLS: [(&str, &str); 5] = [
    ("bash", "planforge.bash"),
    ("zsh", "_planforge"),
    ("fish", "planforge.fish"),
    ("elvish", "planforge.elv"),
    ("powershell", "_planforge.ps1"),
];

fn committed(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("completions")
        .join(file)
}

fn generated(shell: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_planforge"))
        .args(["completions", shell])
        .env("NO_COLOR", "1")
        .output()
        .expect("planforge runs");
    assert!(
        out.status.success(),
        "completions {shell} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn committed_scripts_are_current() {
    let update = std::env::var_os("PLANFORGE_UPDATE_COMPLETIONS").is_some();
    let mut stale = Vec::new();
    for (shell, file) in SHELLS {
        let fresh = generated(shell);
        assert!(
            fresh.contains("planforge") && fresh.contains("COMPLETE"),
            "the {shell} script does not ask planforge"
        );
        let path = committed(file);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(old) if old == fresh => {}
            _ => stale.push(format!("completions/{file}")),
        }
    }
    assert!(
        stale.is_empty(),
        "stale completion scripts: {}; regenerate them with `PLANFORGE_UPDATE_COMPLETIONS=1 cargo test --test completions` and commit them",
        stale.join(", ")
    );
}

#[test]
fn unknown_shells_are_usage_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_planforge"))
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("powershell"));
}

#[test]
fn the_bash_script_sources_cleanly_and_registers_planforge() {
    let script = committed("planforge.bash");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -e; source '{}'; complete -p planforge",
            script.display()
        ))
        .output()
        .expect("bash is installed");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "sourcing failed: {stderr}");
    assert!(stderr.is_empty(), "sourcing printed: {stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("planforge"));
}

/// What bash completes for `line` (the cursor at its end) with the
/// committed script, in `dir`, with the binary under test on PATH.
/// As bash's programmable completion splits the line: on blanks, and `=`
/// as a word of its own (it is in COMP_WORDBREAKS), so `--plan=ID` is the
/// three words `--plan`, `=`, `ID`.
fn bash_complete(dir: &Path, line: &str) -> Vec<String> {
    let script = committed("planforge.bash");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_planforge")).parent().unwrap();
    let out = Command::new("bash")
        .current_dir(dir)
        .env("PATH", format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default()))
        .env("NO_COLOR", "1")
        .env_remove("PLANFORGE_STORE")
        .env_remove("PLANFORGE_PLAN")
        .arg("-c")
        .arg(format!(
            "source '{}'; COMP_LINE={line:?}; read -ra COMP_WORDS <<< \"$COMP_LINE\"; W=(); for w in \"${{COMP_WORDS[@]}}\"; do while [[ $w == *=* ]]; do W+=(\"${{w%%=*}}\" '='); w=\"${{w#*=}}\"; done; W+=(\"$w\"); done; COMP_WORDS=(\"${{W[@]}}\"); case \"$COMP_LINE\" in *' ') COMP_WORDS+=('');; esac; COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMP_POINT=${{#COMP_LINE}}; _clap_complete_planforge planforge \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        ))
        .output()
        .expect("bash is installed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_bash_script_completes_a_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(bash_complete(dir.path(), "planforge add-n"), ["add-node"]);
}

#[test]
fn bash_completes_the_stores_phases_node_ids_and_plan_ids_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_planforge"))
            .current_dir(dir.path())
            .env("PLANFORGE_ACTOR", "tester")
            .env_remove("PLANFORGE_STORE")
            .env_remove("PLANFORGE_PLAN")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["init"]);
    run(&["create", "plan-other"]);
    run(&["create", "plan-main"]);
    run(&["add-node", "start", "--kind", "entry", "--phase", "intake"]);
    run(&["add-node", "fetch", "--kind", "join", "--phase", "gather"]);
    run(&["add-node", "finish", "--kind", "join", "--phase", "publish"]);
    assert_eq!(
        bash_complete(dir.path(), "planforge add-node x --kind call --phase "),
        ["intake", "gather", "publish"]
    );
    assert_eq!(
        bash_complete(dir.path(), "planforge phase fetch g"),
        ["gather"]
    );
    assert_eq!(
        bash_complete(dir.path(), "planforge connect start f"),
        ["fetch", "finish"]
    );
    assert_eq!(
        bash_complete(dir.path(), "planforge use plan-o"),
        ["plan-other"]
    );
    assert_eq!(
        bash_complete(dir.path(), "planforge -p plan-m"),
        ["plan-main"]
    );
}

#[test]
fn completion_reads_the_plan_store_and_folder_the_line_names() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_planforge");
    let run = |cwd: &Path, args: &[&str], env: &[(&str, &str)]| {
        let out = Command::new(bin)
            .current_dir(cwd)
            .env("PLANFORGE_ACTOR", "tester")
            .env_remove("PLANFORGE_STORE")
            .env_remove("PLANFORGE_PLAN")
            .envs(env.iter().copied())
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let d = dir.path().join("demo");
    std::fs::create_dir(&d).unwrap();
    for args in [
        "init",
        "create plan-b",
        "add-node zed --kind entry --input t:string",
        "create plan-a",
        "add-node start --kind entry --input t:string",
    ] {
        run(&d, &args.split(' ').collect::<Vec<_>>(), &[]);
    }
    let ids = |cwd: &Path, line: &str| -> Vec<String> {
        let mut args = vec!["--", "planforge"];
        args.extend(line.split(' '));
        args.push("");
        run(cwd, &args, &[("COMPLETE", "fish")])
            .lines()
            .filter(|l| !l.starts_with('-'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(ids(&d, "connect"), ["start"]);
    assert_eq!(ids(&d, "-p plan-b connect"), ["zed"]);
    assert_eq!(ids(&d, "--plan=plan-b connect"), ["zed"]);
    // bash splits `--plan=plan-b` and `--store=DIR` at `=`.
    let bash_complete = |cwd: &Path, line: &str| -> Vec<String> {
        bash_complete(cwd, line)
            .into_iter()
            .filter(|l| !l.starts_with('-'))
            .collect()
    };
    assert_eq!(
        bash_complete(&d, "planforge --plan=plan-b connect "),
        ["zed"]
    );
    assert_eq!(
        bash_complete(&d, "planforge connect --plan=plan-b z"),
        ["zed"]
    );
    let line = format!(
        "planforge --store={} -p plan-b connect ",
        d.join("plans").display()
    );
    assert_eq!(bash_complete(dir.path(), &line), ["zed"]);
    let line = format!(
        "planforge --store={} --plan=plan-a connect ",
        d.join("plans").display()
    );
    assert_eq!(bash_complete(dir.path(), &line), ["start"]);
    assert_eq!(ids(dir.path(), "-C demo connect"), ["start"]);
    let store = d.join("plans");
    let line = format!("--store {} -p plan-b connect", store.display());
    assert_eq!(ids(dir.path(), &line), ["zed"]);
}

/// What `planforge` answers for `line` (its last word being completed)
/// when asked as `shell`'s registration script asks: zsh passes the words
/// and the index of the current one, fish the words before the cursor and
/// the current token.
fn protocol_complete(dir: &Path, shell: &str, line: &str) -> Vec<String> {
    let mut words: Vec<&str> = line.split(' ').collect();
    if line.ends_with(' ') {
        words.pop();
        words.push("");
    }
    let mut c = Command::new(env!("CARGO_BIN_EXE_planforge"));
    c.current_dir(dir)
        .env("COMPLETE", shell)
        .env("NO_COLOR", "1")
        .env_remove("PLANFORGE_STORE")
        .env_remove("PLANFORGE_PLAN")
        .arg("--")
        .args(&words);
    if shell == "zsh" {
        c.env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
            .env("_CLAP_IFS", "\n");
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('-'))
        .map(|l| {
            // zsh: value:description; fish: value\tdescription.
            let l = l.split('\t').next().unwrap();
            match shell {
                "zsh" => l.split(':').next().unwrap().to_string(),
                _ => l.to_string(),
            }
        })
        .collect()
}

#[test]
fn positionals_complete_node_ids_codes_tools_and_revisions_in_bash_zsh_and_fish() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_planforge"))
            .current_dir(dir.path())
            .env("PLANFORGE_ACTOR", "tester")
            .env_remove("PLANFORGE_STORE")
            .env_remove("PLANFORGE_PLAN")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["init"]);
    run(&["create", "plan-main"]);
    run(&["add-node", "start", "--kind", "entry", "--phase", "intake"]);
    run(&["add-node", "fetch", "--kind", "join", "--phase", "gather"]);
    run(&["add-node", "finish", "--kind", "join"]);
    let cases: &[(&str, &[&str])] = &[
        ("planforge set f", &["fetch", "finish"]),
        ("planforge set-config st", &["start"]),
        ("planforge explain tainted_c", &["tainted_call_arg"]),
        ("planforge registry show spawn_s", &["spawn_subagent"]),
        ("planforge diff 2", &["2"]),
        ("planforge diff c", &["current"]),
        (
            "planforge add-node x --kind call --phase ",
            &["intake", "gather"],
        ),
    ];
    for (line, want) in cases {
        assert_eq!(bash_complete(dir.path(), line), *want, "bash: {line}");
        for shell in ["zsh", "fish"] {
            assert_eq!(
                protocol_complete(dir.path(), shell, line),
                *want,
                "{shell}: {line}"
            );
        }
    }
    // Every revision `log` shows, newest first after `current`.
    let revs: Vec<String> = bash_complete(dir.path(), "planforge diff ")
        .into_iter()
        .filter(|c| !c.starts_with('-'))
        .collect();
    assert_eq!(revs, ["current", "3", "2", "1", "0"]);
}
