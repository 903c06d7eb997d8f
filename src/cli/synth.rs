//! `jigsaw synth` (not built yet: see the open issue).

use super::GlobalArgs;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args, _global: GlobalArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`jigsaw synth` is not built yet")
}
