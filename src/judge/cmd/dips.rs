//! Dip points spent by mail: INTERCEPT and PROTECT.

use crate::game::ids::PowerId;
use crate::judge::command::Command;
use crate::judge::dips;
use crate::judge::game::Status;
use crate::judge::session::{Role, Session};

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn dips_command(&mut self, line: &str, command: Command) -> bool {
        match command {
            Command::Intercept(a, b) => self.intercept(line, &a, &b),
            Command::Protect => self.protect(line),
            _ => {}
        }
        true
    }
    /// The power this session speaks for in a game with dip points, or an error said.
    pub(in crate::judge) fn dip_power(&mut self, line: &str) -> Option<PowerId> {
        let judge = self.judge;
        let Role::Power(p) = self.role else {
            self.error(line, "only a power spends dip points");
            return None;
        };
        let g = self.game();
        if !dips::played(judge, g) {
            self.error(line, "dip points are not played in this game");
            return None;
        }
        if g.status != Status::Running {
            self.error(line, format!("the game is {}", g.status.word()));
            return None;
        }
        Some(p)
    }
    pub(in crate::judge) fn intercept(&mut self, line: &str, a: &str, b: &str) {
        let judge = self.judge;
        let Some(me) = self.dip_power(line) else {
            return;
        };
        let map = judge.map_of(self.game());
        let (Some(x), Some(y)) = (map.power_by_word(a), map.power_by_word(b)) else {
            let bad = if map.power_by_word(a).is_none() { a } else { b };
            self.error(line, format!("'{bad}' is no country of this game"));
            return;
        };
        let (nx, ny) = (map.power(x).name.clone(), map.power(y).name.clone());
        if x == y {
            self.error(line, "an interception names two different countries");
            return;
        }
        if x == me || y == me {
            self.error(line, "you already see your own messages");
            return;
        }
        if dips::same_player(self.game(), x, y) {
            // D.2: the GM tells the interceptor; nothing is bought, so nothing is paid.
            self.say(format!(
                "{nx} and {ny} are played by the same player: there is nothing between them to intercept. No dips were spent."
            ));
            return;
        }
        if self.game().dips.intercepts.contains(&(me, x, y))
            || self.game().dips.intercepts.contains(&(me, y, x))
        {
            self.error(
                line,
                format!("you already intercept {nx} and {ny} this turn"),
            );
            return;
        }
        let what = format!("INTERCEPT {nx} {ny}");
        let g = self.game_mut();
        match dips::spend(judge, g, me, dips::INTERCEPT, what) {
            Ok(()) => {
                g.dips.intercepts.push((me, x, y));
                self.say(format!(
                    "You will have copies of all messages between {nx} and {ny} this turn when it is processed."
                ));
            }
            Err(why) => self.error(line, why),
        }
    }
    pub(in crate::judge) fn protect(&mut self, line: &str) {
        let judge = self.judge;
        let Some(me) = self.dip_power(line) else {
            return;
        };
        if self.game().dips.protected.contains(&me) {
            self.error(line, "your messages are already protected this turn");
            return;
        }
        let g = self.game_mut();
        match dips::spend(judge, g, me, dips::PROTECT, "PROTECT".into()) {
            Ok(()) => {
                g.dips.protected.push(me);
                self.say("Your messages are protected from interception this turn.");
            }
            Err(why) => self.error(line, why),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{judge, mail, reply, start, started, GM};

    #[test]
    fn dip_commands_need_a_power_in_a_game_with_dip_points() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            "bob@example.org",
            "SIGNON Fg pwF\nINTERCEPT E G\nPROTECT",
            start(),
        );
        let text = &reply(&h, "bob@example.org").body;
        assert_eq!(
            text.matches("dip points are not played in this game")
                .count(),
            2,
            "{text}"
        );
        let h = mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROTECT", start());
        assert!(reply(&h, GM)
            .body
            .contains("only a power spends dip points"));
    }
}
