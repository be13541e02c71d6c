//! `bones`: the command-line front end. It parses, dispatches to the library
//! crates, and prints one error.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    bones_train::policy_agent::register();
    match cli::run(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1);
        }
    }
}
