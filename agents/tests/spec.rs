//! Agent specs against their grammar (`bones_agents::spec::grammar`): every
//! agent and option of the table parses and prints back as canonical text, the
//! table's defaults are the parser's, and a bad spec is refused in one line
//! that names the bad part and the nearest valid spelling.

use bones_agents::spec::grammar::{self, edit_distance, nearest, Value, AGENTS};
use bones_agents::{AgentSpec, SpecError};

fn parse(text: &str) -> Result<AgentSpec, SpecError> {
    text.parse()
}

/// A tail for an agent that takes one (a path or a command with a `:` in it).
fn tail_of(agent: &grammar::AgentGrammar) -> Option<&'static str> {
    agent.tail.as_ref().map(|t| if t.shown == "COMMAND" { "./bot --at 1:2" } else { "models/a b:c" })
}

/// `name:OPTIONS[:TAIL]`, or the bare name without options and tail.
fn text(agent: &grammar::AgentGrammar, options: &str) -> String {
    match (tail_of(agent), options.is_empty()) {
        (Some(t), _) => format!("{}:{options}{t}", agent.name),
        (None, true) => agent.name.to_string(),
        (None, false) => format!("{}:{}", agent.name, options.trim_end_matches(':')),
    }
}

/// Values of an option worth trying: its ends and every word.
fn samples(v: &Value) -> Vec<String> {
    match v {
        Value::Whole { min, max, .. } => vec![min.to_string(), max.to_string()],
        Value::Decimal { min, max, .. } => vec![min.to_string(), "2.5".to_string(), max.to_string()],
        Value::Word { words, .. } => words.iter().map(|w| w.to_string()).collect(),
        Value::Rest { .. } => vec!["models/a:b".to_string()],
    }
}

/// Parses `text`, prints it, parses the print: the same spec, and the print
/// printed again is the same text. Returns the canonical text.
fn round_trip(text: &str) -> Result<String, SpecError> {
    let spec = parse(text)?;
    let canonical = spec.to_string();
    let again = parse(&canonical).unwrap_or_else(|e| panic!("`{text}` prints as `{canonical}`, which is refused: {e}"));
    assert_eq!(again, spec, "`{text}` prints as `{canonical}`, which parses to another spec");
    assert_eq!(again.to_string(), canonical, "the canonical text of `{text}` prints differently");
    Ok(canonical)
}

#[test]
fn every_agent_and_option_of_the_grammar_prints_back_as_the_text_it_was_parsed_from() {
    let mut checked = 0;
    for agent in AGENTS {
        round_trip(&text(agent, "")).unwrap_or_else(|e| panic!("{}: {e}", agent.name));
        // Every other whole-number option at its least value, for options
        // bounded by another (`pool` at least `worlds`).
        let mut contexts = vec![String::new()];
        for o in agent.options {
            if let Value::Whole { min, .. } = o.value {
                contexts.push(format!("{}={min}:", o.key));
            }
        }
        for o in agent.options {
            for v in samples(&o.value) {
                let given = format!("{}={v}", o.key);
                let parsed: Vec<String> = contexts
                    .iter()
                    .filter(|c| !c.starts_with(&format!("{}=", o.key)))
                    .filter_map(|c| round_trip(&text(agent, &format!("{c}{given}:"))).ok())
                    .collect();
                assert!(!parsed.is_empty(), "`{given}` of {} parses in no context", agent.name);
                for canonical in parsed {
                    assert!(canonical.contains(&given), "`{given}` is not in the canonical `{canonical}`");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 20, "only {checked} options checked");
}

#[test]
fn the_defaults_the_grammar_shows_are_the_parsers() {
    let mut checked = 0;
    for agent in AGENTS {
        for o in agent.options {
            // Defaults in words (`4 × worlds`, the shipped model) are not values.
            if matches!(o.value, Value::Rest { .. }) {
                continue;
            }
            let Ok(with) = parse(&text(agent, &format!("{}={}:", o.key, o.default))) else { continue };
            assert_eq!(with, parse(&text(agent, "")).unwrap(), "{} {}={}", agent.name, o.key, o.default);
            checked += 1;
        }
    }
    assert!(checked >= 7, "only {checked} defaults checked");
    assert_eq!(parse("search:worlds=16").unwrap(), parse("search:worlds=16:pool=64").unwrap(), "pool: 4 × worlds");
}

#[test]
fn a_misspelled_agent_or_option_is_refused_in_one_line_naming_the_nearest_spelling() {
    let says = |text: &str| parse(text).unwrap_err().to_string();
    assert_eq!(
        says("search:wrolds=16"),
        "bad agent spec `search:wrolds=16`: unknown option `wrolds` of search (did you mean `worlds`?)"
    );
    assert_eq!(says("herustic"), "unknown agent `herustic` (did you mean `heuristic`?; `bones agents` lists them)");
    assert_eq!(
        says("greedy"),
        "unknown agent `greedy` (expected random, heuristic, highest, pimc, search, model, onnx, exec or bridge; \
         `bones agents` lists them)"
    );
    assert!(matches!(parse("serach:worlds=2"), Err(SpecError::Unknown { .. })));
    assert!(says("serach:worlds=2").contains("did you mean `search`?"));
    assert!(says("pimc:world=3").contains("unknown option `world` of pimc (did you mean `worlds`?)"));
    assert!(says("pimc:depth=3").contains("unknown option `depth` of pimc (pimc takes worlds)"));
    assert_eq!(
        says("search:continuation=Infoset"),
        "bad agent spec `search:continuation=Infoset`: `continuation` must be `solver` or `infoset`, got `Infoset` \
         (did you mean `infoset`?)"
    );
    assert!(says("search:worlds").contains("`worlds` needs a value: `worlds=N`"));
    assert!(says("search:worlds=5000").contains("`worlds` must be a whole number from 1 to 4096, got `5000`"));
    assert!(says("pimc:worlds=0").contains("`worlds` must be a whole number >= 1, got `0`"));
    assert!(says("random:fast").contains("`random` takes no options"));
    assert!(says("model:").contains("`model` needs a path: `model:PATH`"));
    for bad in ["search:wrolds=16", "herustic", "greedy", "search:bidding=x", "exec:limit=0:bot", "onnx:", ""] {
        let e = says(bad);
        assert!(!e.contains('\n') && e.len() < 200, "`{bad}`: {e}");
    }
}

#[test]
fn the_nearest_spelling_is_a_slip_away_or_none() {
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("worlds", "wrolds"), 2);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("same", "same"), 0);
    for (a, b, d) in [("", "", 0), ("learning_rat", "learning_rate", 1), ("gama", "gamma", 1)] {
        assert_eq!((edit_distance(a, b), edit_distance(b, a)), (d, d), "{a} {b}");
    }
    let names = || AGENTS.iter().map(|a| a.name);
    assert_eq!(nearest("heuristc", names()), Some("heuristic"));
    assert_eq!(nearest("PIMC", names()), Some("pimc"));
    assert_eq!(nearest("heur", names()), Some("heuristic"), "a beginning of 3 letters or more");
    assert_eq!(nearest("alphazero", names()), None);
    assert_eq!(nearest("x", names()), None);
}

#[test]
fn the_grammar_texts_show_every_agent_and_option_and_nothing_removed() {
    let summary = grammar::summary();
    let described = grammar::describe();
    assert!(!summary.contains('\n'));
    for agent in AGENTS {
        let syntax = grammar::syntax(agent);
        assert!(summary.contains(&format!("`{syntax}`")), "{syntax} is not in {summary}");
        assert!(described.contains(&syntax), "{syntax}");
        assert!(described.contains(agent.about), "{}", agent.name);
        for o in agent.options {
            assert!(described.contains(&format!("    {}=", o.key)), "{} {}", agent.name, o.key);
            assert!(described.contains(o.about), "{} {}", agent.name, o.key);
        }
    }
    assert_eq!(
        grammar::syntax(grammar::agent("search").unwrap()),
        "search[:worlds=N][:pool=N][:bidding=policy|pimc][:weighted=on|off][:continuation=solver|infoset][:exact=K]\
         [:tricks=N][:model=PATH]"
    );
    assert_eq!(grammar::syntax(grammar::agent("exec").unwrap()), "exec:[limit=SECONDS:]COMMAND");
    assert!(summary.contains("`highest` (Doubles only)") && summary.contains("(Texas 42 only)"), "{summary}");
    for removed in ["caution", "playout", "continuation=policy", "level1", "retie"] {
        assert!(!summary.contains(removed) && !described.contains(removed), "{removed}");
    }
}
