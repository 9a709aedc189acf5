// Reading a plan allocates many small strings and maps; mimalloc makes the
// whole fold-and-check path markedly faster than the system allocator (see
// docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    planforge::cli::main()
}
