fn main() -> std::process::ExitCode {
    planforge::cli::main()
}
