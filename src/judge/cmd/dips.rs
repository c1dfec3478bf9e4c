//! Dip points spent by mail: INTERCEPT and PROTECT.

use super::def::{Def, Who, POWER};
use crate::game::ids::PowerId;
use crate::game::map::Map;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::dips;
use crate::judge::game::Status;

/// Dip points spent by mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DipsCommand {
    /// `INTERCEPT X Y`: buy the copies of all messages between two countries this turn. The
    /// text after the keyword: country names may be several words (`Great Britain`), so
    /// they are told apart against the game's powers when it is applied.
    Intercept(String),
    /// `PROTECT`: buy protection of all one's messages from interception this turn.
    Protect,
}

use DipsCommand as C;

const SPENDER: Who = Who::Signed(POWER, "only a power spends dip points");

/// INTERCEPT and PROTECT.
pub(super) const DEFS: &[Def] = &[
    Def::args(
        "INTERCEPT",
        "INTERCEPT <power> <power>, e.g. INTERCEPT F G",
        SPENDER,
        |w| Some(C::Intercept(w.rest(0)).into()),
    ),
    Def::line("PROTECT", SPENDER, || C::Protect.into()),
];

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn dips_command(&mut self, line: &str, command: DipsCommand) -> bool {
        match command {
            C::Intercept(countries) => self.intercept(line, &countries),
            C::Protect => self.protect(line),
        }
        true
    }
    /// Before a purchase in a game with dip points, files the orders read so far: their
    /// standing supports (`4 DIPS S A Lon`) are paid before the purchase, as the mail gives
    /// them. Orders are otherwise filed at the end of the mail.
    pub(in crate::judge) fn file_orders_before_spending(&mut self) {
        let played = self.game.is_some() && dips::played(self.judge, self.game());
        if played && matches!(self.role, Role::Power(_)) {
            self.flush_orders();
        }
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
    /// `INTERCEPT X Y`: X and Y are countries by name (of one or more words: `Great
    /// Britain`, `Ottoman Empire`), adjective or letter.
    pub(in crate::judge) fn intercept(&mut self, line: &str, countries: &str) {
        let judge = self.judge;
        let Some(me) = self.dip_power(line) else {
            return;
        };
        self.file_orders_before_spending();
        let map = judge.map_of(self.game());
        let (x, y) = match two_countries(map, countries) {
            Ok(pair) => pair,
            Err(why) => {
                self.error(line, why.to_string());
                return;
            }
        };
        let (nx, ny) = (map.power(x).name.clone(), map.power(y).name.clone());
        if x == y {
            self.error(line, "an interception names two different countries");
            return;
        }
        // A player who plays a country reads all its messages already, whichever of her
        // powers would buy the interception.
        let g = self.game();
        let mine = |p| p == me || dips::same_player(g, p, me);
        let own = match (mine(x), mine(y)) {
            (true, true) => Some(format!(
                "you play {nx} and {ny} yourself: you already see every message between them. No dips were spent."
            )),
            (true, false) => Some(format!(
                "you play {nx} yourself: you already see its messages. No dips were spent."
            )),
            (false, true) => Some(format!(
                "you play {ny} yourself: you already see its messages. No dips were spent."
            )),
            (false, false) => None,
        };
        if let Some(why) = own {
            self.error(line, why);
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
            Err(why) => self.error(line, why.to_string()),
        }
    }
    pub(in crate::judge) fn protect(&mut self, line: &str) {
        let judge = self.judge;
        let Some(me) = self.dip_power(line) else {
            return;
        };
        self.file_orders_before_spending();
        if self.game().dips.protected.contains(&me) {
            self.error(line, "your messages are already protected this turn");
            return;
        }
        let g = self.game_mut();
        match dips::spend(judge, g, me, dips::PROTECT, "PROTECT".into()) {
            Ok(()) => {
                g.dips.protected.push(me);
                self.say("Your messages are protected from interception this turn: every message you send or receive, before this order or after it.");
            }
            Err(why) => self.error(line, why.to_string()),
        }
    }
}

/// Why `INTERCEPT X Y` names no two countries; each says the right form (`usage`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum CountriesError {
    /// A country starts the text, and what follows it is none.
    #[error("'{rest}' is no country of this game; {usage}")]
    NoSecond {
        /// The text after the first country.
        rest: String,
        /// How to write it.
        usage: String,
    },
    /// Fewer than two words.
    #[error("'{text}': {usage}")]
    TooShort {
        /// The text.
        text: String,
        /// How to write it.
        usage: String,
    },
    /// No country starts the text.
    #[error("'{text}' does not start with a country of this game; {usage}")]
    NoFirst {
        /// The text.
        text: String,
        /// How to write it.
        usage: String,
    },
}

/// The two countries of `INTERCEPT X Y`, read against the map's power names (its name,
/// adjective, letter, or another name the map gives it, of one or more words): the longest
/// name that starts the text and leaves a country after it.
fn two_countries(map: &Map, text: &str) -> Result<(PowerId, PowerId), CountriesError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let example = match (map.powers.first(), map.powers.get(1)) {
        (Some(a), Some(b)) => format!(" (INTERCEPT {} {}, or by letter)", a.name, b.name),
        _ => String::new(),
    };
    let usage = format!("write INTERCEPT and two countries{example}");
    let name = |from: usize, to: usize| words.get(from..to).unwrap_or_default().join(" ");
    let splits = (1..words.len()).rev();
    let mut first = None;
    for split in splits {
        let Some(x) = map.power_by_word(&name(0, split)) else {
            continue;
        };
        if let Some(y) = map.power_by_word(&name(split, words.len())) {
            return Ok((x, y));
        }
        first.get_or_insert(split);
    }
    let text = text.trim().to_string();
    Err(match first {
        Some(split) => CountriesError::NoSecond {
            rest: name(split, words.len()),
            usage,
        },
        None if words.len() < 2 => CountriesError::TooShort { text, usage },
        None => CountriesError::NoFirst { text, usage },
    })
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{
        judge, mail, reply, start, started, started_as, started_world, GM,
    };
    use crate::judge::{Games, Judge};

    const ANN: &str = "ann@example.org"; // GreatBritain, France and Chile
    const PJ: &str = "pj@example.org"; // Japan

    /// World1880 game `w` past the unit choice, at Spring 1880.
    fn world_spring(j: &Judge) -> Games {
        let mut games = started_world(j);
        mail(j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        games
    }

    /// A power's mail to game `w` and the reply to it.
    fn send(j: &Judge, games: &mut Games, from: &str, letter: char, body: &str) -> String {
        let h = mail(
            j,
            games,
            from,
            &format!("SIGNON {letter}w pw{letter}\n{body}"),
            start(),
        );
        reply(&h, from).body.clone()
    }

    // The text names its countries "Great Britain", "Ottoman Empire": D.2's "2 Dips to
    // intercept all messages between two stated countries" reads them as it writes them.
    #[test]
    fn intercept_reads_two_word_country_names() {
        let j = judge();
        let mut games = world_spring(&j);
        let text = send(
            &j,
            &mut games,
            PJ,
            'J',
            "INTERCEPT Great Britain Russia\nINTERCEPT Ottoman Empire USA",
        );
        assert!(!text.contains("***"), "{text}");
        assert!(
            text.contains("copies of all messages between GreatBritain and Russia"),
            "{text}"
        );
        assert!(
            text.contains("copies of all messages between Ottoman and USA"),
            "{text}"
        );
        assert!(text.contains("Dip points: 1 of 5 left this turn"), "{text}");
        let text = send(&j, &mut games, PJ, 'J', "INTERCEPT Great Britain Narnia");
        assert!(
            text.contains("'Narnia' is no country of this game"),
            "{text}"
        );
        assert!(!text.contains("unknown province"), "{text}");
    }

    // D.2: "Should a player try to intercept messages between two countries that are in fact
    // played by the same player, the GM will notify that player of the fact." A player who
    // plays a country already reads all its messages: whichever of her powers buys, an
    // interception of her own countries is refused, and costs nothing.
    #[test]
    fn a_player_cannot_intercept_her_own_countries() {
        let j = judge();
        let mut games = world_spring(&j);
        for (letter, of) in [
            ('C', "INTERCEPT Great Britain France"),
            ('B', "INTERCEPT Great Britain France"),
            ('F', "INTERCEPT B F"),
            ('C', "INTERCEPT B Russia"),
            ('B', "INTERCEPT Russia B"),
        ] {
            let text = send(&j, &mut games, ANN, letter, of);
            assert!(
                !text.contains("You will have copies"),
                "{letter}: {of}: {text}"
            );
            assert!(
                text.contains("yourself: you already see"),
                "{letter}: {of}: {text}"
            );
            assert!(text.contains("nothing spent yet"), "{letter}: {of}: {text}");
        }
    }

    // D.2: "4 Dips to support a unit that is standing. (Orders for this are just the same as
    // regular support...)" A support is a movement order: in the winter it is refused as one,
    // not read as a build.
    #[test]
    fn a_standing_support_is_a_movement_order() {
        let j = judge();
        let mut games = started_world(&j);
        let text = send(&j, &mut games, "pg@example.org", 'G', "4 DIPS S A Ber");
        assert!(!text.contains("not removals"), "{text}");
        assert!(
            text.contains("a standing support is ordered with the movement orders"),
            "{text}"
        );
    }

    // M.1: "Any number of naval units may enter these areas without combat." Nobody in an
    // ocean is dislodged, so a standing support of a fleet there would buy nothing; the
    // reply says so, and does not claim the fleet is not there.
    #[test]
    fn a_standing_support_in_an_ocean_says_why_it_is_refused() {
        let j = judge();
        let mut games = world_spring(&j);
        send(&j, &mut games, ANN, 'B', "F Lon - Eng");
        mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        send(&j, &mut games, ANN, 'B', "F Eng - Nao");
        mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        let g = &games["w"];
        let phase = j
            .variant(g)
            .calendar
            .code(g.position.as_ref().unwrap().phase);
        if phase != "S1881M" {
            mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        }
        let text = send(&j, &mut games, PJ, 'J', "4 DIPS S British F Nao");
        assert!(!text.contains("there is no unit in Nao"), "{text}");
        assert!(text.contains("in an ocean"), "{text}");
        assert!(text.contains("nothing spent yet"), "{text}");
    }

    // D.2: "Should a player try to intercept messages between two countries that are in fact
    // played by the same player, the GM will notify that player of the fact." herald does,
    // and nothing is spent (issue 25, 4). The fact is of now: once Ann resigns France nobody
    // plays it, so England and France are no longer one player's; her abandoned seat kept
    // her address, and herald went on telling Italy so, and refusing England's interception
    // of France as "you play France yourself".
    #[test]
    fn the_interceptor_is_told_of_one_player_while_she_plays_both() {
        let j = judge();
        let mut players: Vec<(String, char)> = vec![(ANN.to_string(), 'E'), (ANN.to_string(), 'F')];
        for (addr, letter) in crate::judge::testkit::SEVEN.iter().skip(2) {
            players.push((addr.to_string(), *letter));
        }
        let mut games = started_as(&j, "g gmpass standard dip_points several_powers", &players);
        let dan = "dan@example.org"; // Italy
        let italy = |games: &mut Games, body: &str| {
            let h = mail(&j, games, dan, &format!("SIGNON Ig pwI\n{body}"), start());
            reply(&h, dan).body.clone()
        };
        let text = italy(&mut games, "INTERCEPT E F");
        assert!(
            text.contains("England and France are played by the same player: there is nothing between them to intercept. No dips were spent."),
            "{text}"
        );
        assert!(text.contains("nothing spent yet"), "{text}");
        let h = mail(&j, &mut games, ANN, "SIGNON Fg pwF\nRESIGN", start());
        assert!(
            !reply(&h, ANN).body.contains("***"),
            "{}",
            reply(&h, ANN).body
        );
        let text = italy(&mut games, "INTERCEPT E F");
        assert!(
            text.contains("You will have copies of all messages between England and France"),
            "{text}"
        );
        let h = mail(&j, &mut games, ANN, "SIGNON Eg pwE\nINTERCEPT F G", start());
        let text = &reply(&h, ANN).body;
        assert!(
            text.contains("You will have copies of all messages between France and Germany"),
            "{text}"
        );
    }

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
