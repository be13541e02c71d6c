//! docs/interfaces/encodings.md's observation tables are the code's layouts, verbatim:
//! each game's table sits under the line naming its version and length.

use bones_env::observe::layout_markdown;
use bones_env::Game;

fn check(game: &impl Game) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/interfaces/encodings.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let table = layout_markdown(game.obs_segments());
    let line = format!("`{}` observation, version {} (length {};", game.name(), game.obs_version(), game.obs_len());
    let at = doc.find(&line).unwrap_or_else(|| {
        panic!(
            "docs/interfaces/encodings.md lacks the line {line:?}: the {} observation's version or length is stale",
            game.name()
        )
    });
    // The table follows that line, before the next heading.
    let section = &doc[at..];
    let section = &section[..section.find("\n#").unwrap_or(section.len())];
    assert!(
        section.contains(&table),
        "docs/interfaces/encodings.md lacks the current {} observation table (version {}) under {line:?}:\n{table}",
        game.name(),
        game.obs_version()
    );
}

#[test]
fn interfaces_md_has_the_texas42_observation_table() {
    check(&bones_env::Texas42::default());
}

#[test]
fn interfaces_md_has_the_doubles_observation_table() {
    check(&bones_env::Doubles::default());
}
