//! Printing to stdout without panicking on a closed pipe (`jigsaw … | head`).

use std::io::Write;

/// Prints `text` and a newline on stdout.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Prints `value` as pretty JSON on stdout.
pub fn emit_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    emit(&serde_json::to_string_pretty(value)?)
}
