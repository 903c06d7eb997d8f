//! The `jigsaw` binary: all the work is in the library; this only hands over the process.
fn main() -> std::process::ExitCode {
    jigsaw::cli::main()
}
