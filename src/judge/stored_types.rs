//! Tests of the typed values a stored game keeps (issue 26, part 2: "switches resolved at
//! CREATE/SET RULE into typed rules; ... zones, endings and mail kinds as types (text only at
//! the serde boundary)"): what a stored game of today still loads as, and what is refused
//! by name rather than skipped.

use serde_json::{json, Value};

use super::game::{Game, Status};
use super::testkit::{judge, mail, reply, start, GM};
use super::Games;
use crate::game::rules::{BuildSites, Setting};

/// A running standard game as stored, with `field` (a top-level key) set to `value`.
fn stored_with(field: &str, value: Value) -> Value {
    let mut v = serde_json::to_value(super::testkit::running_game()).unwrap();
    v[field] = value;
    v
}

/// A game as herald stores it, read back.
fn load(v: Value) -> Result<Game, serde_json::Error> {
    serde_json::from_value(v)
}

/// Issue 26: "rule switches are strings re-applied on every one of 10 calls, failures
/// silently skipped". A stored switch this herald cannot read fails the game's load with an
/// error naming it (the store then reports the game by name), never silently dropped.
#[test]
fn a_stored_game_with_an_unknown_switch_is_refused_by_name() {
    let err = load(stored_with("rules", json!(["dip_points", "frobnicate"]))).unwrap_err();
    assert!(err.to_string().contains("'frobnicate'"), "{err}");
    let err = load(stored_with("rules", json!(["victory=many"]))).unwrap_err();
    assert!(
        err.to_string().contains("victory=N needs a number"),
        "{err}"
    );
}

/// Switches as today's herald stores them (as the Master wrote them, any case, `-` or `_`)
/// load as settings, and the game's rules are its variant's with them applied.
#[test]
fn stored_switches_load_as_settings_and_shape_the_rules() {
    let g = load(stored_with(
        "rules",
        json!(["Remote-Builds", "victory=20", "rules=1982", "anycentre"]),
    ))
    .unwrap();
    assert_eq!(
        g.rules,
        [
            Setting::BuildSites(BuildSites::AnyOwned),
            Setting::Victory(20),
            Setting::Edition(crate::game::rules::Edition::Rules1982),
            Setting::BuildSites(BuildSites::AnyOwned),
        ]
    );
    let rules = judge().rules(&g);
    assert_eq!(rules.victory_centres, 20);
    assert_eq!(rules.build_sites, BuildSites::AnyOwned);
    // Written back as their canonical text, which reads the same.
    let back = serde_json::to_value(&g).unwrap();
    assert_eq!(
        back["rules"],
        json!(["remote_builds", "victory=20", "rules=1982", "remote_builds"])
    );
    assert_eq!(load(back).unwrap().rules, g.rules);
}

/// SET RULE with a bad switch is refused and nothing is stored; a good one is stored read.
#[test]
fn set_rule_stores_only_a_switch_it_read() {
    let j = judge();
    let mut games = Games::new();
    mail(&j, &mut games, GM, "CREATE ?g gmpass", start());
    let h = mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nSET RULE frobnicate\nSET RULE victory=0\nSET RULE survivors_share",
        start(),
    );
    let text = &reply(&h, GM).body;
    assert!(text.contains("unknown rule switch 'frobnicate'"), "{text}");
    assert!(text.contains("victory needs at least one centre"), "{text}");
    assert_eq!(games["g"].status, Status::Forming);
    assert!(games["g"].rules.is_empty(), "{:?}", games["g"].rules);
    mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nSET RULE Portage",
        start(),
    );
    assert_eq!(games["g"].rules, [Setting::Portage]);
    let created = mail(
        &j,
        &mut games,
        GM,
        "CREATE ?h pw standard victory=x",
        start(),
    );
    assert!(reply(&created, GM)
        .body
        .contains("the game was not created"));
    assert!(!games.contains_key("h"));
}

/// Issue 26: "time zones re-parsed with a silent UTC fallback". A stored zone is read when
/// the game loads: a name this herald does not know (only a hand-edited game can hold one)
/// fails the load with an error naming it, where dates were shown in UTC without a word.
#[test]
fn a_stored_game_with_an_unknown_zone_is_refused_by_name() {
    let mut v = stored_with("rules", json!([]));
    v["settings"]["zone"] = json!("Mars/Olympus");
    let err = load(v).unwrap_err();
    assert!(err.to_string().contains("'Mars/Olympus'"), "{err}");
    let mut v = stored_with("rules", json!([]));
    v["seats"][0]["zone"] = json!("Europe/Atlantis");
    let err = load(v).unwrap_err();
    assert!(err.to_string().contains("'Europe/Atlantis'"), "{err}");
}

/// Zones as today's herald stores them load as zones and are written back by the same name.
#[test]
fn stored_zones_load_and_are_written_back_by_name() {
    let mut v = stored_with("rules", json!([]));
    v["settings"]["zone"] = json!("US/Eastern");
    v["seats"][0]["zone"] = json!("Europe/Paris");
    let g = load(v.clone()).unwrap();
    assert_eq!(g.settings.zone, chrono_tz::US::Eastern);
    assert_eq!(g.seats[0].zone, Some(chrono_tz::Europe::Paris));
    assert_eq!(g.seats[1].zone, None);
    let address = g.seats[0].member.address.clone();
    assert_eq!(judge().zone_for(&g, &address), chrono_tz::Europe::Paris);
    assert_eq!(judge().zone_for(&g, GM), chrono_tz::US::Eastern);
    let back = serde_json::to_value(&g).unwrap();
    assert_eq!(back["settings"]["zone"], json!("US/Eastern"));
    assert_eq!(back["seats"][0]["zone"], json!("Europe/Paris"));
    assert!(back["seats"][1].get("zone").is_none());
}

/// SET ZONE and SET MYZONE store only a zone they read; a wrong name changes nothing.
#[test]
fn set_zone_stores_only_a_zone_it_read() {
    let j = judge();
    let mut games = super::testkit::started(&j);
    let h = mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nSET ZONE Mars/Olympus\nSET ZONE Asia/Tokyo",
        start(),
    );
    assert!(reply(&h, GM)
        .body
        .contains("'Mars/Olympus' is not a time zone"));
    assert_eq!(games["g"].settings.zone, chrono_tz::Asia::Tokyo);
    let (ann, letter) = super::testkit::SEVEN[0];
    let body =
        format!("SIGNON {letter}g pw{letter}\nSET MYZONE Nowhere/Else\nSET MYZONE Europe/Rome");
    let h = mail(&j, &mut games, ann, &body, start());
    assert!(reply(&h, ann)
        .body
        .contains("'Nowhere/Else' is not a time zone"));
    let seat = games["g"]
        .seats
        .iter()
        .find(|s| s.member.address == ann)
        .unwrap();
    assert_eq!(seat.zone, Some(chrono_tz::Europe::Rome));
}

/// Issue 26: "outcomes ... as types (text only at the serde boundary)". An ending as today's
/// herald stores it loads as an [`Ending`] and is written back in the same words; words it
/// never wrote fail the load, naming them.
#[test]
fn stored_endings_load_as_endings_and_others_are_refused() {
    use super::ending::Ending;
    let g = load(stored_with("outcome", json!("Conceded to Italy"))).unwrap();
    assert_eq!(g.outcome, Some(Ending::Conceded("Italy".into())));
    let back = serde_json::to_value(&g).unwrap();
    assert_eq!(back["outcome"], json!("Conceded to Italy"));
    assert_eq!(
        load(stored_with("outcome", Value::Null)).unwrap().outcome,
        None
    );
    let err = load(stored_with("outcome", json!("Won by default"))).unwrap_err();
    assert!(err.to_string().contains("'Won by default'"), "{err}");
}
