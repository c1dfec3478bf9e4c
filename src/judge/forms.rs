//! The right form of each command that takes arguments, for the refusal of a line that
//! starts with a command's words but does not fit it (`SET ADDRESS` with no address, `BECOME
//! France`): the reply names the command and shows its form instead of reading the line as
//! an order or a Master's command.

use super::command::{Read, KEYWORDS};

/// Each command that takes arguments, by its name in [`KEYWORDS`], and its form with an
/// example. `tests/help_truth.rs`'s companion test checks every such keyword has one.
pub const FORMS: &[(&str, &str)] = &[
    ("GET MAP", "GET MAP <variant or game> [SVG], e.g. GET MAP standard"),
    ("GET", "GET <file>, e.g. GET master"),
    ("LIST", "LIST, LIST FULL or LIST <game>"),
    ("HISTORY", "HISTORY <game> [FROM <phase or date>] [TO <phase or date>] [LINES <n>], e.g. HISTORY war FROM S1902M TO F1903M"),
    ("SUMMARY", "SUMMARY <game>, e.g. SUMMARY war"),
    ("CREATE", "CREATE ?<game> <password> [<variant>], e.g. CREATE ?war secret standard"),
    ("OBSERVE", "OBSERVE <game> <password>, e.g. OBSERVE war secret"),
    ("SIGNON", "SIGNON <power letter><game> <password>, e.g. SIGNON Fwar secret (SIGNON ?war secret joins, SIGNON Mwar secret as its Master)"),
    ("SIGN OFF", "SIGNOFF"),
    ("PHASE", "PHASE <phase>, e.g. PHASE F1901M"),
    ("PRESS", "PRESS TO <letters>, the text, then ENDPRESS"),
    ("BROADCAST", "BROADCAST, the text, then ENDPRESS"),
    ("INTERCEPT", "INTERCEPT <power> <power>, e.g. INTERCEPT F G"),
    ("SET MYZONE", "SET MYZONE <zone>, e.g. SET MYZONE Europe/Paris"),
    ("SET PASSWORD", "SET PASSWORD <new password>, one word"),
    ("SET ADDRESS", "SET ADDRESS <address>, e.g. SET ADDRESS ann@example.org"),
    ("SET ABSENCE", "SET ABSENCE <date> TO <date>, e.g. SET ABSENCE 24 Dec TO 2 Jan"),
    ("SET DRAW", "SET DRAW, or in a NODIAS game SET DRAW <powers>, e.g. SET DRAW AEF"),
    ("SET CONCEDE", "SET CONCEDE <power>, e.g. SET CONCEDE Russia"),
    ("SET PREFERENCE", "SET PREFERENCE <letters>, best first, equally good ones in brackets, * for chance, e.g. SET PREFERENCE E[FG]I"),
    ("PROCESS", "PROCESS [<phase>], e.g. PROCESS S1901M"),
    ("SET DEADLINE", "SET DEADLINE <date> <time>, e.g. SET DEADLINE 2026-12-20 18:00"),
    ("SET GRACE", "SET GRACE <date> <time>, e.g. SET GRACE 2026-12-22 18:00"),
    ("SET START", "SET START <date> <time>, e.g. SET START 2026-12-10 18:00"),
    ("SET MOVE", "SET MOVE [NEXT <dur>] [GRACE <dur>] [AT <hh:mm>] [DAYS <days>], e.g. SET MOVE NEXT 7d GRACE 2d"),
    ("SET RETREAT", "SET RETREAT [NEXT <dur>] [GRACE <dur>] [AT <hh:mm>], e.g. SET RETREAT NEXT 36h"),
    ("SET ADJUST", "SET ADJUST [NEXT <dur>] [GRACE <dur>] [AT <hh:mm>], e.g. SET ADJUST NEXT 2d"),
    ("SET ZONE", "SET ZONE <zone>, e.g. SET ZONE Europe/London"),
    ("SET COMMENT", "SET COMMENT <text>, e.g. SET COMMENT Gunboat league, round 2"),
    ("SET RULE", "SET RULE <switch>, e.g. SET RULE portage (GET master lists them)"),
    ("SET PRIVATE", "SET PRIVATE <join word>"),
    ("SET ALLOW", "SET ALLOW <address>, e.g. SET ALLOW ann@example.org"),
    ("SET DENY", "SET DENY <address>, e.g. SET DENY spam@example.org"),
    ("SET NOALLOW", "SET NOALLOW <address>"),
    ("SET NODENY", "SET NODENY <address>"),
    ("BECOME", "BECOME <power letter>, e.g. BECOME F"),
    ("EJECT", "EJECT <power letter>, e.g. EJECT F"),
    ("ROLLBACK", "ROLLBACK <phase> [AFRESH], e.g. ROLLBACK S1902M"),
];

/// The command whose words start `line` (the longest spelling that does, among those that
/// take arguments, the catch-all `SET` aside) and its form, for a line that did not read.
pub fn misfit(line: &str) -> Option<(&'static str, &'static str)> {
    let upper: Vec<String> = line
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let starts = |spelling: &str| {
        let words: Vec<&str> = spelling.split_whitespace().collect();
        (upper.len() >= words.len() && words.iter().zip(&upper).all(|(a, b)| *a == b))
            .then_some(words.len())
    };
    KEYWORDS
        .iter()
        .filter(|k| matches!(k.read, Read::Args(_)) && k.name != "SET")
        .filter_map(|k| {
            let n = std::iter::once(k.name)
                .chain(k.aliases.iter().copied())
                .filter_map(starts)
                .max()?;
            Some((n, k.name))
        })
        .max_by_key(|(n, _)| *n)
        .and_then(|(_, name)| FORMS.iter().find(|(k, _)| *k == name).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_with_arguments_has_its_form() {
        for k in KEYWORDS {
            if matches!(k.read, Read::Args(_)) && k.name != "SET" {
                assert!(
                    FORMS.iter().any(|(name, _)| *name == k.name),
                    "no form for {}",
                    k.name
                );
            }
        }
        for (name, _) in FORMS {
            assert!(KEYWORDS.iter().any(|k| k.name == *name), "{name}");
        }
    }

    #[test]
    fn a_line_that_does_not_fit_finds_its_command() {
        assert_eq!(misfit("set address").map(|f| f.0), Some("SET ADDRESS"));
        assert_eq!(
            misfit("SET ADDRESS a@b.org c@d.org").map(|f| f.0),
            Some("SET ADDRESS")
        );
        assert_eq!(misfit("become France").map(|f| f.0), Some("BECOME"));
        assert_eq!(misfit("A Par-Bur"), None);
        assert_eq!(misfit("SET FOO"), None);
    }
}
