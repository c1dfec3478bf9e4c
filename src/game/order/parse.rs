//! The order parser: the njudge/DPjudge dialect, any case, full names, abbreviations and
//! aliases, `-`/`->`/`m`/`move (to)`, `S`, `C`/`T`, `H`/`stand`, convoy routes, coasts as
//! `/nc`, `(nc)` or `north coast`, `Build`, `Remove`, `Waive`, `Disband`, a nationality
//! before a supported or convoyed unit, and a unit's province in brackets as the Abstraction
//! A/F rules write it (`A(Mar) E F(GOL)`).

use super::{Action, Loc, Order, Target};
use crate::game::ids::{Coast, UnitKind};
use crate::game::map::Map;

/// An order that could not be read, with the text refused and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}': {why}")]
pub struct OrderError {
    /// The order as written.
    pub text: String,
    /// What is wrong, naming the word at fault.
    pub why: String,
}

struct Cursor<'a> {
    map: &'a Map,
    words: Vec<String>,
    pos: usize,
    text: &'a str,
}

fn tokenize(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' | '=' if chars.peek() == Some(&'>') => {
                chars.next();
                spaced.push_str(" - ");
            }
            '-' | '–' | '—' => spaced.push_str(" - "),
            // `A(Mar)`, `A/F (GOL)`, `F(StP)nc`: brackets round a unit's province, as the
            // Abstraction rules write orders, are only spacing; elsewhere `(nc)` is a coast.
            '(' if after_unit_type(&spaced) => spaced.push(' '),
            '/' | '(' => spaced.push_str(" / "),
            ')' | ',' | ';' | '_' => spaced.push(' '),
            '.' | '\'' => {}
            c => spaced.extend(c.to_lowercase()),
        }
    }
    spaced.split_whitespace().map(str::to_string).collect()
}

/// Whether the text tokenized so far ends with a unit type (`a`, `f`, `a/f`, `army`,
/// `fleet`): a bracket after it holds a province, not a coast.
fn after_unit_type(spaced: &str) -> bool {
    matches!(
        spaced.split_whitespace().next_back(),
        Some("a" | "f" | "army" | "fleet")
    )
}

const MOVE_WORDS: &[&str] = &["-", "m", "move", "moves", "to", "retreat", "retreats", "r"];
const HOLD_WORDS: &[&str] = &["h", "hold", "holds", "stand", "stands"];
const SUPPORT_WORDS: &[&str] = &["s", "support", "supports"];
const CONVOY_WORDS: &[&str] = &[
    "c",
    "convoy",
    "convoys",
    "t",
    "transport",
    "transports",
    "ff",
    "ferry",
    "ferries",
];
const DISBAND_WORDS: &[&str] = &["disband", "disbands", "d"];
const LAND_WORDS: &[&str] = &["d", "disembark", "disembarks", "land", "lands"];
const EMBARK_WORDS: &[&str] = &["e", "embark", "embarks", "board", "boards"];
const CONVERT_WORDS: &[&str] = &["converts", "convert", "conv", "cv"];
/// Words for a conversion that, as the Deluge rule words it ("ordered to turn into a
/// fleet"), say what the army becomes: `A Lvp turns into a fleet`.
const TURN_WORDS: &[&str] = &[
    "turns",
    "turn",
    "becomes",
    "become",
    "transforms",
    "transform",
];
/// The accepted forms of a conversion, named when one is misread.
const CONVERT_FORM: &str = "a conversion is written 'A Yor converts' (the Deluge rule's own words), or 'A Yor converts to a fleet' or 'A Yor turns into a fleet'; on a province with two coasts name the coast: 'A Stp converts nc'";
const PORTAGE_WORDS: &[&str] = &["p", "portage", "portages"];

#[cfg(test)]
thread_local! {
    /// How many lines [`parse_order`] has read on this thread (tests count the reads a
    /// piece of work makes: orders on file are read once, when they come).
    static READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many lines [`parse_order`] has read on this thread so far (tests only).
#[cfg(test)]
pub fn reads() -> usize {
    READS.with(std::cell::Cell::get)
}

/// Parses one order in the judges' dialect against a map's names.
pub fn parse_order(map: &Map, text: &str) -> Result<Order, OrderError> {
    #[cfg(test)]
    READS.with(|n| n.set(n.get() + 1));
    let mut c = Cursor {
        map,
        words: tokenize(text),
        pos: 0,
        text,
    };
    let order = c.order()?;
    if let Some(extra) = c.peek() {
        return Err(c.fail(format!("unexpected '{extra}' after a complete order")));
    }
    Ok(order)
}

impl Cursor<'_> {
    fn fail(&self, why: impl Into<String>) -> OrderError {
        OrderError {
            text: self.text.trim().to_string(),
            why: why.into(),
        }
    }

    fn peek(&self) -> Option<&str> {
        self.words.get(self.pos).map(String::as_str)
    }

    fn peek_at(&self, offset: usize) -> Option<&str> {
        self.words.get(self.pos + offset).map(String::as_str)
    }

    fn eat(&mut self, set: &[&str]) -> bool {
        match self.peek() {
            Some(w) if set.contains(&w) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    fn order(&mut self) -> Result<Order, OrderError> {
        match self.peek() {
            None => Err(self.fail("empty order")),
            Some("waive" | "waives") => {
                self.pos += 1;
                Ok(Order::Waive)
            }
            Some(n) if n.chars().all(|c| c.is_ascii_digit()) => {
                let n = n.to_string();
                self.pos += 1;
                if !self.eat(&["dips", "dip", "dp"]) {
                    return Err(self.fail(format!(
                        "'{n}' starts a standing support only as '4 DIPS S A Lon'"
                    )));
                }
                if n != "4" {
                    return Err(self.fail(format!(
                        "a standing support costs 4 dips, not {n}: write '4 DIPS S A Lon'"
                    )));
                }
                if !self.eat(SUPPORT_WORDS) {
                    return Err(self.fail("dips buy a standing support: '4 DIPS S A Lon'"));
                }
                let target = self.target("after '4 DIPS S'")?;
                // D.2: "Orders for this are just the same as regular support": a support
                // of a move is read as one too (and refused when screened).
                let to = if self.eat(MOVE_WORDS) {
                    Some(self.loc("after the move in '4 DIPS S'")?)
                } else {
                    self.eat(HOLD_WORDS);
                    None
                };
                Ok(Order::DipSupport { target, to })
            }
            Some("build" | "builds" | "b") => {
                self.pos += 1;
                let kind = self.unit_kind();
                let at = self.loc("after 'Build'")?;
                Ok(Order::Build { kind, at })
            }
            Some("remove" | "removes") => {
                self.pos += 1;
                let kind = self.unit_kind();
                let at = self.loc("after 'Remove'")?;
                Ok(Order::Remove { kind, at })
            }
            Some("disband" | "disbands") => {
                self.pos += 1;
                let kind = self.unit_kind();
                let at = self.loc("after 'Disband'")?;
                Ok(Order::Unit {
                    kind,
                    at,
                    action: Action::Disband,
                })
            }
            Some(_) => {
                let kind = self.unit_kind();
                let at = self.loc("for the unit ordered")?;
                let action = self.action()?;
                Ok(Order::Unit { kind, at, action })
            }
        }
    }

    fn unit_kind(&mut self) -> Option<UnitKind> {
        // "A/F" is tokenized as "a / f".
        if self.peek() == Some("a") && self.peek_at(1) == Some("/") && self.peek_at(2) == Some("f")
        {
            self.pos += 3;
            return Some(UnitKind::ArmyFleet);
        }
        let kind = UnitKind::from_word(self.peek()?)?;
        // "A" followed by something that is not a province is not a unit kind here.
        self.pos += 1;
        Some(kind)
    }

    fn action(&mut self) -> Result<Action, OrderError> {
        let Some(word) = self.peek().map(str::to_string) else {
            return Ok(Action::Hold);
        };
        let word = word.as_str();
        if HOLD_WORDS.contains(&word) {
            self.pos += 1;
            return Ok(Action::Hold);
        }
        if LAND_WORDS.contains(&word) && self.peek_at(1).is_some() {
            self.pos += 1;
            let to = self.loc("after 'D' (disembark)")?;
            return Ok(Action::Disembark { to });
        }
        if DISBAND_WORDS.contains(&word) {
            self.pos += 1;
            return Ok(Action::Disband);
        }
        if EMBARK_WORDS.contains(&word) {
            self.pos += 1;
            self.unit_kind();
            let fleet = self.loc("after 'E' (embark): the fleet's sea")?;
            return Ok(Action::Embark { fleet });
        }
        if CONVERT_WORDS.contains(&word) || TURN_WORDS.contains(&word) {
            self.pos += 1;
            return self.conversion(TURN_WORDS.contains(&word));
        }
        if SUPPORT_WORDS.contains(&word) {
            self.pos += 1;
            let target = self.target("after 'S'")?;
            let to = if self.move_word() || self.eat(LAND_WORDS) {
                Some(self.loc("after the supported unit's '-'")?)
            } else {
                self.eat(HOLD_WORDS);
                None
            };
            return Ok(Action::Support { target, to });
        }
        if CONVOY_WORDS.contains(&word) {
            self.pos += 1;
            let target = self.target("after 'C'")?;
            if !self.move_word() {
                return Err(
                    self.fail("a convoy needs the army's destination, e.g. 'F Nth C A Lon - Nwy'")
                );
            }
            let to = self.loc("after the convoyed army's '-'")?;
            return Ok(Action::Convoy { target, to });
        }
        if PORTAGE_WORDS.contains(&word) {
            self.pos += 1;
            let target = self.target("after 'P'")?;
            if !self.move_word() {
                return Err(self
                    .fail("a portage needs the fleet's destination, e.g. 'A Den P F Nth - Bal'"));
            }
            let to = self.loc("after the portaged fleet's '-'")?;
            return Ok(Action::Portage { target, to });
        }
        if self.move_word() {
            // Every place but the last is a stop on the way.
            let mut to = self.loc("after '-'")?;
            let mut via = Vec::new();
            while self.move_word() {
                via.push(to.province);
                to = self.loc("after '-'")?;
            }
            let mut convoy = !via.is_empty();
            if matches!(self.peek(), Some("via" | "by"))
                && matches!(self.peek_at(1), Some("convoy" | "c" | "sea"))
            {
                self.pos += 2;
                convoy = true;
            }
            return Ok(Action::Move { to, via, convoy });
        }
        Err(self.fail(format!(
            "'{word}' is not an order: expected '-' (move), 'S' (support), 'C' (convoy), 'H' (hold) or 'Disband'"
        )))
    }

    /// A conversion after its word: `converts`, `converts to a fleet`, `turns into a fleet`
    /// (a turn word, `says_into`, needs what the army becomes), a coast last, nothing else.
    fn conversion(&mut self, says_into: bool) -> Result<Action, OrderError> {
        let misread = |c: &Self| c.fail(CONVERT_FORM);
        if self.eat(&["to", "into"]) || says_into {
            // "a fleet": the article, where "a" alone would be read as an army.
            if matches!(self.peek(), Some("a" | "an"))
                && self
                    .peek_at(1)
                    .is_some_and(|w| UnitKind::from_word(w).is_some())
            {
                self.pos += 1;
            }
            if self.unit_kind() != Some(UnitKind::Fleet) {
                return Err(misread(self));
            }
        }
        let coast = match self.peek() {
            Some("/" | "nc" | "sc" | "ec" | "wc" | "north" | "south" | "east" | "west") => {
                self.coast().map_err(|_| misread(self))?
            }
            _ => None,
        };
        if self.peek().is_some() {
            return Err(misread(self));
        }
        Ok(Action::Convert { coast })
    }

    fn move_word(&mut self) -> bool {
        if self.eat(MOVE_WORDS) {
            self.eat(&["to"]);
            true
        } else {
            false
        }
    }

    fn target(&mut self, context: &str) -> Result<Target, OrderError> {
        let mut power = None;
        if let Some(w) = self.peek() {
            if w.len() > 1 && UnitKind::from_word(w).is_none() && self.map.lookup(w).is_none() {
                power = self.map.power_by_word(w);
                if power.is_some() {
                    self.pos += 1;
                }
            }
        }
        let kind = self.unit_kind();
        let at = self.loc(context)?;
        Ok(Target { power, kind, at })
    }

    fn loc(&mut self, context: &str) -> Result<Loc, OrderError> {
        let Some(first) = self.peek().map(str::to_string) else {
            return Err(self.fail(format!("a province is missing {context}")));
        };
        // "The" is never needed before a name ("the North Sea"), but it may be a name
        // itself (Classical's Thebes is "The"): the reading that uses more words wins.
        let mut found = self.longest_name_at(self.pos);
        if first == "the" {
            if let Some((p, n)) = self.longest_name_at(self.pos + 1) {
                if found.is_none_or(|(_, m)| n + 1 > m) {
                    found = Some((p, n + 1));
                }
            }
        }
        let Some((province, n)) = found else {
            return Err(self.fail(format!("unknown province '{first}'")));
        };
        self.pos += n;
        let coast = self.coast()?;
        Ok(Loc { province, coast })
    }

    /// The province named by the most words starting at `at`, and how many words.
    fn longest_name_at(&self, at: usize) -> Option<(crate::game::ids::ProvinceId, usize)> {
        let max = self
            .map
            .longest_name_words()
            .min(self.words.len().saturating_sub(at));
        (1..=max).rev().find_map(|n| {
            self.map
                .lookup(&self.words[at..at + n].join(" "))
                .map(|p| (p, n))
        })
    }

    fn coast(&mut self) -> Result<Option<Coast>, OrderError> {
        if self.peek() == Some("/") {
            self.pos += 1;
            let Some(word) = self.peek() else {
                return Err(self.fail("a coast is missing after '/'"));
            };
            let Some(coast) = Coast::from_word(word) else {
                return Err(self.fail(format!("unknown coast '{word}': write nc, sc, ec or wc")));
            };
            self.pos += 1;
            self.eat(&["coast"]);
            return Ok(Some(coast));
        }
        if let Some(word) = self.peek() {
            let spelled = matches!(word, "north" | "south" | "east" | "west")
                && self.peek_at(1) == Some("coast");
            if spelled || matches!(word, "nc" | "sc" | "ec" | "wc") {
                let coast = Coast::from_word(word);
                self.pos += if spelled { 2 } else { 1 };
                return Ok(coast);
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_order;
    use crate::game::variant::Variant;

    fn canon(text: &str) -> String {
        let v = Variant::standard();
        match parse_order(&v.map, text) {
            Ok(o) => o.canonical(&v.map),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn moves_in_every_dialect_print_the_same() {
        for text in [
            "A Par-Bur",
            "a par - bur",
            "A Paris -> Burgundy",
            "army paris move to burgundy",
            "A PAR M BUR",
            "Par moves to Bur",
        ] {
            let expected = if text.starts_with("Par") {
                "Par - Bur"
            } else {
                "A Par - Bur"
            };
            assert_eq!(canon(text), expected, "{text}");
        }
    }

    #[test]
    fn supports_convoys_and_holds() {
        assert_eq!(canon("A Mun S A Par-Bur"), "A Mun S A Par - Bur");
        assert_eq!(
            canon("A tyr supports Italian A ven - tri"),
            "A Tyr S Italian A Ven - Tri"
        );
        assert_eq!(
            canon("F North Sea convoys A London - Norway"),
            "F Nth C A Lon - Nwy"
        );
        assert_eq!(canon("F Nth T A Lon-Nwy"), "F Nth C A Lon - Nwy");
        assert_eq!(canon("A Vie stand"), "A Vie H");
        assert_eq!(canon("A Vie"), "A Vie H");
        assert_eq!(canon("A Ber S A Mun H"), "A Ber S A Mun");
    }

    /// Deluge rule 2: "Any army in a coastal province may, instead of being ordered to move
    /// or support, be ordered to turn into a fleet ... [written as, eg, "A Yor converts"]":
    /// the rule's words are read as the order it names, and a misread conversion is told
    /// the accepted form.
    #[test]
    fn conversion_as_the_rule_words_it() {
        for text in [
            "A Lvp converts",
            "A Lvp turns into a fleet",
            "A Lvp converts to a fleet",
            "A Lvp converts into fleet",
            "a lvp turns into a fleet.",
            "A Lvp becomes a fleet",
            "A Lvp converts to F",
        ] {
            assert_eq!(canon(text), "A Lvp converts", "{text}");
        }
        assert_eq!(canon("A Stp turns into a fleet nc"), "A Stp converts nc");
        for text in [
            "A Lvp turns",
            "A Lvp turns into an army",
            "A Lvp converts to a navy",
            "A Lvp converts fleet",
            "A Lvp turns into a fleet now",
        ] {
            let e = canon(text);
            assert!(
                e.starts_with("error:") && e.contains("'A Yor converts'"),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn convoy_routes_and_via_convoy() {
        assert_eq!(canon("A Lon-Nth-Nwy"), "A Lon - Nth - Nwy");
        assert_eq!(canon("A Lon-Nwy via convoy"), "A Lon - Nwy via convoy");
        assert_eq!(canon("F NTH-Den-BAL"), "F Nth - Den - Bal");
        assert_eq!(canon("A Den P F NTH-BAL"), "A Den P F Nth - Bal");
        assert_eq!(
            canon("A Den portages Russian F Nth - Bal"),
            "A Den P Russian F Nth - Bal"
        );
    }

    #[test]
    fn coasts_in_every_form() {
        for text in [
            "F Mid-Spa/nc",
            "F Mid-Spa(nc)",
            "F Mid - Spa (north coast)",
            "F Mid-Spa/north coast",
            "F Mid-Atlantic Ocean - Spain north coast",
        ] {
            assert_eq!(canon(text), "F Mao - Spa/nc", "{text}");
        }
        assert_eq!(
            canon("F St. Petersburg (south coast) - Gulf of Bothnia"),
            "F Stp/sc - Bot"
        );
    }

    /// The Abstraction A/F rules write a unit's province in brackets (Deluge's text).
    #[test]
    fn brackets_round_a_units_province() {
        let v = Variant::builtin("deluge").unwrap();
        let canon = |text: &str| match parse_order(&v.map, text) {
            Ok(o) => o.canonical(&v.map),
            Err(e) => format!("error: {e}"),
        };
        for (text, plain) in [
            ("A(Mar) E F(GOL)", "A Mar E F Lyo"),
            ("A (Mar) E F (GOL)", "A Mar E F Lyo"),
            ("A/F(GOL) - WMS", "A/F Lyo - Wes"),
            ("A/F (GOL) - WMS", "A/F Lyo - Wes"),
            ("A(WMS) D Tun", "A Wes D Tun"),
            ("F(ENG) FF A(Lon) - Bre", "F Eng C A Lon - Bre"),
            ("F(ENG) S A(ENG) D Bre", "F Eng S A Eng D Bre"),
            ("A/F(ENG)", "A/F Eng H"),
            ("Build F(StP)nc", "Build F Stp/nc"),
            ("Army(Mar) - Bur", "A Mar - Bur"),
            ("F Mid-Spa(nc)", "F Mao - Spa/nc"),
        ] {
            assert_eq!(canon(text), canon(plain), "{text}");
            assert!(!canon(text).starts_with("error"), "{text}: {}", canon(text));
        }
    }

    #[test]
    fn adjustment_orders() {
        assert_eq!(canon("Build A Par"), "Build A Par");
        assert_eq!(canon("build fleet stp/nc"), "Build F Stp/nc");
        assert_eq!(canon("Remove F Tri"), "Remove F Tri");
        assert_eq!(canon("WAIVE"), "Waive");
        assert_eq!(canon("Disband A Mun"), "A Mun Disband");
        assert_eq!(canon("A Mun disband"), "A Mun Disband");
    }

    #[test]
    fn rejections_name_the_text_and_the_reason() {
        assert_eq!(
            canon("A Par-Xyz"),
            "error: 'A Par-Xyz': unknown province 'xyz'"
        );
        assert_eq!(
            canon("A Par-"),
            "error: 'A Par-': a province is missing after '-'"
        );
        assert!(canon("F Nth C A Lon").contains("needs the army's destination"));
        assert!(canon("A Par jumps Bur").contains("'jumps' is not an order"));
        assert!(canon("A Par-Bur please").contains("unexpected 'please'"));
        assert!(canon("F Spa/xc-Mao").contains("unknown coast 'xc'"));
    }
}

#[cfg(test)]
mod robustness {
    use super::parse_order;
    use crate::game::variant::Variant;

    /// Thousands of orders put together from pieces of real ones, odd characters and
    /// whitespace: the parser answers every one, and every refusal says why.
    #[test]
    fn the_parser_never_panics_and_always_explains() {
        let pieces = [
            "A",
            "F",
            "Par",
            "bur",
            "-",
            "->",
            "S",
            "C",
            "H",
            "via",
            "convoy",
            "/",
            "(",
            ")",
            "nc",
            "north",
            "coast",
            "Build",
            "Remove",
            "Waive",
            "Disband",
            "Mid-Atlantic",
            "Ocean",
            "St.",
            "Petersburg",
            "Italian",
            "ü",
            "—",
            "  ",
            "\t",
            "m",
            "to",
            "",
            "1901",
            ":",
            ";",
            "Spa/",
            "(sc",
            "the",
            "North Sea",
            "xyz",
        ];
        let v = Variant::standard();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut ok, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let len = (next() % 8) as usize;
            let text: Vec<&str> = (0..len)
                .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                .collect();
            let text = text.join(if next() % 2 == 0 { " " } else { "" });
            match parse_order(&v.map, &text) {
                Ok(order) => {
                    ok += 1;
                    let again = parse_order(&v.map, &order.canonical(&v.map))
                        .expect("canonical form parses");
                    assert_eq!(
                        again, order,
                        "canonical form of '{text}' reads back the same"
                    );
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.why.is_empty(), "'{text}' refused without a reason");
                }
            }
        }
        assert!(ok > 100 && refused > 100, "ok {ok}, refused {refused}");
    }
}
