//! What one decision of an agent may cost on a server: [`Limits`] bounds the
//! sizes a spec that arrived over the network may ask for (worlds sampled and
//! solved, the information-set search's depth), and
//! `AgentSpec::check_limits` refuses a spec past them in one line naming the
//! limit. The defaults cover every strength level the web page offers
//! (`search` with its defaults, `pimc:worlds=512`); only the person who starts
//! the server raises them (`bones web --max-worlds N --max-pool N --max-exact K`).

/// The most a served spec may ask for per decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most worlds per decision: `pimc:worlds=N` and `search:worlds=N`.
    pub worlds: u32,
    /// Most worlds `search` samples and weighs per decision (`pool=N`).
    pub pool: u32,
    /// Most tricks the information-set search of `search` plays over all its
    /// worlds at once (`exact=K`); its cost grows steeply with K.
    pub exact: u8,
}

/// [`Limits::worlds`] by default: the Doubles Hard level's `pimc:worlds=512`.
pub const DEFAULT_MAX_WORLDS: u32 = 512;
/// [`Limits::pool`] by default: four times the default `search` worlds, as
/// the Texas 42 Hard level samples.
pub const DEFAULT_MAX_POOL: u32 = 2048;
/// [`Limits::exact`] by default: the default `search`'s
/// (`spec::DEFAULT_INFOSET_TRICKS`; a test keeps them equal).
pub const DEFAULT_MAX_EXACT: u8 = 3;

impl Default for Limits {
    fn default() -> Limits {
        Limits { worlds: DEFAULT_MAX_WORLDS, pool: DEFAULT_MAX_POOL, exact: DEFAULT_MAX_EXACT }
    }
}

impl Limits {
    /// No limit at all (what the grammar allows): specs given on the command line.
    pub const NONE: Limits = Limits { worlds: u32::MAX, pool: u32::MAX, exact: 7 };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{AgentSpec, DEFAULT_INFOSET_TRICKS};

    #[test]
    fn the_default_exact_limit_is_the_default_search_s() {
        assert_eq!(DEFAULT_MAX_EXACT, DEFAULT_INFOSET_TRICKS);
    }

    fn check(spec: &str) -> Result<(), String> {
        spec.parse::<AgentSpec>().unwrap().check_limits(&Limits::default()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_default_limits_admit_every_strength_level() {
        for spec in ["heuristic", "random", "highest", "pimc:worlds=16", "pimc:worlds=512", "search", "pimc"] {
            assert_eq!(check(spec), Ok(()), "{spec}");
        }
    }

    #[test]
    fn a_spec_past_a_limit_is_refused_naming_the_option_the_limit_and_the_flag() {
        let e = check("pimc:worlds=4000000000").unwrap_err();
        assert_eq!(
            e,
            "agent `pimc:worlds=4000000000` asks for more than this server allows: `worlds` is 4000000000, at most \
             512 here (the server's --max-worlds raises it)"
        );
        assert!(check("search:worlds=4096").unwrap_err().contains("`worlds` is 4096, at most 512"));
        assert!(check("search:worlds=256:pool=4096").unwrap_err().contains("`pool` is 4096, at most 2048"));
        assert!(check("search:exact=7")
            .unwrap_err()
            .contains("`exact` is 7, at most 3 here (the server's --max-exact"));
        assert_eq!(check("search:continuation=solver:worlds=512:pool=2048"), Ok(()));
    }

    #[test]
    fn limits_at_the_bound_pass_and_one_past_fail() {
        let l = Limits { worlds: 10, pool: 40, exact: 2 };
        let ok = |s: &str| s.parse::<AgentSpec>().unwrap().check_limits(&l).is_ok();
        assert!(ok("pimc:worlds=10") && !ok("pimc:worlds=11"));
        assert!(ok("search:worlds=10:pool=40:exact=2"));
        assert!(!ok("search:worlds=10:pool=41:exact=2") && !ok("search:worlds=10:pool=40:exact=3"));
        assert!(
            Limits::NONE.worlds == u32::MAX
                && "search:exact=7:worlds=4096".parse::<AgentSpec>().unwrap().check_limits(&Limits::NONE).is_ok()
        );
    }
}
