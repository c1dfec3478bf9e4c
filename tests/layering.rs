//! The layers of ../shared/DESIGN.md, read from the sources themselves: every `crate::` and
//! `super::` path in `src/` (outside test modules and comments) is an import of the module
//! it names. The nevers: `game` imports nothing of herald's outside itself; `judge` never
//! imports `mail`, `store`, `service` or `daemon`; `store` and `mail` never import `judge`,
//! nor each other; `main.rs` never touches the store; and no modules import each other in a
//! circle (a parent naming its own children does not count).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The module a source file holds: `src/judge/cmd/mod.rs` is `judge::cmd`.
fn module_of(file: &Path) -> Module {
    let rel = file.strip_prefix("src").expect("under src");
    let mut parts: Module = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its test module and comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path written `crate::a::b…` or `super::…::a::b…` (braces expanded one level), as
/// absolute segments.
fn paths(module: &Module, is_dir_module: bool, code: &str) -> Vec<Module> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let text: String = bytes.iter().collect();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            let before = text[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            // Segments up to the first character that is no part of a path.
            let tail: String = text[at..]
                .chars()
                .take_while(|c| {
                    c.is_alphanumeric()
                        || *c == '_'
                        || *c == ':'
                        || *c == '{'
                        || *c == '}'
                        || *c == ','
                        || *c == ' '
                        || *c == '\n'
                })
                .collect();
            let (head, braces) = match tail.split_once('{') {
                Some((h, rest)) => (h.to_string(), rest.split('}').next().map(str::to_string)),
                None => (
                    tail.split([' ', '\n', ',', '}'])
                        .next()
                        .unwrap_or("")
                        .to_string(),
                    None,
                ),
            };
            let mut segs: Vec<&str> = head.split("::").filter(|s| !s.is_empty()).collect();
            let mut base: Module = if segs.first() == Some(&"crate") {
                segs.remove(0);
                Vec::new()
            } else {
                let mut b = module.clone();
                if !is_dir_module {
                    b.pop();
                }
                segs.remove(0);
                while segs.first() == Some(&"super") {
                    segs.remove(0);
                    b.pop();
                }
                b
            };
            base.extend(segs.iter().map(|s| s.trim().to_string()));
            match braces {
                Some(items) => {
                    for item in items.split(',') {
                        let first = item.trim().split("::").next().unwrap_or("").trim();
                        if !first.is_empty() && first != "self" {
                            let mut p = base.clone();
                            p.push(first.to_string());
                            out.push(p);
                        }
                    }
                    out.push(base);
                }
                None => out.push(base),
            }
        }
    }
    out
}

/// Each module and the modules it imports (the longest prefix of each path that is a
/// module), without itself and its own descendants.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        let dir_module = file
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let text = std::fs::read_to_string(file).expect("readable source");
        let mut deps = BTreeSet::new();
        for path in paths(&module, dir_module, &code(&text)) {
            let found = (1..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|p| modules.contains(p));
            if let Some(dep) = found {
                if !dep.starts_with(&module) {
                    deps.insert(dep);
                }
            }
        }
        graph.insert(module, deps);
    }
    graph
}

fn name(m: &Module) -> String {
    m.join("::")
}

#[test]
fn the_reader_sees_imports() {
    let g = graph();
    let deps = |m: &str| -> BTreeSet<String> {
        g[&m.split("::").map(str::to_string).collect::<Module>()]
            .iter()
            .map(name)
            .collect()
    };
    // `use super::game::{Game, Status};` in judge/session.rs, `use crate::envelope::Letter;`.
    assert!(
        deps("judge::session").contains("judge::game"),
        "{:?}",
        deps("judge::session")
    );
    assert!(deps("judge::session").contains("envelope"));
    // `use crate::judge::session::{Role, Session};` in a command file.
    assert!(deps("judge::cmd::life").contains("judge::session"));
    assert!(deps("service").contains("store") && deps("service").contains("judge"));
}

#[test]
fn no_layer_imports_what_it_must_not() {
    let g = graph();
    let mut wrong = Vec::new();
    for (module, deps) in &g {
        let top = module.first().map(String::as_str).unwrap_or("");
        for dep in deps {
            let to = dep[0].as_str();
            let forbidden = match top {
                "game" => to != "game",
                "judge" => matches!(to, "mail" | "store" | "service" | "daemon"),
                "store" => matches!(to, "judge" | "mail" | "service" | "daemon"),
                "mail" => matches!(to, "judge" | "store" | "service" | "daemon"),
                _ => false,
            };
            if forbidden {
                wrong.push(format!("{} imports {}", name(module), name(dep)));
            }
        }
    }
    let main = std::fs::read_to_string("src/main.rs").expect("main.rs");
    if code(&main).contains("herald::store") {
        wrong.push("main.rs uses the store directly".into());
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let g = graph();
    // Tarjan's strongly connected components.
    struct State<'a> {
        g: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        circles: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let Some((w, _)) = s.g.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut circle = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                circle.push(name(w));
                if w == v {
                    break;
                }
            }
            if circle.len() > 1 {
                s.circles.push(circle);
            }
        }
    }
    let mut s = State {
        g: &g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        circles: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    assert!(s.circles.is_empty(), "{:#?}", s.circles);
}

#[test]
fn no_file_is_too_long_to_read() {
    // Issue 14: a file in src/judge/ holds at most 500 lines, any other in src/ at most 900.
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let mut long = Vec::new();
    for file in files {
        let lines = std::fs::read_to_string(&file)
            .expect("readable")
            .lines()
            .count();
        let limit = if file.starts_with("src/judge") {
            500
        } else {
            900
        };
        if lines > limit {
            long.push(format!(
                "{} has {lines} lines (at most {limit})",
                file.display()
            ));
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}
