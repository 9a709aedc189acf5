//! `planforge lsp` driven by a real LSP client: `tests/lsp_client.py`, on
//! pygls and lsprotocol (pinned in `.venv`, like the MCP SDK; `.ci/run` and
//! the README's set-up install them). The test fails, never skips, when the
//! Python or the packages are missing, saying how to get them.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

/// The versions the client is pinned to (also in `.ci/run` and the README).
const PYGLS: &str = "2.1.1";
const LSPROTOCOL: &str = "2025.0.0";

fn python_setup() -> String {
    format!(
        "tests/lsp_client.py needs a Python with pygls {PYGLS} and lsprotocol {LSPROTOCOL}. \
         From the repository root: `python3 -m venv .venv && .venv/bin/pip install pygls=={PYGLS} lsprotocol=={LSPROTOCOL}` \
         (on Debian or Ubuntu, `apt-get install python3-venv` first if `python3 -m venv` fails), \
         or set PLANFORGE_MCP_PYTHON to a Python that has them; .ci/run does the former"
    )
}

/// `PLANFORGE_MCP_PYTHON`, else the repository's `.venv/bin/python`, with
/// the pinned packages.
fn client_python() -> String {
    let python = match std::env::var("PLANFORGE_MCP_PYTHON") {
        Ok(p) if !p.is_empty() => p,
        _ => format!("{}/.venv/bin/python", env!("CARGO_MANIFEST_DIR")),
    };
    let probe = Command::new(&python)
        .args([
            "-c",
            "import importlib.metadata as m, pygls, lsprotocol; print(m.version('pygls'), m.version('lsprotocol'))",
        ])
        .output();
    let versions = match probe {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        Ok(out) => panic!(
            "{python} cannot import pygls and lsprotocol ({}).\n{}",
            String::from_utf8_lossy(&out.stderr).trim(),
            python_setup()
        ),
        Err(e) => panic!("{python} does not run ({e}).\n{}", python_setup()),
    };
    assert_eq!(
        versions,
        format!("{PYGLS} {LSPROTOCOL}"),
        "{python} has pygls and lsprotocol {versions}, not the pinned ones.\n{}",
        python_setup()
    );
    python
}

fn wait_with_timeout(child: &mut std::process::Child, limit: Duration) -> Option<i32> {
    let start = std::time::Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code();
        }
        if start.elapsed() > limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_real_lsp_client_passes() {
    let python = client_python();
    let script = format!("{}/tests/lsp_client.py", env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(&python);
    cmd.arg(&script)
        .arg(common::bin())
        .env("NO_COLOR", "1")
        .env_remove("PLANFORGE_ACTOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for v in common::SCRUBBED {
        cmd.env_remove(v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut s).unwrap();
        s
    });
    let status = wait_with_timeout(&mut child, Duration::from_secs(300));
    let _ = child.kill();
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    assert_eq!(
        status,
        Some(0),
        "{python} {script} failed:\n{out}\n--- stderr\n{err}"
    );
    assert!(out.trim_end().ends_with("all passed"), "{out}");
}

#[test]
fn a_debounce_out_of_range_is_refused_naming_the_flag_and_the_range() {
    for bad in ["-1", "10001", "soon"] {
        let out = Command::new(common::bin())
            .args(["lsp", "--debounce-ms", bad])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--debounce-ms"), "{bad}: {err}");
        assert!(err.contains("from 0 to 10000"), "{bad}: {err}");
        assert!(!err.contains("unexpected argument"), "{bad}: {err}");
    }
}

#[test]
fn a_missing_registry_is_refused_by_the_server_as_by_validate() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("plan.json");
    std::fs::write(&doc, r#"{"formatVersion": 1, "nodes": []}"#).unwrap();
    let run = |args: &[&str]| {
        Command::new(common::bin())
            .args(args)
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let served = run(&["lsp", "--registry", "missing.yaml"]);
    let validated = run(&["validate", "--registry", "missing.yaml", "plan.json"]);
    for out in [&served, &validated] {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("could not read the registry missing.yaml"),
            "{err}"
        );
        assert!(err.contains("invalid_input"), "{err}");
    }
}
