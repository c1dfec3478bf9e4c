//! What a game is played with, worked out once where a step needs it (issue 26: "a game
//! context built once per mail or tick (variant, map, rules, zone)"): its variant, the map as
//! it stands at the current phase, the rules with the game's switches and seating applied,
//! and its zone. Rebuilding the rules clones the variant's and works out who plays with whom
//! ([`super::partners`]), so a step that consults them several times takes them from here.

use chrono_tz::Tz;

use super::{Game, Judge};
use crate::game::map::Map;
use crate::game::rules::Rules;
use crate::game::variant::Variant;

/// A game's variant, current map, rules and zone, as one step of the judge uses them. It
/// borrows the judge, not the game, so the game may change meanwhile; a step that changes
/// the seating or the phase builds it again.
#[derive(Debug)]
pub struct GameCtx<'j> {
    /// The game's variant ([`Judge::variant`]).
    pub variant: &'j Variant,
    /// The map at the game's current phase ([`Judge::map_of`]).
    pub map: &'j Map,
    /// The game's rules ([`Judge::rules`]).
    pub rules: Rules,
    /// The zone the game's dates are shown in.
    pub zone: Tz,
}

impl Judge {
    /// The context of `game` as it stands now.
    pub fn context(&self, game: &Game) -> GameCtx<'_> {
        GameCtx {
            variant: self.variant(game),
            map: self.map_of(game),
            rules: self.rules(game),
            zone: game.settings.zone,
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How often this thread built a game's rules ([`Judge::rules`]), for the tests that
    /// count them.
    pub(super) static RULES_BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit::{judge, start, started};

    /// Issue 26: "about 140 re-derivations of variant/map/rules/zone per mail". Processing
    /// a phase builds the game's rules once, for the adjudication and the end of the game
    /// alike (it built them for the adjudication, the dip-point check and the last-year
    /// check each).
    #[test]
    fn processing_a_phase_builds_the_rules_once() {
        let j = judge();
        let mut games = started(&j);
        let game = games.get_mut("g").unwrap();
        let before = RULES_BUILT.with(|n| n.get());
        let effects = crate::judge::process::process(&j, game, start());
        let built = RULES_BUILT.with(|n| n.get()) - before;
        assert!(!effects.mails.is_empty());
        assert_eq!(built, 1);
    }

    /// The context is what the judge's own lookups give.
    #[test]
    fn a_context_is_the_games_variant_map_rules_and_zone() {
        let j = judge();
        let game = crate::judge::testkit::running_game();
        let ctx = j.context(&game);
        assert!(std::ptr::eq(ctx.variant, j.variant(&game)));
        assert!(std::ptr::eq(ctx.map, j.map_of(&game)));
        assert_eq!(ctx.rules, j.rules(&game));
        assert_eq!(ctx.zone, game.settings.zone);
    }
}
