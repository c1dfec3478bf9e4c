//! What real mail clients and phone keyboards add to a player's mail (a byte-order mark,
//! invisible and no-break spaces, typographic dashes, a wrapped "On … wrote:", a "Sent from
//! my iPhone" footer), and the spellings players type for provinces on every built-in map:
//! all read as the player meant (issue 13, point 6); HTML-only mail from webmail, one line
//! per `<div>`, and vacation replies marked in the ways herald did not know (issue 24).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use herald::game::map::{builtin, normalize, spellings, Map, MapSource};
use herald::game::order::parse_order;
use herald::game::variant::Variant;
use herald::judge::cmd::{parse_command, Command, SignonCommand};
use herald::judge::text::typed_lines;
use support::{to, World};

/// Every built-in map as players meet it: as each variant starts, and Deluge once all its
/// floods and new land have come.
fn built_in_maps() -> Vec<(String, Map)> {
    let mut maps: Vec<(String, Map)> = [
        Variant::standard(),
        Variant::classical(),
        Variant::deluge(),
        Variant::world1880(),
        Variant::portage(),
    ]
    .into_iter()
    .map(|v| (v.name.to_string(), v.map))
    .collect();
    let flooded = MapSource::new(builtin::DELUGE).build(|_| true).unwrap();
    maps.push(("deluge after every change".into(), flooded));
    maps
}

/// What a name reads as on a map: the province's abbreviation.
fn abbr_of(map: &Map, name: &str) -> Option<String> {
    map.lookup(&normalize(name))
        .map(|p| map.abbr(p).to_string())
}

#[test]
fn every_name_and_spelling_names_its_own_province_on_every_built_in_map() {
    for (variant, map) in built_in_maps() {
        assert!(
            map.ambiguous_spellings().is_empty(),
            "{variant}: spellings that fit two provinces: {:?}",
            map.ambiguous_spellings()
        );
        for p in map.province_ids() {
            let prov = map.province(p);
            let given: Vec<&String> = [&prov.abbr, &prov.name]
                .into_iter()
                .chain(&prov.aliases)
                .collect();
            for name in &given {
                assert_eq!(
                    map.lookup(&normalize(name)),
                    Some(p),
                    "{variant}: '{name}' of {}",
                    prov.abbr
                );
            }
            let mut derived = spellings(&prov.name, prov.terrain.is_water());
            for a in &prov.aliases {
                derived.extend(spellings(a, false));
            }
            for form in derived {
                let Some(q) = map.lookup(&form) else {
                    // Left out only because it is a power's word.
                    assert!(
                        map.power_by_word(&form).is_some(),
                        "{variant}: spelling '{form}' of {} reads as nothing",
                        prov.abbr
                    );
                    continue;
                };
                // A spelling gives way only to a name another province is given outright.
                if q != p {
                    let other = map.province(q);
                    assert!(
                        [&other.abbr, &other.name]
                            .into_iter()
                            .chain(&other.aliases)
                            .any(|n| normalize(n) == form),
                        "{variant}: spelling '{form}' of {} reads as {}",
                        prov.abbr,
                        other.abbr
                    );
                    assert_eq!(
                        (variant.as_str(), form.as_str(), prov.abbr.as_str()),
                        ("world1880", "java", "Jav"),
                        "a spelling shadowed by another province's name"
                    );
                }
            }
        }
    }
}

/// A name that reads the same as two names with a hyphen between would swallow a move
/// (`A X-Y` read as the one province "X-Y"): no built-in map has one.
#[test]
fn no_move_between_two_provinces_reads_as_one_name() {
    let mut swallowed = Vec::new();
    for (variant, map) in built_in_maps() {
        for p in map.province_ids() {
            let prov = map.province(p);
            let mut forms: Vec<String> = [&prov.abbr, &prov.name]
                .into_iter()
                .chain(&prov.aliases)
                .map(|n| normalize(n))
                .collect();
            forms.extend(spellings(&prov.name, prov.terrain.is_water()));
            for form in forms {
                let words: Vec<&str> = form.split(' ').filter(|w| *w != "-").collect();
                for cut in 1..words.len() {
                    let (left, right) = (words[..cut].join(" "), words[cut..].join(" "));
                    let Some(whole) = map.lookup(&format!("{left} - {right}")) else {
                        continue;
                    };
                    let other = |part: &str| map.lookup(part).is_some_and(|q| q != whole);
                    if other(&left) || other(&right) {
                        swallowed.push(format!("{variant}: '{left}-{right}' ({})", prov.abbr));
                    }
                }
            }
        }
    }
    assert!(swallowed.is_empty(), "{swallowed:#?}");
}

#[test]
fn the_spellings_players_type_read_on_the_standard_boards() {
    let cases = [
        ("Mid Atlantic Ocean", "Mao"),
        ("Mid-Atlantic", "Mao"),
        ("Mid Atlantic", "Mao"),
        ("mid-atlantic ocean", "Mao"),
        ("MIDATLANTIC", "Mao"),
        ("North Atlantic", "Nao"),
        ("Eastern Med", "Eas"),
        ("East Med", "Eas"),
        ("Eastern Mediterranean Sea", "Eas"),
        ("Eastern Mediterranean", "Eas"),
        ("Western Med", "Wes"),
        ("Western Mediterranean Sea", "Wes"),
        ("West Mediterranean", "Wes"),
        ("Gulf of Lyon", "Lyo"),
        ("Gulf of Lyons", "Lyo"),
        ("Gulf of Lion", "Lyo"),
        ("Gulf of Bothnia", "Bot"),
        ("Helgoland", "Hel"),
        ("Heligoland", "Hel"),
        ("Heligoland Bight", "Hel"),
        ("St Petersburg", "Stp"),
        ("St. Petersburg", "Stp"),
        ("Saint Petersburg", "Stp"),
        ("St.Petersburg", "Stp"),
        ("Saint-Petersburg", "Stp"),
        ("North Sea", "Nth"),
        ("English Channel", "Eng"),
        ("Tyrrhenian", "Tys"),
        ("Tyrrhenian Sea", "Tys"),
        ("Ionian", "Ion"),
        ("Ionian Sea", "Ion"),
        ("Aegean", "Aeg"),
        ("Black Sea", "Bla"),
        ("Baltic", "Bal"),
        ("Baltic Sea", "Bal"),
        ("Skagerrak", "Ska"),
        ("Skagerak", "Ska"),
        ("Skagerrak Sea", "Ska"),
        ("Barents", "Bar"),
        ("Barents Sea", "Bar"),
        ("Norwegian Sea", "Nwg"),
        ("Irish Sea", "Iri"),
        ("Adriatic", "Adr"),
        ("Adriatic Sea", "Adr"),
        ("North Africa", "Naf"),
    ];
    for variant in [Variant::standard(), Variant::deluge(), Variant::portage()] {
        for (name, abbr) in cases {
            assert_eq!(
                abbr_of(&variant.map, name).as_deref(),
                Some(abbr),
                "{}: '{name}'",
                variant.name
            );
        }
    }
}

#[test]
fn shortened_names_read_on_the_classical_and_world_maps() {
    let classical = Variant::classical();
    for (name, abbr) in [
        ("Tyrrhenian Sea", "Mty"),
        ("Adriatic", "Mad"),
        ("Adriatic Sea", "Mad"),
        ("Ionian Sea", "Mio"),
        ("Black Sea", "Pon"),
        ("Euxine", "Pon"),
        ("Sea of Marmara", "Pro"),
        ("Pillars", "Poh"),
        ("Ligurian Sea", "Sli"),
        ("Gulf of Tarentum", "Sta"),
        ("Coele Syria", "Coe"),
        ("Coele-Syria", "Coe"),
        ("Aegean", "AeS"),
        ("Cretan", "Crs"),
        ("Magna Grecian", "Mgs"),
        ("Fetters", "Fet"),
    ] {
        assert_eq!(
            abbr_of(&classical.map, name).as_deref(),
            Some(abbr),
            "'{name}'"
        );
    }
    let world = Variant::world1880();
    for (name, abbr) in [
        ("Eastern Med", "Eme"),
        ("East Mediterranean", "Eme"),
        ("Western Mediterranean Sea", "Wme"),
        ("North Atlantic", "Nao"),
        ("Indian", "Ioc"),
        ("Saint Petersburg", "Stp"),
        ("St. Petersburg", "Stp"),
        ("Gulf of Saint Lawrence", "Gsl"),
        ("Philippine", "Phs"),
        ("Java Sea", "Jav"),
        ("Java", "Bat"),
        ("South China", "Scs"),
        ("Walvis", "Wal"),
    ] {
        assert_eq!(abbr_of(&world.map, name).as_deref(), Some(abbr), "'{name}'");
    }
    // A power's name is never taken for a sea: "Japan Sea" does not make "Japan" a sea.
    assert_eq!(abbr_of(&world.map, "Japan Sea").as_deref(), Some("Soj"));
    assert_eq!(abbr_of(&world.map, "Japan"), None);
}

#[test]
fn orders_with_long_and_odd_province_names_parse() {
    let v = Variant::standard();
    let canon = |text: &str| match parse_order(&v.map, text) {
        Ok(o) => o.canonical(&v.map),
        Err(e) => format!("error: {e}"),
    };
    for (text, want) in [
        ("F Mid-Atlantic Ocean - Spain", "F Mao - Spa"),
        (
            "F Mid Atlantic Ocean - Spain (north coast)",
            "F Mao - Spa/nc",
        ),
        ("F Mid Atlantic - Spain/sc", "F Mao - Spa/sc"),
        ("A Mid Atlantic Ocean - Spain", "A Mao - Spa"),
        ("F Eastern Med S F Aegean Sea", "F Eas S F Aeg"),
        ("F East Med S F Aegean", "F Eas S F Aeg"),
        ("F Eastern Mediterranean Sea - Ionian", "F Eas - Ion"),
        (
            "F St. Petersburg (south coast) - Gulf of Bothnia",
            "F Stp/sc - Bot",
        ),
        ("F Saint Petersburg sc - Gulf of Bothnia", "F Stp/sc - Bot"),
        ("F St Petersburg/nc - Barents", "F Stp/nc - Bar"),
        (
            "F Gulf of Lion S F Western Med - Tyrrhenian",
            "F Lyo S F Wes - Tys",
        ),
        ("F Heligoland - North Sea", "F Hel - Nth"),
        ("F Skagerak - Baltic", "F Ska - Bal"),
        ("F North Atlantic - Mid Atlantic", "F Nao - Mao"),
        ("F Irish Sea - English Channel", "F Iri - Eng"),
        (
            "F Black Sea S A Sevastopol - Rumania",
            "F Bla S A Sev - Rum",
        ),
        (
            "F Norwegian Sea C A Edinburgh - Norway",
            "F Nwg C A Edi - Nwy",
        ),
        ("F Spain south coast - Mid Atlantic", "F Spa/sc - Mao"),
        ("F Bul east coast - Black", "F Bul/ec - Bla"),
    ] {
        assert_eq!(canon(text), want, "{text}");
    }
}

#[test]
fn a_byte_order_mark_before_signon_is_read_as_signon() {
    let body = "\u{FEFF}SIGNON Fgame pw\r\nA Par \u{2013} Bur\r\n";
    let lines = typed_lines(body);
    assert!(
        matches!(
            parse_command(&lines[0].1),
            Command::Signon(SignonCommand::Signon { .. })
        ),
        "{lines:?}"
    );
    assert_eq!(lines[1].1, "A Par - Bur");
}

/// France writes from a phone: a byte-order mark, no-break and zero-width spaces, dashes
/// the keyboard chose, long names, the iPhone footer, and Gmail's attribution wrapped over
/// two lines above the quoted reply. herald reads every order and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_from_a_phone_is_read_as_the_player_meant() {
    let mut w = World::new("quirks").await;
    support::start_game(
        &mut w,
        "gm@example.org",
        "phone",
        "standard",
        &support::SEVEN,
    )
    .await;
    let body = "\u{FEFF}SIGNON Fphone pwF\n\
                A Par \u{2013} Bur\n\
                A\u{00A0}Mar\u{200B} \u{2212} Spa\n\
                F Brest \u{2014} Mid Atlantic Ocean\n\
                \n\
                Sent from my iPhone\n\
                \n\
                On Tue, Dec 1, 2026 at 10:00 AM herald <judge@herald.test>\n\
                wrote:\n\
                \n\
                > Game 'phone' has started.\n";
    let sent = w
        .mail_with_headers(
            "bob@example.org",
            "orders",
            "Content-Type: text/plain; charset=utf-8\r\n",
            body,
        )
        .await;
    let r = to(&sent, "bob@example.org");
    assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    for order in ["  A Par - Bur", "  A Mar - Spa", "  F Bre - Mao"] {
        assert!(r.body.contains(order), "{order}: {}", r.body);
    }
    assert!(r.body.contains("France: orders complete."), "{}", r.body);
    assert!(!r.body.contains("iPhone"), "{}", r.body);
    assert!(!r.body.contains("wrote:"), "{}", r.body);
}

/// Issue 24: "HTML-only mail with one `<div>` per line (Gmail, Apple Mail, Outlook on the
/// web) becomes one line, so the sign-on fails as "Invalid password"". France writes from
/// Gmail's web client, HTML only, quoting herald's last mail below; herald reads each line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_html_only_mail_from_webmail_is_read_line_by_line() {
    let mut w = World::new("quirks-html").await;
    support::start_game(&mut w, "gm@example.org", "web", "standard", &support::SEVEN).await;
    let gmail = "<div dir=\"ltr\">SIGNON Fweb pwF<div>A Par \u{2013} Bur</div><div>A Mar&nbsp;- Spa</div><div>F Bre H</div></div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Tue, Dec 1, 2026 at 10:00 AM herald &lt;<a href=\"mailto:judge@herald.test\">judge@herald.test</a>&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex\"><div>Game 'web' has started.</div></blockquote></div>\n";
    let sent = w
        .mail_with_headers(
            "bob@example.org",
            "orders",
            "MIME-Version: 1.0\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n",
            gmail,
        )
        .await;
    let r = to(&sent, "bob@example.org");
    assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    for order in ["  A Par - Bur", "  A Mar - Spa", "  F Bre H"] {
        assert!(r.body.contains(order), "{order}: {}", r.body);
    }
    // Outlook on the web: paragraphs and divs with styles, a style sheet in the head.
    let owa = "<html><head><style type=\"text/css\" style=\"display:none;\"> P {margin-top:0;margin-bottom:0;} </style></head><body dir=\"ltr\"><div class=\"elementToProof\" style=\"font-family: Aptos, sans-serif; font-size: 12pt;\">SIGNON Gweb pwG</div><div class=\"elementToProof\" style=\"font-size: 12pt;\"><span>A Mun H</span></div><p class=\"elementToProof\">A Ber H</p><div>F Kie H</div></body></html>";
    let sent = w
        .mail_with_headers(
            "cat@example.org",
            "orders",
            "MIME-Version: 1.0\r\nContent-Type: text/html; charset=\"iso-8859-1\"\r\n",
            owa,
        )
        .await;
    let r = to(&sent, "cat@example.org");
    assert!(r.body.contains("Germany: orders complete."), "{}", r.body);
}

/// Issue 24: auto-replies "marked only by `X-Autoreply`, `X-Autorespond`, `Precedence:
/// auto_reply` or an "Out of Office" subject" get no answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacation_replies_are_not_answered() {
    let mut w = World::new("quirks-away").await;
    for (headers, subject) in [
        ("X-Autoreply: yes\r\n", "Re: orders"),
        ("X-Autorespond: Re: orders\r\n", "Re: orders"),
        ("Precedence: auto_reply\r\n", "Re: orders"),
        ("", "Out of Office: Re: orders"),
        ("", "Automatic reply: Re: orders"),
    ] {
        let sent = w
            .mail_with_headers("away@example.org", subject, headers, "I am away.\n")
            .await;
        assert!(sent.is_empty(), "{headers}{subject}: {sent:#?}");
    }
    let sent = w.mail("away@example.org", "help", "HELP\n").await;
    assert_eq!(sent.len(), 1, "a person's mail is answered");
}
