//! The committed completion scripts under completions/ are what
//! `planforge completions SHELL` prints today, and the bash one loads.
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
            fresh.contains("add-node") && fresh.contains("completions"),
            "the {shell} script misses commands"
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

#[test]
fn the_bash_script_completes_a_subcommand() {
    // Drive the completion function as bash would for `planforge add-n<Tab>`.
    let script = committed("planforge.bash");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source '{}'; COMP_WORDS=(planforge add-n); COMP_CWORD=1; COMP_LINE='planforge add-n'; COMP_POINT=${{#COMP_LINE}}; _planforge planforge add-n planforge; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        ))
        .output()
        .expect("bash is installed");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "add-node");
}
