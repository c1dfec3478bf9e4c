//! The Master's ROLLBACK: the game back at the start of a phase it has played. As DPjudge's
//! `ROLLBACK phase RESTORE`, the orders the players had on file for that phase are kept and
//! its deadline stands if it still lies ahead; `ROLLBACK phase AFRESH` drops those orders
//! and sets the deadline anew from now (herald's behaviour before issue 25).

use crate::judge::cmd::context::Session;
use crate::judge::deadline;
use crate::judge::game::{Archived, Status};
use crate::judge::process;

impl Session<'_> {
    /// ROLLBACK `<phase> [AFRESH]`.
    pub(in crate::judge) fn rollback(&mut self, line: &str, text: &str) {
        let (judge, now) = (self.judge, self.now);
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let afresh = words
            .last()
            .is_some_and(|w| w.eq_ignore_ascii_case("AFRESH"));
        if afresh {
            words.pop();
        }
        if words.is_empty() {
            self.error(line, "write ROLLBACK <phase>, or ROLLBACK <phase> AFRESH");
            return;
        }
        let g = self.game();
        let cal = &judge.variant(g).calendar;
        let phase = match cal.parse(&words.join(" ")) {
            Ok(p) => p,
            Err(e) => {
                self.error(line, e.to_string());
                return;
            }
        };
        let code = cal.code(phase);
        let Some(i) = g.history.iter().position(|h| h.phase() == phase) else {
            self.error(line, format!("{code} is not a phase this game has played"));
            return;
        };
        let tz = g.settings.zone;
        let g = self.game_mut();
        let record = g.history[i].clone();
        g.enter_phase(record.before);
        crate::judge::dips::after_rollback(g, i);
        g.history.truncate(i);
        g.centre_counts.retain(|c| c.played <= i);
        g.status = Status::Running;
        g.outcome = None;
        g.pause_reason = None;
        if !afresh {
            g.orders = record.orders;
            g.orders.retain(|_, o| !o.is_empty());
        }
        let kept = g.orders.len();
        let orders = match (afresh, kept) {
            (true, _) => "The orders that were on file for it are dropped: orders for it are needed again.",
            (false, 0) => "No orders were on file for it (or herald did not keep them then): orders for it are needed again.",
            (false, _) => "The orders that were on file for it are kept; send orders to change yours (CLEAR drops them all).",
        };
        let standing = record.deadline.filter(|&(d, _)| !afresh && d > now);
        let moved = match standing {
            Some((d, grace)) => {
                g.schedule(d, Some(grace));
                Vec::new()
            }
            None => process::set_deadline(judge, g, now),
        };
        let (d, grace) = (g.deadline.unwrap_or(now), g.grace.unwrap_or(now));
        let when = match (standing.is_some(), afresh, record.deadline.is_some()) {
            (true, _, _) => "stays as it was",
            (false, true, _) => "is set anew from now",
            (false, false, true) => "had passed, so it is set anew from now",
            (false, false, false) => "is set anew from now",
        };
        let timing = format!(
            "Its deadline {when}: {}; grace ends {}.",
            deadline::show(d, tz),
            deadline::show(grace, tz)
        );
        let told = format!("The Master has rolled the game back to {code}. {orders} {timing}");
        let notices = judge.notice_all(
            self.game(),
            &format!("Rollback to {code}"),
            std::slice::from_ref(&told),
        );
        self.effects.mails.extend(notices);
        self.effects.mails.extend(moved);
        // HISTORY shows the rollback where it happened: the results before it stay in the
        // record, marked undone by this entry.
        let g = self.game_mut();
        let subject = format!("JUDGE:{} - {code} Rollback to {code}", g.name);
        let body =
            format!("{told}\nThe results of {code} and after, above this note, were undone.");
        g.archive.push(Archived {
            at: now,
            subject,
            body,
        });
        // Kept orders may make every power ready: the phase still waits for its deadline,
        // PROCESS, or a later mail that finds everyone ready.
        self.rolled_back = true;
        self.say(format!(
            "Rolled back to {code}; every player is told. Orders kept for {kept} power{}{}. {timing} It is processed at its deadline, when you PROCESS, or early once a later mail finds every power ready.",
            if kept == 1 { "" } else { "s" },
            if afresh { " (AFRESH)" } else { "" },
        ));
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Duration, Utc};

    use crate::judge::testkit::{judge, mail, reply, start, started, GM, SEVEN};

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    /// Hold orders for a standard power.
    fn holds(letter: char) -> &'static str {
        match letter {
            'E' => "F Lon H\nF Edi H\nA Lvp H",
            'F' => "F Bre H\nA Par H\nA Mar H",
            'G' => "F Kie H\nA Ber H\nA Mun H",
            'I' => "F Nap H\nA Rom H\nA Ven H",
            'A' => "A Vie H\nA Bud H\nF Tri H",
            'R' => "A Mos H\nA War H\nF Sev H\nF Stp/sc H",
            _ => "F Ank H\nA Con H\nA Smy H",
        }
    }

    // Issue 25, 12: "ROLLBACK drops the orders already sent and re-times the deadline from
    // today's settings (three days lost) [...] Keep the orders on file and the original
    // deadline where it still lies ahead (DPjudge's RESTORE), or offer both, documented."
    #[test]
    fn a_rollback_keeps_the_orders_and_the_deadline_that_still_lies_ahead() {
        let j = judge();
        let mut games = started(&j);
        // Spring 1901's deadline: 7 days after the start.
        assert_eq!(games["g"].deadline, Some(utc("2026-12-08T10:00:00Z")));
        for (addr, letter) in SEVEN {
            let body = format!("SIGNON {letter}g pw{letter}\n{}", holds(letter));
            mail(&j, &mut games, addr, &body, start());
        }
        let fr = games["g"].seats[1].power.unwrap().0;
        let france = games["g"].orders[&fr].clone();
        assert_eq!(france.orders.len(), 3, "{france:?}");
        let day = start() + Duration::days(1);
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS", day);
        assert_eq!(games["g"].history.len(), 1, "Spring 1901 was played");
        // Three days later the Master takes it back.
        let back = start() + Duration::days(3);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nROLLBACK S1901M",
            back,
        );
        let g = &games["g"];
        assert!(g.history.is_empty());
        assert_eq!(g.orders.len(), 7, "every power's orders are kept");
        assert_eq!(g.orders[&fr], france);
        assert_eq!(
            g.deadline,
            Some(utc("2026-12-08T10:00:00Z")),
            "not 3 days later"
        );
        // Every power is ready with the kept orders, but the rollback itself does not start
        // early processing.
        assert_eq!(g.ready_at, None);
        let text = &reply(&h, GM).body;
        assert!(text.contains("Orders kept for 7 powers."), "{text}");
        assert!(
            text.contains("Its deadline stays as it was: Tue Dec 08 2026 10:00 UTC"),
            "{text}"
        );
        let bob = h
            .effects
            .mails
            .iter()
            .find(|m| m.to == SEVEN[1].0 && m.subject.contains("Rollback to S1901M"))
            .unwrap();
        assert!(
            bob.body.contains(
                "The orders that were on file for it are kept; send orders to change yours (CLEAR drops them all)."
            ),
            "{}",
            bob.body
        );

        // AFRESH: the other behaviour, for a Master who wants it.
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS", back);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nROLLBACK S1901M AFRESH",
            back,
        );
        let g = &games["g"];
        assert!(g.orders.is_empty());
        assert_eq!(g.deadline, Some(utc("2026-12-11T10:00:00Z")));
        assert!(
            reply(&h, GM)
                .body
                .contains("Its deadline is set anew from now"),
            "{}",
            reply(&h, GM).body
        );
    }

    // A deadline that has passed cannot stand: it is set anew, and the reply says why.
    #[test]
    fn a_rollback_past_the_old_deadline_sets_a_new_one() {
        let j = judge();
        let mut games = started(&j);
        mail(
            &j,
            &mut games,
            "bob@example.org",
            "SIGNON Fg pwF\nA Par-Bur",
            start(),
        );
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS!", start());
        let late = start() + Duration::days(10);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nROLLBACK S1901M",
            late,
        );
        let g = &games["g"];
        assert_eq!(g.orders.len(), 1, "France's orders are kept");
        assert_eq!(g.deadline, Some(utc("2026-12-18T10:00:00Z")));
        let text = &reply(&h, GM).body;
        assert!(text.contains("Orders kept for 1 power."), "{text}");
        assert!(
            text.contains("Its deadline had passed, so it is set anew from now"),
            "{text}"
        );
    }
}
