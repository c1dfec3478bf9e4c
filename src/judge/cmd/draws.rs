//! Votes for an ending by agreement and the Master's rules for them: SET DRAW [powers],
//! SET NODRAW, SET CONCEDE <power>, SET NOCONCEDE; SET DIAS / NODIAS, SET CONCESSIONS /
//! NOCONCESSIONS. The rules are in [`crate::judge::draws`].

use crate::game::ids::PowerId;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::draws::{
    agreed, largest, names_everyone, parse_powers, played, survivors, Agreed, Vote,
};
use crate::judge::game::Status;

impl<'a> Session<'a> {
    /// SET DRAW [powers] (`Some`) or SET NODRAW (`None`).
    pub(in crate::judge) fn vote_draw(&mut self, line: &str, with: Option<&str>) {
        let Some((me, map, pos)) = self.voter(line) else {
            return;
        };
        let Some(with) = with else {
            self.cast(me, Vote::None, "Draw vote withdrawn.".into());
            return;
        };
        let g = self.game();
        let alive = survivors(map, &pos);
        let names = |ps: &[PowerId]| {
            ps.iter()
                .map(|&q| map.power(q).name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // `SET DRAW ALL` is a draw of every survivor, as SET DRAW alone (issue 25: it was
        // read as the letters A, L, L).
        let powers = if with.trim().is_empty() || names_everyone(with) {
            Vec::new()
        } else {
            match parse_powers(map, with) {
                Ok(ps) => ps,
                Err(why) => return self.error(line, why.to_string()),
            }
        };
        if let Some(&gone) = powers.iter().find(|q| !alive.contains(q)) {
            return self.error(
                line,
                format!(
                    "{} is out of the game; a draw is shared by powers still in it: {}",
                    map.power(gone).name,
                    names(&alive)
                ),
            );
        }
        if g.settings.draws.dias && !powers.is_empty() && powers != alive {
            return self.error(
                line,
                format!(
                    "this game's draws include all survivors (DIAS): vote with SET DRAW alone, for a draw among {}",
                    names(&alive)
                ),
            );
        }
        let shared = if powers.is_empty() { &alive } else { &powers };
        let said = format!(
            "Draw vote recorded for this phase: a draw among {}.",
            names(shared)
        );
        self.cast(me, Vote::Draw(powers), said);
    }

    /// SET CONCEDE <power> (`Some`) or SET NOCONCEDE (`None`).
    pub(in crate::judge) fn vote_concede(&mut self, line: &str, to: Option<&str>) {
        let Some((me, map, pos)) = self.voter(line) else {
            return;
        };
        let Some(to) = to else {
            self.cast(me, Vote::None, "Concession withdrawn.".into());
            return;
        };
        if !self.game().settings.draws.concessions {
            return self.error(
                line,
                "the Master does not allow concessions in this game (SET NOCONCESSIONS)",
            );
        }
        let top = largest(map, &pos);
        let Some(winner) = map.power_by_word(to.trim()) else {
            return self.error(line, format!("'{}' names no power of this game; concede to the largest power by name or letter", crate::judge::draws::clipped(to.trim())));
        };
        if winner == me {
            return self.error(line, "a power cannot concede to itself");
        }
        if !played(self.game(), winner) {
            // A concession hands the game to a player: to nobody's power it would end the
            // game with no one to have won it.
            return self.error(
                line,
                format!(
                    "{} is played by nobody (a dummy, or left by its player), and a game is conceded to a player: concede when someone takes it over, or vote for a draw",
                    map.power(winner).name
                ),
            );
        }
        if !top.contains(&winner) {
            let names: Vec<String> = top.iter().map(|&q| map.power(q).name.clone()).collect();
            return self.error(
                line,
                format!(
                    "a game is conceded to the largest power, and {} has {} centres: concede to {}",
                    map.power(winner).name,
                    pos.centre_count(winner),
                    names.join(" or ")
                ),
            );
        }
        let said = format!(
            "Concession recorded for this phase: the game to {}.",
            map.power(winner).name
        );
        self.cast(me, Vote::Concede(winner), said);
    }

    /// The power voting, with the board it votes on, or `None` after saying why it can't.
    fn voter(
        &mut self,
        line: &str,
    ) -> Option<(
        PowerId,
        &'a crate::game::map::Map,
        crate::game::position::Position,
    )> {
        let Role::Power(me) = self.role else {
            self.error(line, "only a power votes for a draw or a concession");
            return None;
        };
        let judge = self.judge;
        let g = self.game();
        let (Some(pos), Status::Running | Status::Paused) = (g.position.clone(), g.status) else {
            self.error(line, "votes are cast while the game runs");
            return None;
        };
        Some((me, judge.map_of(g), pos))
    }

    /// Records a vote, says so, and ends the game if every survivor now agrees.
    fn cast(&mut self, me: PowerId, vote: Vote, said: String) {
        if let Some(seat) = self.game_mut().seat_of_mut(me) {
            seat.vote = vote;
        }
        self.say(said);
        let judge = self.judge;
        let map = judge.map_of(self.game());
        let Some(ending) = agreed(map, self.game()) else {
            return;
        };
        let outcome = match &ending {
            Agreed::Draw(with) => crate::judge::ending::Ending::Draw(
                with.iter().map(|&q| map.power(q).name.clone()).collect(),
            ),
            Agreed::Conceded(to) => {
                crate::judge::ending::Ending::Conceded(map.power(*to).name.clone())
            }
        };
        let now = self.now;
        let g = self.game_mut();
        g.finish(outcome.clone());
        let mails = crate::judge::summary::summary_mails(judge, g, now);
        self.effects.mails.extend(mails);
        self.say(format!("{outcome}: the game is over."));
        self.log(format!("game ended by agreement: {outcome}"));
    }

    /// SET DIAS / NODIAS (`dias`) and SET CONCESSIONS / NOCONCESSIONS (`concessions`).
    pub(in crate::judge) fn draw_rules(&mut self, dias: Option<bool>, concessions: Option<bool>) {
        let rules = &mut self.game_mut().settings.draws;
        let text = match (dias, concessions) {
            (Some(on), _) => {
                rules.dias = on;
                if on {
                    "DIAS: a draw includes all survivors; vote with SET DRAW."
                } else {
                    "NoDIAS: a draw vote names the powers to share it (SET DRAW AFG); it passes when all survivors name the same."
                }
            }
            (None, Some(on)) => {
                rules.concessions = on;
                if on {
                    "Concessions allowed: SET CONCEDE <power> concedes the game to the largest power."
                } else {
                    "Concessions are not allowed."
                }
            }
            (None, None) => return,
        };
        self.parameter_change(text.to_string());
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::game::Status;
    use crate::judge::testkit::{judge, mail, reply, start, GM, SEVEN};
    use crate::judge::Games;

    /// Issue 25, point 14: "Concession to a dummy nobody plays ends the game at once". Russia
    /// (four centres, the largest) is a dummy: the six players concede to it, and the game
    /// goes on, each told why.
    #[test]
    fn no_concession_to_a_power_nobody_plays() {
        let j = judge();
        let mut games = Games::new();
        let now = start();
        mail(&j, &mut games, GM, "CREATE ?g gmpass", now);
        for (addr, letter) in SEVEN.iter().filter(|(_, l)| *l != 'R') {
            let join = format!("SIGNON ?g pw{letter}\nSET PREFERENCE {letter}");
            mail(&j, &mut games, addr, &join, now);
        }
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nFORCE BEGIN", now);
        assert_eq!(games["g"].status, Status::Running);
        for (addr, letter) in SEVEN.iter().filter(|(_, l)| *l != 'R') {
            let vote = format!("SIGNON {letter}g pw{letter}\nSET CONCEDE Russia");
            let h = mail(&j, &mut games, addr, &vote, now);
            assert!(
                reply(&h, addr).body.contains("Russia is played by nobody (a dummy, or left by its player), and a game is conceded to a player"),
                "{}",
                reply(&h, addr).body
            );
        }
        assert_eq!(games["g"].status, Status::Running);
    }
}
