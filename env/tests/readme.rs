//! The README's observation tables are the code's layouts, verbatim.

use bones_env::observe::layout_markdown;
use bones_env::Game;

fn check(game: &impl Game) {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let table = layout_markdown(game.obs_segments());
    assert!(
        readme.contains(&table),
        "README.md lacks the current {} observation table (version {}):\n{table}",
        game.name(),
        game.obs_version()
    );
    assert!(readme.contains(&format!("`{}` observation, version {}", game.name(), game.obs_version())));
}

#[test]
fn readme_has_the_texas42_observation_table() {
    check(&bones_env::Texas42::default());
}

#[test]
fn readme_has_the_doubles_observation_table() {
    check(&bones_env::Doubles::default());
}
