//! Runs the `bones` binary of this build: the tests' one way to call it.

use std::process::{Command, Stdio};

/// `bones ARGS` with no standard input: its exit status, standard output and standard error.
pub fn bones(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bones"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the bones binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().expect("an exit status, not a signal"), text(&out.stdout), text(&out.stderr))
}
