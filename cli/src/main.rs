//! `bones`: the command-line front end. It parses, dispatches to the library
//! crates, and prints one error.

use bones_cli::commands;
use clap::Parser;

fn main() {
    let args = commands::Cli::parse();
    match commands::run(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(if e.downcast_ref::<commands::Usage>().is_some() { 2 } else { 1 });
        }
    }
}
