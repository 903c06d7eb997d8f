//! Progress bars on a terminal only: scripts and CI logs stay clean.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps on stderr, hidden with `--quiet`, `--json` or when stderr is not a
/// terminal.
pub fn progress_bar(len: u64, message: &'static str, hidden: bool) -> ProgressBar {
    if hidden || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len).with_message(message);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>10} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta}",
        )
        .expect("static template is valid")
        .progress_chars("=> "),
    );
    bar
}
