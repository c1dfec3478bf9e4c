//! The command parser's tests: each command's spellings.

use super::super::def::Read;
use super::super::*;
use crate::game::calendar::PhaseKind;
use crate::judge::cmd::context::Recipients;
use crate::judge::game::PressPolicy;

#[test]
fn keywords_any_case_and_spacing() {
    assert_eq!(parse_command("set nowait"), PlayerCommand::Wait(false));
    assert_eq!(parse_command("SET NO WAIT"), PlayerCommand::Wait(false));
    assert_eq!(parse_command("setnowait"), PlayerCommand::Wait(false));
    assert_eq!(parse_command("Sign Off"), Command::Signoff);
    assert_eq!(
        parse_command("process!"),
        LifeCommand::Process {
            phase: None,
            force: true
        }
    );
    assert_eq!(
        parse_command("PROCESS S1901M"),
        LifeCommand::Process {
            phase: Some("S1901M".into()),
            force: false
        }
    );
}

#[test]
fn signon_forms() {
    assert_eq!(
        parse_command("signon Fwar1901 secret"),
        SignonCommand::Signon {
            who: SignonAs::Power('F'),
            game: "war1901".into(),
            password: "secret".into()
        }
    );
    assert_eq!(
        parse_command("SIGNON ?war1901 pw"),
        SignonCommand::Signon {
            who: SignonAs::Join,
            game: "war1901".into(),
            password: "pw".into()
        }
    );
    assert_eq!(
        parse_command("signon mwar1901 pw"),
        SignonCommand::Signon {
            who: SignonAs::Master,
            game: "war1901".into(),
            password: "pw".into()
        }
    );
    assert_eq!(
        parse_command("CREATE ?war1901 pw classical"),
        SignonCommand::Create {
            game: "war1901".into(),
            password: "pw".into(),
            variant: Some("classical".into()),
            options: vec![]
        }
    );
    assert_eq!(
        parse_command("create ?g pw standard remote_builds victory=20"),
        SignonCommand::Create {
            game: "g".into(),
            password: "pw".into(),
            variant: Some("standard".into()),
            options: vec!["remote_builds".into(), "victory=20".into()]
        }
    );
    // Issue 37: "`CREATE ?g pw last_year=1901` (no variant named; the docs say the variant
    // is optional) ... a word with `=` (a switch) after the password means the variant is
    // the default one."
    assert_eq!(
        parse_command("CREATE ?g pw last_year=1901 victory=20"),
        SignonCommand::Create {
            game: "g".into(),
            password: "pw".into(),
            variant: None,
            options: vec!["last_year=1901".into(), "victory=20".into()]
        }
    );
    assert_eq!(
        parse_command("SET RULE remote_builds"),
        SettingsCommand::Rule("remote_builds".into())
    );
}

#[test]
fn press_headers() {
    assert_eq!(
        parse_command("PRESS"),
        PressCommand::Press {
            to: Recipients::Nobody,
            grey: None,
            unknown: vec![]
        }
    );
    assert_eq!(
        parse_command("press to fg grey"),
        PressCommand::Press {
            to: Recipients::To("FG".into()),
            grey: Some(true),
            unknown: vec![]
        }
    );
    assert_eq!(
        parse_command("PRESS TO ALL BUT GO"),
        PressCommand::Press {
            to: Recipients::AllBut("GO".into()),
            grey: None,
            unknown: vec![]
        }
    );
    assert_eq!(
        parse_command("broadcast"),
        PressCommand::Press {
            to: Recipients::All,
            grey: None,
            unknown: vec![]
        }
    );
}

#[test]
fn master_settings_and_orders() {
    assert_eq!(
        parse_command("SET MOVE NEXT 3d AT 18:00"),
        TimingCommand::Timing(
            PhaseKind::Movement,
            Ok(crate::judge::timing_change::TimingChange {
                next: Some(3 * 24 * 60),
                at: Some(18 * 60),
                ..Default::default()
            })
        )
    );
    assert_eq!(
        parse_command("set press grey"),
        SettingsCommand::PressPolicy(PressPolicy::Grey)
    );
    assert_eq!(parse_command("BECOME f"), LifeCommand::Become('F'));
    assert_eq!(
        parse_command("A Par-Bur"),
        OrdersCommand::Order("A Par-Bur".into())
    );
    assert_eq!(
        parse_command("SET COLOUR red"),
        SettingsCommand::UnknownSet("SET COLOUR red".into())
    );
}

/// Every spelling in the table is read as its command: a whole-line one as itself, one with
/// arguments with none, one or two of them.
#[test]
fn every_spelling_in_the_table_is_read() {
    for k in keywords() {
        for spelling in std::iter::once(k.name).chain(k.aliases.iter().copied()) {
            match k.read {
                Read::Line(command) => {
                    assert_eq!(parse_command(spelling), command(), "{spelling}");
                    assert_eq!(
                        parse_command(&spelling.to_ascii_lowercase().replace(' ', "")),
                        command(),
                        "{spelling}"
                    );
                }
                Read::Args(_) if spelling == "SET" => {}
                Read::Args(_) => {
                    let read = ["", " x", " x y"].map(|a| parse_command(&format!("{spelling}{a}")));
                    assert!(
                        read.iter().any(|c| !matches!(
                            c,
                            Command::Orders(OrdersCommand::Order(_))
                                | Command::Settings(SettingsCommand::UnknownSet(_))
                        )),
                        "{spelling}: {read:?}"
                    );
                }
            }
        }
    }
    assert_eq!(
        parse_command("SET FLY"),
        SettingsCommand::UnknownSet("SET FLY".into())
    );
    assert_eq!(
        parse_command("HISTORY"),
        OrdersCommand::Order("HISTORY".into())
    );
    assert_eq!(
        parse_command("SET PASSWORD a b"),
        SettingsCommand::UnknownSet("SET PASSWORD a b".into())
    );
}
