//! `bones`: the command-line front end. It parses, dispatches to the library
//! crates, and prints one error.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(if e.downcast_ref::<cli::Usage>().is_some() { 2 } else { 1 });
        }
    }
}
