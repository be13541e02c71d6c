//! `bones agents`: the agent spec grammar, every agent with its options, their
//! values and defaults, printed from the one table the parser reads
//! (`bones_agents::spec::grammar`).

use anyhow::Result;
use bones_agents::spec::grammar;

#[derive(clap::Args, Debug)]
#[command(after_help = "Every command that takes an agent (`bones eval`, `bones benchmark`, `bones exploit`, \
     `bones play`, `bones serve --agent`, `bones web`) and the Python package read these specs; docs/interfaces.md \
     (Agent specs) has the details.")]
pub struct AgentsArgs {}

pub fn run(_: AgentsArgs) -> Result<i32> {
    print!("{}", grammar::describe());
    Ok(0)
}
