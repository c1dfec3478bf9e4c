//! PRESS and BROADCAST: white and grey press, to whom it may go and what each copy says.

use crate::envelope::Outgoing;
use crate::game::ids::PowerId;
use crate::judge::cmd::context::{PressDraft, Role, Session};
use crate::judge::command::{Command, Recipients};
use crate::judge::dips;
use crate::judge::game::{Archived, Game, PressPolicy, SeatState};

impl Session<'_> {
    /// Refuses a press block: its first line as written with the reason, then its text, so
    /// the sender sees which press did not go and can send it again.
    fn refuse_press(&mut self, draft: &PressDraft, why: impl Into<String>) {
        self.error(&draft.head, why);
        self.lines
            .extend(draft.lines.iter().map(|l| format!("  | {l}")));
    }

    /// Applies a command of this family.
    pub(in crate::judge) fn press_command(&mut self, line: &str, command: Command) -> bool {
        match command {
            Command::Press { to, grey } => {
                self.press = Some(PressDraft {
                    head: line.trim().to_string(),
                    to,
                    grey,
                    lines: Vec::new(),
                });
            }
            Command::EndPress => self.error(line, "ENDPRESS without PRESS"),
            _ => {}
        }
        true
    }
    pub(in crate::judge) fn send_press(&mut self) {
        let Some(draft) = self.press.take() else {
            return;
        };
        if !self.press_within_limits(&draft) {
            return;
        }
        let judge = self.judge;
        let Some(name) = self.game.clone() else {
            self.refuse_press(&draft, "sign on before sending press");
            return;
        };
        // Standing supports ordered above this press are paid first.
        self.file_orders_before_spending();
        let g = &self.games[&name];
        let map = judge.map_of(g);
        let sender_master = self.role == Role::Master && self.became.is_none();
        let sender = match self.role {
            Role::Power(p) => map.power(p).name.clone(),
            Role::Master => "the Master".to_string(),
            Role::Observer => "an observer".to_string(),
            _ => {
                self.refuse_press(
                    &draft,
                    "press comes from a power, the Master or an observer",
                );
                return;
            }
        };
        let me = match self.role {
            Role::Power(p) => Some(map.power(p).letter),
            Role::Master => Some('M'),
            _ => None,
        };
        // Everyone who could receive press: power letters, M, O.
        let mut all: Vec<char> = g
            .seats
            .iter()
            .filter(|s| s.state != SeatState::Abandoned)
            .filter_map(|s| s.power.map(|p| map.power(p).letter))
            .collect();
        all.push('M');
        if !g.observers.is_empty() {
            all.push('O');
        }
        let wanted: Vec<char> = match &draft.to {
            Recipients::Nobody => {
                self.refuse_press(
                    &draft,
                    "PRESS without TO sends nothing: write PRESS TO <letters> or BROADCAST",
                );
                return;
            }
            Recipients::All => all.clone(),
            Recipients::To(letters) => letters.chars().collect(),
            // "Partial press (`ALL BUT`, lists) never reaches the observers unless the sender
            // names them" (issue 24): ALL BUT means all the players and the Master.
            Recipients::AllBut(letters) => all
                .iter()
                .copied()
                .filter(|c| !letters.contains(*c) && *c != 'O')
                .collect(),
        };
        let mut recipients: Vec<char> = Vec::new();
        for c in wanted {
            if Some(c) == me || recipients.contains(&c) {
                continue;
            }
            if !all.contains(&c) {
                self.refuse_press(&draft, format!("'{c}' is no one in this game"));
                return;
            }
            recipients.push(c);
        }
        if recipients.is_empty() {
            self.refuse_press(&draft, "the press has no recipients");
            return;
        }
        // Listed in board order, however the sender wrote them or the players joined: the
        // map's powers, then the Master, then the observers.
        let rank = |c: char| match c {
            'M' => map.powers.len(),
            'O' => map.powers.len() + 1,
            _ => map
                .powers
                .iter()
                .position(|p| p.letter == c)
                .unwrap_or(usize::MAX),
        };
        recipients.sort_by_key(|&c| rank(c));
        let broadcast = recipients.len() == all.iter().filter(|&&c| Some(c) != me).count();
        let only_master = recipients == ['M'];
        if !sender_master && !only_master {
            if g.settings.press == PressPolicy::None {
                self.refuse_press(
                    &draft,
                    "press is off in this game: only press to and from the Master is allowed",
                );
                return;
            }
            let minor = g
                .phase_kind()
                .is_some_and(|k| k != crate::game::calendar::PhaseKind::Movement);
            if minor && !g.settings.minor_press {
                self.refuse_press(
                    &draft,
                    "no minor press in this game: in retreats and adjustments press goes only to and from the Master (PRESS TO M)",
                );
                return;
            }
            if !broadcast && !g.settings.partial {
                self.refuse_press(&draft, "only broadcast press is allowed in this game");
                return;
            }
            if self.role == Role::Observer {
                self.refuse_press(&draft, "observers may send press to the Master only");
                return;
            }
        }
        let grey = draft.grey.unwrap_or(false) && !sender_master;
        if grey && g.settings.press != PressPolicy::Grey {
            self.refuse_press(
                &draft,
                "grey press is not allowed in this game (SET PRESS GREY allows it)",
            );
            return;
        }
        let names: Vec<String> = recipients
            .iter()
            .map(|&c| match c {
                'M' => "the Master".to_string(),
                'O' => "the observers".to_string(),
                _ => map
                    .powers
                    .iter()
                    .find(|p| p.letter == c)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
            })
            .collect();
        let to_text = if broadcast {
            "everyone".to_string()
        } else {
            names.join(", ")
        };
        // Grey press names neither its sender nor its other recipients (with seven powers and
        // six named recipients the seventh is the sender): every recipient's copy is the same
        // whoever sent it. Only the Master's copy names the sender.
        let anonymous = if self.role == Role::Observer {
            "an anonymous observer"
        } else {
            "an anonymous power"
        };
        let intro = match (grey, broadcast) {
            (true, true) => format!("Anonymous broadcast in '{}':", g.name),
            (true, false) => format!("Message from {anonymous} in '{}':", g.name),
            (false, true) => format!("Broadcast message from {sender} in '{}':", g.name),
            (false, false) => format!("Message from {sender} to {to_text} in '{}':", g.name),
        };
        let what = match (grey, broadcast) {
            (true, true) => "Broadcast".to_string(),
            (true, false) => "Press".to_string(),
            // An observer, who has no letter of its own, signs as the observers' `O`.
            (false, true) => format!("Broadcast from {}", me.unwrap_or('O')),
            (false, false) => format!("Press from {}", me.unwrap_or('O')),
        };
        let subject = judge.subject(g, &what);
        let mut text = draft.lines.clone();
        while text.last().is_some_and(|l| l.is_empty()) {
            text.pop();
        }
        let render = |intro: &str| {
            judge.templates.render(
                "press.txt",
                minijinja::context! { header => judge.header(g), intro => intro, lines => &text },
            )
        };
        let body = render(&intro);
        let mut addresses: Vec<String> = Vec::new();
        for &c in &recipients {
            match c {
                'M' => addresses.push(g.master.address.clone()),
                // D.2: "1 Dip to send a message to any number of countries." Press to the
                // observers is free because it reaches no country: so no player of the game
                // gets the observers' copy, even one who observes her own game from her
                // address (issue 25, 1). She reads what her powers are sent, paid for and
                // open to interception. The sender is told the same either way.
                'O' => addresses.extend(
                    g.observers
                        .iter()
                        .filter(|o| !plays(g, &o.address))
                        .map(|o| o.address.clone()),
                ),
                _ => addresses.extend(
                    g.seats
                        .iter()
                        .filter(|s| {
                            s.state != SeatState::Abandoned
                                && s.power.is_some_and(|p| map.power(p).letter == c)
                        })
                        .map(|s| s.member.address.clone()),
                ),
            }
        }
        // A fixed order, whoever sends: by address.
        addresses.sort();
        addresses.dedup();
        // The Master's own copy of grey press names the sender, unless the Master's address
        // also holds a seat in the game (a Master who plays reads what players read).
        let master_copy = (grey
            && recipients.contains(&'M')
            && !g
                .seats
                .iter()
                .any(|s| s.member.address.eq_ignore_ascii_case(&g.master.address)))
        .then(|| {
            render(&format!(
                "Grey press from {sender} to {to_text} in '{}' (only the Master's copy names the sender):",
                g.name
            ))
        });
        let master_address = g.master.address.clone();
        // Mails from one incoming mail arrive together: grey press may not share a recipient
        // with anything else from this mail that names the sender (white press, a notice of
        // a return from civil disorder), nor white press follow grey press to one.
        // (The Master, whose copy names the sender anyway, excepted.)
        let players: Vec<&String> = addresses
            .iter()
            .filter(|a| master_copy.is_none() || **a != master_address)
            .collect();
        if grey {
            let named = players.iter().any(|a| {
                let sent = self.effects.mails.iter().filter(|m| &m.to == *a).count();
                sent > self.grey_to.iter().filter(|t| t == a).count()
            });
            if named {
                self.refuse_press(&draft,
                    "grey press was not sent: this mail also sends a recipient something that names you (white press or a notice), and both would arrive together; send grey press in a mail of its own",
                );
                return;
            }
        } else if players.iter().any(|a| self.grey_to.contains(a)) {
            self.refuse_press(&draft,
                "this press was not sent: it goes to someone who got your grey press from this mail, and both would arrive together; send it in another mail",
            );
            return;
        }
        // Dip points: press costs 1 to any number of countries (D.2); press that reaches no
        // country (only the Master or the observers) is free. It is paid before it goes, or
        // it does not go.
        let to_powers: Vec<PowerId> = recipients
            .iter()
            .filter_map(|c| map.powers.iter().position(|p| p.letter == *c))
            .map(|i| PowerId(i as u8))
            .collect();
        let paid = dips::played(judge, g) && !to_powers.is_empty();
        if let (Role::Power(p), true) = (self.role, paid) {
            let what = format!("press to {to_text}");
            let g = self.game_mut();
            if let Err(why) = dips::spend(judge, g, p, dips::PRESS, what) {
                self.refuse_press(&draft, format!("{why}: the press was not sent"));
                return;
            }
            g.dips.messages.push(crate::judge::ledger::Sent {
                from: p,
                to: to_powers,
                body: format!("{intro}\n\n{}", text.join("\n")),
                grey,
            });
        }
        for to in addresses {
            let body = match &master_copy {
                Some(named) if to == master_address => named.clone(),
                _ => {
                    if grey {
                        self.grey_to.push(to.clone());
                    }
                    body.clone()
                }
            };
            self.effects.mails.push(Outgoing {
                to,
                subject: subject.clone(),
                body,
                in_reply_to: None,
                attachments: Vec::new(),
            });
        }
        // HISTORY holds results and broadcasts only: partial press, even to the observers,
        // is for its recipients, and HISTORY answers anyone (issue 24).
        if broadcast {
            let (at, subject, body) = (self.now, subject.clone(), body.clone());
            self.game_mut().archive.push(Archived { at, subject, body });
        }
        let how = match (grey, master_copy.is_some()) {
            (false, _) => "",
            (true, false) => " (grey: each copy reads as from an anonymous power and lists no recipients)",
            (true, true) => " (grey: each copy reads as from an anonymous power and lists no recipients; the Master's copy names you)",
        };
        self.say(format!("Press sent to {to_text}{how}."));
    }
}

/// Whether `address` holds a seat in the game (playing or in disorder, not abandoned).
fn plays(game: &Game, address: &str) -> bool {
    game.seats
        .iter()
        .any(|s| s.state != SeatState::Abandoned && s.member.address.eq_ignore_ascii_case(address))
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{judge, mail, reply, start, started, started_world, GM};

    const BOB: &str = "bob@example.org"; // France
    const ANN: &str = "ann@example.org"; // England

    // Issue 25, 9: "Press is relayed verbatim. Typographic dashes and quotes are flattened
    // in press text; normalise command lines only, never what a player wrote to another."
    // The order line is read with a plain dash; the press arrives as it was typed, its
    // indentation too.
    #[test]
    fn press_is_relayed_verbatim() {
        let j = judge();
        let mut games = started(&j);
        let written = "It\u{2019}s \u{201C}ours\u{201D} \u{2014} agreed? 1\u{2013}2\n    (indented)\n\u{00AB}\u{00A0}Bien s\u{00FB}r\u{00A0}!\u{00A0}\u{00BB}";
        let h = mail(
            &j,
            &mut games,
            BOB,
            &format!("SIGNON Fg pwF\nA Par \u{2013} Bur\nPRESS TO E\n{written}\nENDPRESS"),
            start(),
        );
        let text = &reply(&h, BOB).body;
        assert!(!text.contains("***"), "{text}");
        assert!(text.contains("A Par - Bur"), "{text}");
        let copy = h.effects.mails.iter().find(|m| m.to == ANN).unwrap();
        assert!(copy.body.contains(written), "{}", copy.body);
    }

    // Issue 25, 17: an observer's press to the Master was titled "Press from ?", and the
    // recipients of `ALL BUT` were listed in the order the players joined. Observers' press
    // is titled with their letter, O, and every list of recipients is in board order (the
    // map's powers, then the Master, then the observers).
    #[test]
    fn observer_press_is_titled_and_recipients_are_in_board_order() {
        const OBS: &str = "obs@example.org";
        let j = judge();
        let mut games = started_world(&j);
        mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        mail(&j, &mut games, OBS, "OBSERVE w watch", start());
        let h = mail(
            &j,
            &mut games,
            OBS,
            "SIGNON Ow watch\nPRESS TO M\nA question.\nENDPRESS",
            start(),
        );
        let to_master = h.effects.mails.iter().find(|m| m.to == GM).unwrap();
        assert_eq!(to_master.subject, "JUDGE:w - S1880M Press from O");
        let pj = "pj@example.org";
        let h = mail(
            &j,
            &mut games,
            pj,
            "SIGNON Jw pwJ\nPRESS TO ALL BUT K\nAll but China.\nENDPRESS\nPRESS TO OCBM\nA list.\nENDPRESS",
            start(),
        );
        let text = &reply(&h, pj).body;
        assert!(
            text.contains("Press sent to GreatBritain, France, Russia, Germany, Austria, Italy, Ottoman, USA, Chile, Brazil, Mexico, Portugal, Spain, Holland, the Master."),
            "{text}"
        );
        assert!(
            text.contains("Press sent to GreatBritain, Chile, the Master, the observers."),
            "{text}"
        );
    }

    #[test]
    fn press_goes_where_the_game_allows() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nPRESS TO EG\nHello\nENDPRESS",
            start(),
        );
        let to: Vec<&str> = h.effects.mails.iter().map(|m| m.to.as_str()).collect();
        assert!(
            to.contains(&"ann@example.org") && to.contains(&"cat@example.org"),
            "{to:?}"
        );
        let copy = h
            .effects
            .mails
            .iter()
            .find(|m| m.to == "ann@example.org")
            .unwrap();
        assert!(
            copy.body
                .contains("Message from France to England, Germany in 'g':"),
            "{}",
            copy.body
        );
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nPRESS TO E GREY\nPssst\nENDPRESS\nPRESS\nx\nENDPRESS",
            start(),
        );
        let text = &reply(&h, BOB).body;
        assert!(
            text.contains("grey press is not allowed in this game"),
            "{text}"
        );
        assert!(text.contains("PRESS without TO sends nothing"), "{text}");
        mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET PRESS NONE",
            start(),
        );
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nPRESS TO E\nHi\nENDPRESS\nPRESS TO M\nTo the GM\nENDPRESS",
            start(),
        );
        let text = &reply(&h, BOB).body;
        assert!(text.contains("press is off in this game"), "{text}");
        assert!(h
            .effects
            .mails
            .iter()
            .any(|m| m.to == GM && m.body.contains("To the GM")));
    }
}
