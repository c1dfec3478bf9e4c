//! A power's orders: order lines, CLEAR and PHASE, checked and filed once the mail is read.

use crate::judge::command::Command;
use crate::judge::game::Status;
use crate::judge::orders;
use crate::judge::session::{Role, Session};

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn orders_command(&mut self, line: &str, command: Command) -> bool {
        let judge = self.judge;
        let role = self.role;
        match command {
            Command::Other(text) => match role {
                Role::Power(_) => self.orders.push((text, self.wrong_phase.clone())),
                Role::Master => self.error(
                    line,
                    "not a Master command; to order for a power, BECOME <letter> first",
                ),
                _ => self.error(line, "not a command (only players send orders)"),
            },
            Command::Clear => match role {
                Role::Power(p) => {
                    self.orders.clear();
                    self.game_mut().orders.remove(&p.0);
                    self.say("CLEAR: your orders for this phase are cleared.");
                }
                _ => self.error(line, "only a power has orders to clear"),
            },
            Command::Phase(text) => {
                let g = self.game();
                let Some(pos) = &g.position else {
                    self.error(line, "the game has not started");
                    return true;
                };
                let cal = &judge.variant(g).calendar;
                match cal.parse(&text) {
                    Ok(p) if p == pos.phase => self.wrong_phase = None,
                    Ok(p) => {
                        let why = format!(
                            "these orders are for {}, but the game is at {}",
                            cal.code(p),
                            cal.code(pos.phase)
                        );
                        self.wrong_phase = Some(why);
                    }
                    Err(e) => {
                        // Orders after a PHASE line herald cannot read are not filed for a
                        // phase the player may not have meant.
                        let why = format!(
                            "the PHASE line above was not understood, so these orders are not filed (the game is at {})",
                            cal.code(pos.phase)
                        );
                        self.error(line, e.to_string());
                        self.wrong_phase = Some(why);
                    }
                }
            }
            _ => {}
        }
        true
    }
    pub(in crate::judge) fn flush_orders(&mut self) {
        if self.orders.is_empty() {
            return;
        }
        let Role::Power(p) = self.role else {
            self.orders.clear();
            return;
        };
        let texts = std::mem::take(&mut self.orders);
        let judge = self.judge;
        let again = self.filed.contains(&p);
        let g = self.game_mut();
        if g.status != Status::Running {
            let why = format!("the game is {}: no orders now", g.status.word());
            for (t, _) in texts {
                self.error(&t, why.clone());
            }
            return;
        }
        let earlier = again && g.orders.get(&p.0).is_some_and(|o| o.errors);
        let (lines, errors) = orders::submit(judge, g, p, &texts);
        if earlier {
            if let Some(entry) = g.orders.get_mut(&p.0) {
                entry.errors = true;
            }
        }
        if !again {
            self.filed.push(p);
        }
        self.lines.push("Orders received:".into());
        self.lines
            .extend(lines.into_iter().map(|l| format!("  {l}")));
        self.errors |= errors;
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{judge, mail, reply, start, started};

    const BOB: &str = "bob@example.org"; // France

    #[test]
    fn orders_are_filed_checked_and_cleared() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nA Par-Bur\nA Mar-Mun",
            start(),
        );
        let text = &reply(&h, BOB).body;
        assert!(text.contains("  A Par - Bur\n"), "{text}");
        assert!(text.contains("A Mar-Mun\n    *** "), "{text}");
        assert_eq!(games["g"].orders[&2].lines, ["A Par - Bur"]);
        let h = mail(&j, &mut games, BOB, "SIGNON Fg pwF\nCLEAR", start());
        assert!(reply(&h, BOB)
            .body
            .contains("your orders for this phase are cleared"));
        assert!(!games["g"].orders.contains_key(&2));
    }

    #[test]
    fn phase_and_who_may_order() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nPHASE F1901M\nA Par-Bur\nPHASE S1901M\nA Mar-Bur",
            start(),
        );
        let text = &reply(&h, BOB).body;
        assert!(
            text.contains("A Par-Bur\n    *** these orders are for F1901M"),
            "{text}"
        );
        assert!(text.contains("  A Mar - Bur\n"), "{text}");
        let h = mail(
            &j,
            &mut games,
            crate::judge::testkit::GM,
            "SIGNON Mg gmpass\nA Par-Bur",
            start(),
        );
        assert!(reply(&h, crate::judge::testkit::GM)
            .body
            .contains("not a Master command; to order for a power, BECOME <letter> first"));
        let h = mail(&j, &mut games, "x@example.org", "A Par-Bur\nCLEAR", start());
        assert!(reply(&h, "x@example.org").body.contains("sign on first"));
    }
}
