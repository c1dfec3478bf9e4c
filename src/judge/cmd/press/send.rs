//! A press block sent, in steps: who sends it and to whom ([`Plan`]), whether the game
//! allows it, the copies as each recipient reads them ([`Copies`]), the crossing of grey
//! and white press in one mail, the dip point it costs, and the mails.

use super::refused::Refused;
use crate::envelope::Outgoing;
use crate::game::calendar::PhaseKind;
use crate::game::ids::PowerId;
use crate::judge::cmd::context::{PressDraft, Recipients, Role, Session};
use crate::judge::dips;
use crate::judge::game::{Archived, Game, PressPolicy, SeatState};

/// Who sends a press block and to whom, checked against the game's press rules.
struct Plan {
    /// The sender as white press names it.
    sender: String,
    /// The sender's letter (`M` for the Master; none for an observer).
    me: Option<char>,
    /// The Master as such, not acting for a power.
    sender_master: bool,
    /// The recipients' letters in board order: the powers, then `M`, then `O`.
    recipients: Vec<char>,
    /// Whether it goes to everyone but the sender.
    broadcast: bool,
    /// Grey press (names neither its sender nor its other recipients).
    grey: bool,
}

/// The copies of a press block.
struct Copies {
    /// The first line of each copy.
    intro: String,
    /// The recipients as the sender is told them.
    to_text: String,
    /// The press's own lines, trailing empty ones cut.
    text: Vec<String>,
    /// The subject of every copy.
    subject: String,
    /// Every recipient's copy.
    body: String,
    /// The Master's own copy of grey press, which names the sender.
    master_copy: Option<String>,
    /// The Master's address.
    master_address: String,
    /// Every address a copy goes to, sorted.
    addresses: Vec<String>,
}

impl Session<'_> {
    /// Sends the press block read, or refuses it with its lines shown again.
    pub(in crate::judge) fn send_press(&mut self) {
        let Some(draft) = self.press.take() else {
            return;
        };
        if !self.press_within_limits(&draft) {
            return;
        }
        if let Err(why) = self.try_send_press(&draft) {
            self.refuse_press(&draft, why.to_string());
        }
    }

    fn try_send_press(&mut self, draft: &PressDraft) -> Result<(), Refused> {
        if self.game.is_none() {
            return Err(Refused::NotSignedOn);
        }
        if !draft.unknown.is_empty() {
            return Err(Refused::UnknownWords(draft.unknown.clone()));
        }
        // Standing supports ordered above this press are paid first.
        self.file_orders_before_spending();
        let plan = self.plan_press(draft)?;
        let copies = self.write_press(draft, &plan);
        self.check_crossing(&plan, &copies)?;
        self.pay_for_press(&plan, &copies)?;
        self.deliver_press(&plan, copies);
        Ok(())
    }

    /// Who sends the press and to whom, and whether the game allows it.
    fn plan_press(&self, draft: &PressDraft) -> Result<Plan, Refused> {
        let g = self.game();
        let map = self.judge.map_of(g);
        let sender_master = self.role == Role::Master && self.became.is_none();
        let (sender, me) = match self.role {
            Role::Power(p) => (map.power(p).name.clone(), Some(map.power(p).letter)),
            Role::Master => ("the Master".to_string(), Some('M')),
            Role::Observer => ("an observer".to_string(), None),
            Role::Joiner(_) | Role::Nobody => return Err(Refused::NoSender),
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
            Recipients::Nobody => return Err(Refused::NoTo),
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
                return Err(Refused::NoOne(c));
            }
            recipients.push(c);
        }
        if recipients.is_empty() {
            return Err(Refused::NoRecipients);
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
        let grey = draft.grey.unwrap_or(false) && !sender_master;
        let plan = Plan {
            sender,
            me,
            sender_master,
            recipients,
            broadcast,
            grey,
        };
        self.press_allowed(g, &plan)?;
        Ok(plan)
    }

    /// The game's press rules: press on, minor press, partial press, observers, grey.
    fn press_allowed(&self, g: &Game, plan: &Plan) -> Result<(), Refused> {
        let only_master = plan.recipients == ['M'];
        if !plan.sender_master && !only_master {
            if g.settings.press == PressPolicy::None {
                return Err(Refused::PressOff);
            }
            let minor = g.phase_kind().is_some_and(|k| k != PhaseKind::Movement);
            if minor && !g.settings.minor_press {
                return Err(Refused::NoMinorPress);
            }
            if !plan.broadcast && !g.settings.partial {
                return Err(Refused::BroadcastOnly);
            }
            if self.role == Role::Observer {
                return Err(Refused::ObserverToMaster);
            }
        }
        if plan.grey && g.settings.press != PressPolicy::Grey {
            return Err(Refused::GreyOff);
        }
        Ok(())
    }

    /// The copies: every recipient's, and the Master's own copy of grey press.
    fn write_press(&self, draft: &PressDraft, plan: &Plan) -> Copies {
        let judge = self.judge;
        let g = self.game();
        let map = judge.map_of(g);
        let names: Vec<String> = plan
            .recipients
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
        let to_text = if plan.broadcast {
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
        let sender = &plan.sender;
        let intro = match (plan.grey, plan.broadcast) {
            (true, true) => format!("Anonymous broadcast in '{}':", g.name),
            (true, false) => format!("Message from {anonymous} in '{}':", g.name),
            (false, true) => format!("Broadcast message from {sender} in '{}':", g.name),
            (false, false) => format!("Message from {sender} to {to_text} in '{}':", g.name),
        };
        let what = match (plan.grey, plan.broadcast) {
            (true, true) => "Broadcast".to_string(),
            (true, false) => "Press".to_string(),
            // An observer, who has no letter of its own, signs as the observers' `O`.
            (false, true) => format!("Broadcast from {}", plan.me.unwrap_or('O')),
            (false, false) => format!("Press from {}", plan.me.unwrap_or('O')),
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
        // The Master's own copy of grey press names the sender, unless the Master's address
        // also holds a seat in the game (a Master who plays reads what players read).
        let master_copy = (plan.grey
            && plan.recipients.contains(&'M')
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
        Copies {
            intro,
            to_text,
            subject,
            body,
            master_copy,
            master_address: g.master.address.clone(),
            addresses: self.press_addresses(g, &plan.recipients),
            text,
        }
    }

    /// The addresses of the recipients, sorted so that the order does not depend on who
    /// sends.
    fn press_addresses(&self, g: &Game, recipients: &[char]) -> Vec<String> {
        let map = self.judge.map_of(g);
        let mut addresses: Vec<String> = Vec::new();
        for &c in recipients {
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
        addresses.sort();
        addresses.dedup();
        addresses
    }

    /// Mails from one incoming mail arrive together: grey press may not share a recipient
    /// with anything else from this mail that names the sender (white press, a notice of a
    /// return from civil disorder), nor white press follow grey press to one. (The Master,
    /// whose copy names the sender anyway, excepted.)
    fn check_crossing(&self, plan: &Plan, copies: &Copies) -> Result<(), Refused> {
        let players: Vec<&String> = copies
            .addresses
            .iter()
            .filter(|a| copies.master_copy.is_none() || **a != copies.master_address)
            .collect();
        if plan.grey {
            let named = players.iter().any(|a| {
                let sent = self.effects.mails.iter().filter(|m| &m.to == *a).count();
                sent > self.grey_to.iter().filter(|t| t == a).count()
            });
            if named {
                return Err(Refused::GreyBesideNamed);
            }
        } else if players.iter().any(|a| self.grey_to.contains(a)) {
            return Err(Refused::NamedBesideGrey);
        }
        Ok(())
    }

    /// Dip points: press costs 1 to any number of countries (D.2); press that reaches no
    /// country (only the Master or the observers) is free. It is paid before it goes, or it
    /// does not go; a paid message is kept for interception.
    fn pay_for_press(&mut self, plan: &Plan, copies: &Copies) -> Result<(), Refused> {
        let judge = self.judge;
        let map = judge.map_of(self.game());
        let to_powers: Vec<PowerId> = plan
            .recipients
            .iter()
            .filter_map(|c| map.powers.iter().position(|p| p.letter == *c))
            .map(|i| PowerId(i as u8))
            .collect();
        let paid = dips::played(judge, self.game()) && !to_powers.is_empty();
        if let (Role::Power(p), true) = (self.role, paid) {
            let what = format!("press to {}", copies.to_text);
            let g = self.game_mut();
            dips::spend(judge, g, p, dips::PRESS, what)
                .map_err(|why| Refused::Unpaid(why.to_string()))?;
            g.dips.messages.push(crate::judge::ledger::Sent {
                from: p,
                to: to_powers,
                body: format!("{}\n\n{}", copies.intro, copies.text.join("\n")),
                grey: plan.grey,
            });
        }
        Ok(())
    }

    /// The mails; a broadcast kept for HISTORY; the sender told.
    fn deliver_press(&mut self, plan: &Plan, copies: Copies) {
        for to in copies.addresses {
            let body = match &copies.master_copy {
                Some(named) if to == copies.master_address => named.clone(),
                _ => {
                    if plan.grey {
                        self.grey_to.push(to.clone());
                    }
                    copies.body.clone()
                }
            };
            self.effects.mails.push(Outgoing {
                to,
                subject: copies.subject.clone(),
                body,
                in_reply_to: None,
                attachments: Vec::new(),
            });
        }
        // HISTORY holds results and broadcasts only: partial press, even to the observers,
        // is for its recipients, and HISTORY answers anyone (issue 24).
        if plan.broadcast {
            let at = self.now;
            self.game_mut().archive.push(Archived {
                at,
                subject: copies.subject,
                body: copies.body,
            });
        }
        let how = match (plan.grey, copies.master_copy.is_some()) {
            (false, _) => "",
            (true, false) => " (grey: each copy reads as from an anonymous power and lists no recipients)",
            (true, true) => " (grey: each copy reads as from an anonymous power and lists no recipients; the Master's copy names you)",
        };
        self.say(format!("Press sent to {}{how}.", copies.to_text));
    }
}

/// Whether `address` holds a seat in the game (playing or in disorder, not abandoned).
fn plays(game: &Game, address: &str) -> bool {
    game.seats
        .iter()
        .any(|s| s.state != SeatState::Abandoned && s.member.address.eq_ignore_ascii_case(address))
}
