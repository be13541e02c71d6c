//! `bones agents`: the agent spec grammar, every agent with its options, their
//! values and defaults, printed from the one table the parser reads
//! (`bones_agents::spec::grammar`).

use super::args::usage;
use anyhow::Result;
use bones_agents::spec::grammar;
use bones_policy::agent::ModelsSearch;

#[derive(clap::Args, Debug)]
#[command(after_help = "Every command that takes an agent (`bones eval`, `bones benchmark`, `bones exploit`, \
     `bones play`, `bones serve --agent`, `bones web`) and the Python package read these specs; docs/interfaces/cli.md \
     (Agent specs) has the details. Last, two lines: where the shipped models were looked for (`bones --models DIR`, \
     else $BONES_MODELS, else `models` next to the program, else ./models) and what was found.")]
pub struct AgentsArgs {}

/// Prints the grammar, then where the shipped models were looked for and
/// found (one line each); a `--models`/`BONES_MODELS` folder that does not
/// exist is the usage error after them.
pub fn run(_: AgentsArgs, models: &ModelsSearch) -> Result<i32> {
    print!("{}", grammar::describe());
    println!();
    println!("{}", models.looked_line());
    match &models.error {
        Some(e) => Err(usage(e).into()),
        None => {
            println!("{}", models.found_line());
            Ok(0)
        }
    }
}
