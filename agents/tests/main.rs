//! The integration tests of bones-agents, one binary (each former test file a
//! module; run one with `cargo test -p bones-agents --test main -- pimc::`).

mod agents_arena;
mod batched;
mod bridge;
mod exec;
mod infoset;
mod pimc;
mod pimc_common;
mod pimc_doubles;
mod posterior;
mod resample;
mod review;
mod search;
mod shards;
mod solver;
mod spec;
mod table;
mod timing;
mod uniform;
mod view_observation;
