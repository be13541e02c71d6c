//! Runs the `bones` binary of this build: the tests' one way to call it.

use std::path::Path;
use std::process::{Command, Stdio};

/// This source tree's shipped models. The tests run in cli/, where `./models`
/// is not, so every `bones` they start is told where they are (`BONES_MODELS`,
/// or `--models` for the ones started through an agent spec).
pub const MODELS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../models");

/// `bones ARGS` with no standard input: its exit status, standard output and
/// standard error (the shipped models: [`MODELS`]).
pub fn bones(args: &[&str]) -> (i32, String, String) {
    bones_in(args, Path::new("."), &[("BONES_MODELS", Some(MODELS))])
}

/// `bones ARGS` in the folder `cwd` with the environment variables `vars` set
/// (`None`: removed), no standard input: its exit status, standard output and
/// standard error.
pub fn bones_in(args: &[&str], cwd: &Path, vars: &[(&str, Option<&str>)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bones"));
    cmd.args(args).current_dir(cwd).stdin(Stdio::null());
    for (name, value) in vars {
        match value {
            Some(v) => cmd.env(name, v),
            None => cmd.env_remove(name),
        };
    }
    let out = cmd.output().expect("the bones binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().expect("an exit status, not a signal"), text(&out.stdout), text(&out.stderr))
}
