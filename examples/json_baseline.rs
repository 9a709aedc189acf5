//! The benchmark's floor: read a file and parse it into a `serde_json::Value`
//! (what any JSON tool must at least do). `bench/run.sh` times it beside
//! `jq -c .` and planforge. It uses planforge's allocator, so the floor is
//! not flattered by a slower one.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: json_baseline FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("could not read {path}: {e}");
            std::process::exit(2);
        }
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) => {
            // Keep the value alive to the end, as a tool that uses it would.
            std::hint::black_box(&v);
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
