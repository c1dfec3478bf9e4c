//! The texts herald mails, from minijinja templates: built-in copies of `templates/`, each
//! replaceable by a file of the same name in the keeper's templates directory.

use std::path::Path;

use minijinja::Environment;
use serde::Serialize;

/// The built-in templates by name.
const BUILTIN: &[(&str, &str)] = &[
    ("reply.txt", include_str!("../../templates/reply.txt")),
    ("orders.txt", include_str!("../../templates/orders.txt")),
    ("results.txt", include_str!("../../templates/results.txt")),
    ("press.txt", include_str!("../../templates/press.txt")),
    ("notice.txt", include_str!("../../templates/notice.txt")),
    ("unknown.txt", include_str!("../../templates/unknown.txt")),
    (
        "too_large.txt",
        include_str!("../../templates/too_large.txt"),
    ),
    ("failed.txt", include_str!("../../templates/failed.txt")),
    ("confirm.txt", include_str!("../../templates/confirm.txt")),
    (
        "quarantined.txt",
        include_str!("../../templates/quarantined.txt"),
    ),
    (
        "help/index.txt",
        include_str!("../../templates/help/index.txt"),
    ),
    (
        "help/info.txt",
        include_str!("../../templates/help/info.txt"),
    ),
    (
        "help/syntax.txt",
        include_str!("../../templates/help/syntax.txt"),
    ),
    (
        "help/press.txt",
        include_str!("../../templates/help/press.txt"),
    ),
    (
        "help/deadlines.txt",
        include_str!("../../templates/help/deadlines.txt"),
    ),
    (
        "help/master.txt",
        include_str!("../../templates/help/master.txt"),
    ),
    (
        "help/variants.txt",
        include_str!("../../templates/help/variants.txt"),
    ),
];

/// The help topics `GET` knows.
pub const TOPICS: &[&str] = &["info", "syntax", "press", "deadlines", "master", "variants"];

/// A template that failed to load or render.
#[derive(Debug, thiserror::Error)]
#[error("template {name}: {source}")]
pub struct TemplateError {
    /// The template.
    pub name: String,
    /// What went wrong.
    pub source: minijinja::Error,
}

/// The loaded templates.
pub struct Templates {
    env: Environment<'static>,
}

impl std::fmt::Debug for Templates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Templates")
    }
}

impl Templates {
    /// The built-in templates, with any file of the same name in `dir` in its place.
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_keep_trailing_newline(true);
        env.add_filter("sentence", |text: minijinja::Value| {
            sentence(text.to_string())
        });
        for (name, text) in BUILTIN {
            let text = dir
                .map(|d| d.join(name))
                .and_then(|p| std::fs::read_to_string(p).ok())
                .unwrap_or_else(|| text.to_string());
            env.add_template_owned(name.to_string(), text)
                .map_err(|source| TemplateError {
                    name: name.to_string(),
                    source,
                })?;
        }
        Ok(Templates { env })
    }

    /// Renders a template. A template error is a keeper's mistake in an override: it is
    /// reported in the text rather than losing the mail.
    pub fn render(&self, name: &str, ctx: impl Serialize) -> String {
        match self.env.get_template(name).and_then(|t| t.render(ctx)) {
            Ok(text) => text,
            Err(e) => {
                tracing::error!(template = name, error = %e, "template failed");
                format!("(herald could not render its template {name}: {e})\n")
            }
        }
    }
}

/// Ends a sentence with a full stop, unless its last word already ends with one (a year
/// such as `273 B.C.` or `1 A.D.`): the `sentence` filter of the templates
/// (`{{ next_phase | sentence }}`).
pub fn sentence(mut text: String) -> String {
    if !text.ends_with('.') {
        text.push('.');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ends_with_one_full_stop() {
        assert_eq!(sentence("Spring of 1901".into()), "Spring of 1901.");
        assert_eq!(sentence("Spring of 273 B.C.".into()), "Spring of 273 B.C.");
        assert_eq!(sentence("Spring of 1 A.D.".into()), "Spring of 1 A.D.");
        let t = Templates::load(None).unwrap();
        let text = t.render(
            "results.txt",
            minijinja::context! { next_phase => "Movement for Spring of 272 B.C.", game => "g" },
        );
        assert!(
            text.contains("will be Movement for Spring of 272 B.C.\n"),
            "{text}"
        );
    }

    #[test]
    fn every_builtin_template_renders() {
        let t = Templates::load(None).unwrap();
        for (name, _) in BUILTIN {
            let text = t.render(
                name,
                minijinja::context! { judge => "herald@x", header => "H", lines => vec!["a"] },
            );
            assert!(!text.contains("could not render"), "{name}: {text}");
        }
        let help = t.render(
            "help/index.txt",
            minijinja::context! { judge => "herald@x" },
        );
        assert!(help.contains("herald@x"));
    }

    #[test]
    fn a_keepers_file_replaces_a_template() {
        let dir = std::env::temp_dir().join(format!("herald-tpl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("unknown.txt"), "Bonjour, {{ judge }}.").unwrap();
        let t = Templates::load(Some(&dir)).unwrap();
        assert_eq!(
            t.render("unknown.txt", minijinja::context! { judge => "herald@x" }),
            "Bonjour, herald@x."
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
