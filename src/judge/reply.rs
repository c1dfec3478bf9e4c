//! The reply to a mail: what herald understood, line by line, every order on file for the
//! power, dip-point balances, and the time to the deadline, rendered from `reply.txt`.

use super::game::Status;
use super::session::{Role, Session};
use super::{deadline, dips, orders};
use crate::envelope::Outgoing;

impl Session<'_> {
    pub(crate) fn reply(&mut self) {
        let judge = self.judge;
        let subject_base = if self.letter.subject.is_empty() {
            "your mail".to_string()
        } else {
            self.letter.subject.clone()
        };
        let mut subject = if subject_base.to_ascii_lowercase().starts_with("re:") {
            subject_base
        } else {
            format!("Re: {subject_base}")
        };
        if self.errors {
            subject.push_str(" [Error Flag]");
        }
        if !self.recognised {
            self.effects.mails.push(Outgoing {
                to: self.letter.reply_to.clone(),
                subject,
                body: judge.templates.render(
                    "unknown.txt",
                    minijinja::context! { judge => &judge.address },
                ),
                in_reply_to: Some(self.letter.message_id.clone()),
                attachments: Vec::new(),
            });
            return;
        }
        let dip_lines = match (
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
        };
        let game = self.game.as_ref().and_then(|n| self.games.get(n));
        let header = game.map_or_else(
            || format!(":: Judge: {}", judge.address),
            |g| judge.header_for(g, &self.letter.reply_to),
        );
        let mut ctx_orders: Vec<String> = Vec::new();
        let mut warnings: Vec<String> = Vec::new();
        let mut status = String::new();
        let mut power_name = String::new();
        let mut phase = String::new();
        let (mut dl, mut gr, mut to_dl, mut to_gr) = (None, None, None, None);
        if let Some(g) = game {
            if let (Role::Power(p), Some(pos)) = (self.role, &g.position) {
                if g.status == Status::Running || g.status == Status::Paused {
                    let (lines, st) = orders::echo(judge, g, p);
                    ctx_orders = lines;
                    warnings = super::warnings::warnings(judge, g, p);
                    status = st;
                    power_name = judge.variant(g).map.power(p).name.clone();
                    phase = judge.variant(g).calendar.code(pos.phase);
                }
            }
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
        // SET MAP ON: a picture of the power's orders on file, drawn from them alone, when
        // the reply has room for another file.
        if let (Role::Power(p), Some(g)) = (self.role, game) {
            if !ctx_orders.is_empty() && g.seat_of(p).is_some_and(|s| s.map) {
                if self.attachments.len() < judge.limits.attachments {
                    self.attachments
                        .extend(super::pictures::orders_picture(judge, g, p));
                } else {
                    self.budget.no_room_for_files += 1;
                }
            }
        }
        let render = |lines: &[String]| {
            judge.templates.render(
                "reply.txt",
                minijinja::context! {
                    header => &header, lines => lines, orders => &ctx_orders, status => &status, power => &power_name,
                    phase => &phase, warnings => &warnings, deadline => &dl, grace => &gr, to_deadline => &to_dl, to_grace => &to_gr,
                },
            )
        };
        // The reply within its limits: what the mail's commands said is cut to the room
        // the rest of the reply leaves.
        let frame = render(&dip_lines);
        self.budget.fit(
            &mut self.lines,
            judge.limits,
            frame.len(),
            frame.lines().count(),
        );
        self.lines.extend(dip_lines);
        let body = render(&self.lines);
        if let (Some(p), Some(g)) = (self.became, game) {
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
