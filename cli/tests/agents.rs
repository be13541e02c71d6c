//! `bones agents` and the agent spec grammar where the other commands show it:
//! their `--help` and their errors for a misspelled spec.

use crate::bones_cmd::bones;

#[test]
fn bones_agents_lists_every_agent_with_its_options_and_nothing_removed() {
    let (code, out, err) = bones(&["agents"]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "random",
        "heuristic",
        "highest (Doubles only)",
        "pimc[:worlds=N]",
        "search[:worlds=N][:pool=N][:bidding=policy|pimc][:weighted=on|off][:continuation=solver|infoset][:exact=K]\
         [:tricks=N][:model=PATH] (Texas 42 only)",
        "model:PATH",
        "onnx:[observation=V:]PATH",
        "exec:[limit=SECONDS:]COMMAND",
        "bridge:[limit=SECONDS:]COMMAND (Texas 42 only)",
    ] {
        assert!(out.lines().any(|l| l == line), "no line `{line}` in:\n{out}");
    }
    assert!(
        out.contains("    worlds=N  worlds solved per decision; a whole number from 1 to 4096; default 128"),
        "{out}"
    );
    for removed in ["caution", "playout", "continuation=policy"] {
        assert!(!out.contains(removed), "{removed} in:\n{out}");
    }
}

#[test]
fn the_commands_that_take_agents_show_the_grammar_in_their_help() {
    for cmd in ["eval", "benchmark", "exploit", "play", "web"] {
        let (code, out, err) = bones(&[cmd, "--help"]);
        assert_eq!(code, 0, "{cmd}: {err}");
        let one_line = out.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in
            ["`pimc[:worlds=N]`", "`highest` (Doubles only)", "`exec:[limit=SECONDS:]COMMAND`", "`bones agents`"]
        {
            assert!(one_line.contains(part), "{cmd} --help lacks {part}:\n{out}");
        }
    }
}

#[test]
fn a_misspelled_agent_is_refused_in_one_line_naming_the_nearest_one() {
    let (code, _, err) = bones(&["eval", "--agents", "herustic,random", "--hands", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown agent `herustic` (did you mean `heuristic`?; `bones agents` lists them)"), "{err}");
    let (code, _, err) = bones(&["eval", "--agents", "search:wrolds=16,random", "--hands", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown option `wrolds` of search (did you mean `worlds`?)"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
