//! `bones replay FILE|-`: one annotated JSON line per record; exit 1 if any failed.

use anyhow::{Context, Result};
use std::io::{BufRead, BufReader, Write};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A JSON-lines file of records, or `-` for standard input.
    pub file: String,
}

pub fn run(args: ReplayArgs) -> Result<i32> {
    let input: Box<dyn BufRead> = if args.file == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(&args.file).with_context(|| format!("cannot open `{}`", args.file))?;
        Box::new(BufReader::new(f))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read line {} of `{}`", i + 1, args.file))?;
        if line.trim().is_empty() {
            continue;
        }
        let (value, ok) = bones_env::replay::replay_line(&line, i + 1);
        failed += usize::from(!ok);
        serde_json::to_writer(&mut out, &value)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    if failed > 0 {
        eprintln!("bones replay: {failed} record(s) failed");
        return Ok(1);
    }
    Ok(0)
}
