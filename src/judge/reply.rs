//! The reply to a mail: what herald understood, line by line, every order on file for the
//! power, dip-point balances, and the time to the deadline, rendered from `reply.txt`.

use super::cmd::context::{Role, Session};
use super::game::Status;
use super::{deadline, dips, orders};
use crate::envelope::Outgoing;

/// What the reply shows of a power's orders: every order on file, what they lack, and the
/// warnings on them.
#[derive(Debug, Default)]
struct OrdersBlock {
    orders: Vec<String>,
    warnings: Vec<String>,
    status: String,
    power: String,
    phase: String,
}

impl Session<'_> {
    /// The dip-point lines of the seat signed on: a power's balance, or every power's for
    /// the Master, in a running game that plays dip points.
    fn dip_lines(&self) -> Vec<String> {
        let judge = self.judge;
        match (
            self.game.as_ref().and_then(|n| self.games.get(n)),
            self.role,
        ) {
            (Some(g), role) if dips::played(judge, g) && g.status == Status::Running => {
                match role {
                    Role::Power(p) => vec![String::new(), dips::status_line(judge, g, p)],
                    Role::Master => {
                        let mut v = vec![String::new()];
                        v.extend(dips::master_lines(judge, g));
                        v
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// The orders on file of the power signed on, in a running or paused game.
    fn orders_block(&self) -> Option<OrdersBlock> {
        let judge = self.judge;
        let g = self.game.as_ref().and_then(|n| self.games.get(n))?;
        let (Role::Power(p), Some(pos)) = (self.role, &g.position) else {
            return None;
        };
        if g.status != Status::Running && g.status != Status::Paused {
            return None;
        }
        let (orders, status) = orders::echo(judge, g, p);
        Some(OrdersBlock {
            orders,
            warnings: super::warnings::warnings(judge, g, p),
            status,
            power: judge.variant(g).map.power(p).name.clone(),
            phase: judge.variant(g).calendar.code(pos.phase),
        })
    }

    /// SET MAP ON: a picture of the power's orders on file, drawn from them alone, when
    /// the reply has room for another file.
    fn orders_picture(&mut self) {
        let judge = self.judge;
        let Some(g) = self.game.as_ref().and_then(|n| self.games.get(n)) else {
            return;
        };
        let Role::Power(p) = self.role else {
            return;
        };
        if !g.seat_of(p).is_some_and(|s| s.map) {
            return;
        }
        let room = self
            .limits
            .attachments
            .saturating_sub(self.attachments.len());
        if room > 0 {
            // On a map with regions, as many of its pictures as there is room for.
            let mut files = super::pictures::orders_picture(judge, g, p);
            self.budget.no_room_for_files += files.len().saturating_sub(room);
            files.truncate(room);
            self.attachments.extend(files);
        } else {
            self.budget.no_room_for_files += 1;
        }
    }

    /// The end of a section of a mail of several SIGNONs (`cmd/signon/section.rs`): what
    /// the reply's end shows of the seat signed on so far (its dip points, its orders on
    /// file, their picture), put among the reply's lines.
    pub(crate) fn section_close(&mut self) {
        let dip_lines = self.dip_lines();
        self.lines.extend(dip_lines);
        let Some(block) = self.orders_block().filter(|b| !b.orders.is_empty()) else {
            return;
        };
        self.orders_picture();
        let text = self.judge.templates.render(
            "orders.txt",
            minijinja::context! {
                orders => &block.orders, status => &block.status, power => &block.power,
                phase => &block.phase, warnings => &block.warnings,
            },
        );
        self.lines.push(String::new());
        self.lines.extend(text.lines().map(str::to_string));
    }

    pub(crate) fn reply(&mut self) {
        let judge = self.judge;
        let subject = reply_subject(&self.letter.subject, self.errors);
        if !self.recognised {
            self.effects.mails.push(Outgoing {
                to: self.letter.reply_to.clone(),
                subject,
                body: judge.templates.render(
                    "unknown.txt",
                    minijinja::context! { judge => &judge.address, confirms => self.limits.confirms },
                ),
                in_reply_to: Some(self.letter.message_id.clone()),
                attachments: Vec::new(),
            });
            return;
        }
        let dip_lines = self.dip_lines();
        let block = self.orders_block().unwrap_or_default();
        if !block.orders.is_empty() {
            self.orders_picture();
        }
        let game = self.game.as_ref().and_then(|n| self.games.get(n));
        let header = game.map_or_else(
            || format!(":: Judge: {}", judge.address),
            |g| judge.header_for(g, &self.letter.reply_to),
        );
        let (mut dl, mut gr, mut to_dl, mut to_gr) = (None, None, None, None);
        if let Some(g) = game {
            if let (Some(d), Some(grace)) = (g.deadline, g.grace) {
                if g.status == Status::Running {
                    let tz = judge.zone_for(g, &self.letter.reply_to);
                    dl = Some(deadline::show(d, tz));
                    gr = Some(deadline::show(grace, tz));
                    to_dl = Some(deadline::left(self.now, d));
                    to_gr = Some(deadline::left(self.now, grace));
                }
            }
        }
        let render = |lines: &[String]| {
            judge.templates.render(
                "reply.txt",
                minijinja::context! {
                    header => &header, lines => lines, orders => &block.orders, status => &block.status, power => &block.power,
                    phase => &block.phase, warnings => &block.warnings, deadline => &dl, grace => &gr, to_deadline => &to_dl, to_grace => &to_gr,
                },
            )
        };
        // The reply within its limits: what the mail's commands said is cut to the room
        // the rest of the reply leaves.
        let frame = render(&dip_lines);
        self.budget.fit(
            &mut self.lines,
            self.limits,
            frame.len(),
            frame.lines().count(),
        );
        self.lines.extend(dip_lines);
        let body = render(&self.lines);
        // Each power the Master acted for (BECOME), in any section of the mail.
        let acted_for = self.acted_for.iter().copied().chain(self.became);
        for (p, g) in acted_for.filter_map(|p| Some((p, game?))) {
            if let Some(seat) = g.seat_of(p) {
                self.effects.mails.push(Outgoing {
                    to: seat.member.address.clone(),
                    subject: judge.subject(g, "Orders Entered By The Master"),
                    body: format!("The Master acted for your power with this mail. Herald's reply to the Master follows.\n\n{body}"),
                    in_reply_to: None,
                    attachments: Vec::new(),
                });
            }
        }
        self.effects.mails.push(Outgoing {
            to: self.letter.reply_to.clone(),
            subject,
            body,
            in_reply_to: Some(self.letter.message_id.clone()),
            attachments: std::mem::take(&mut self.attachments),
        });
    }
}

/// The flag herald puts on the subject of a reply to a mail with an error in it.
const ERROR_FLAG: &str = "[Error Flag]";

/// The subject of a reply to a mail with this subject: `Re:` once, then the flag if the
/// mail had an error. A flag the subject already carries (from an earlier reply the player
/// answered) is taken off first, so a clean reply has none and flags never pile up.
pub(crate) fn reply_subject(subject: &str, errors: bool) -> String {
    // One pass: ASCII lower-casing keeps every byte where it was.
    let lower = subject.to_ascii_lowercase();
    let mut base = String::with_capacity(subject.len());
    let mut from = 0;
    for (at, _) in lower.match_indices(&ERROR_FLAG.to_ascii_lowercase()) {
        base.push_str(&subject[from..at]);
        from = at + ERROR_FLAG.len();
    }
    base.push_str(&subject[from..]);
    let base = base.split_whitespace().collect::<Vec<_>>().join(" ");
    let base = if base.is_empty() || base.eq_ignore_ascii_case("re:") {
        "your mail".to_string()
    } else {
        base
    };
    let mut subject = if base.to_ascii_lowercase().starts_with("re:") {
        base
    } else {
        format!("Re: {base}")
    };
    if errors {
        subject.push(' ');
        subject.push_str(ERROR_FLAG);
    }
    subject
}

#[cfg(test)]
mod tests {
    use super::reply_subject;
    use crate::judge::session::handle;
    use crate::judge::testkit::{judge, letter, reply, start, started};

    /// Issue 25, point 10: "A clean reply to a mail whose subject carries an old `[Error
    /// Flag]` keeps the flag (and flags accumulate: `[Error Flag] [Error Flag]`)."
    #[test]
    fn an_old_error_flag_is_taken_off_the_subject() {
        let j = judge();
        let mut games = started(&j);
        let bob = "bob@example.org";
        let mut clean = letter(bob, "SIGNON Fg pwF\nA Par H");
        clean.subject = "Re: orders [Error Flag]".into();
        let h = handle(&j, &clean, &mut games, start());
        assert_eq!(reply(&h, bob).subject, "Re: orders");
        let mut wrong = letter(bob, "SIGNON Fg pwF\nA Par-Mun");
        wrong.subject = "Re: Re: orders [Error Flag] [error flag]".into();
        let h = handle(&j, &wrong, &mut games, start());
        assert_eq!(reply(&h, bob).subject, "Re: Re: orders [Error Flag]");
        assert_eq!(reply_subject("[Error Flag]", false), "Re: your mail");
        assert_eq!(reply_subject("", true), "Re: your mail [Error Flag]");
        assert_eq!(reply_subject("orders", false), "Re: orders");
    }
}
