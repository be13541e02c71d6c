//! `bones serve`: the JSON-lines bot protocol on stdin/stdout (one reply line per
//! request line; bad requests get error replies and the server keeps serving).

use super::args::usage;
use anyhow::Result;
use bones_agents::AgentSpec;
use bones_policy::protocol::{ModelSource, Server};
use std::io::{BufRead, Write};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The policy: `default` (models/texas42 for Texas 42 records, models/doubles for
    /// Doubles records) or a model, run or checkpoint folder.
    #[arg(long, default_value = "default")]
    pub model: String,
    /// Serve any agent spec instead of a model (`heuristic`, `pimc:worlds=16`,
    /// `search`, `model:PATH`, ...; `bones agents` lists them): replies carry the action only.
    #[arg(long, conflicts_with_all = ["model", "sample"])]
    pub agent: Option<String>,
    /// Sample the action from the policy instead of taking the most probable one (needs --seed).
    #[arg(long, requires = "seed")]
    pub sample: bool,
    /// Seed of the random stream (with --sample or --agent): the same requests in the same order get
    /// the same replies.
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn run(args: ServeArgs) -> Result<i32> {
    if args.seed.is_some() && !args.sample && args.agent.is_none() {
        return Err(usage("--seed seeds the stream of --sample or --agent; give one of them").into());
    }
    let mut server = match &args.agent {
        Some(spec) => {
            Server::with_agent(AgentSpec::parse(spec).map_err(|e| usage(format!("--agent: {e}")))?, args.seed)
        }
        None => Server::new(ModelSource::parse(&args.model), args.seed),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    while let Some(read) = read_line(&mut input, &mut buf, MAX_LINE)? {
        let reply = match read {
            Line::Whole => match std::str::from_utf8(&buf) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => server.handle_line(line),
                Err(e) => serde_json::json!({"id": null, "error": format!("the request line is not UTF-8 ({e})")}),
            },
            Line::TooLong => serde_json::json!({
                "id": null,
                "error": format!("the request line is over {MAX_LINE} bytes; a request is one record on one line")
            }),
        };
        serde_json::to_writer(&mut out, &reply)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(0)
}

/// The longest request line read (a whole Texas 42 game's record is a few KiB).
pub const MAX_LINE: usize = 1 << 20;

/// How a line was read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// In the buffer, without its newline.
    Whole,
    /// Longer than the limit: skipped to its newline, the buffer empty.
    TooLong,
}

/// Reads the next line into `buf` (cleared first), holding at most `max`
/// bytes of it: a longer line is read through to its end and dropped, so a
/// client cannot make the server hold more. `None` at the end of the input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<Option<Line>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(if too_long { Line::TooLong } else { Line::Whole }));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        if !too_long {
            if buf.len() + part.len() > max {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let newline = done > part.len();
        input.consume(done);
        if newline {
            return Ok(Some(if too_long { Line::TooLong } else { Line::Whole }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_past_the_limit_are_dropped_whole_and_the_next_line_is_read() {
        let text = format!("{{\"a\":1}}\n{}\nshort\nlast", "x".repeat(100));
        let mut input = std::io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        let mut got = Vec::new();
        while let Some(line) = read_line(&mut input, &mut buf, 20).unwrap() {
            got.push((line, String::from_utf8(buf.clone()).unwrap()));
        }
        assert_eq!(
            got,
            [
                (Line::Whole, "{\"a\":1}".to_string()),
                (Line::TooLong, String::new()),
                (Line::Whole, "short".to_string()),
                (Line::Whole, "last".to_string())
            ]
        );
    }
}
