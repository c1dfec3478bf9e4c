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

/// The module a source file under `root` holds: `src/judge/cmd/mod.rs` is `judge::cmd`.
fn module_of(root: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(root).expect("under src");
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

/// The code of a file with comments removed and the insides of string and character
/// literals blanked, so that neither a `//` in a string nor a `{` in a literal misleads the
/// reader. Line breaks are kept.
fn code(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        match c[i] {
            '/' if at(i + 1) == '/' => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if c[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if c[i] == '\n' {
                            out.push('\n');
                        }
                        i += 1;
                    }
                }
                out.push(' ');
            }
            'r' if (at(i + 1) == '"' || (at(i + 1) == '#' && matches!(at(i + 2), '"' | '#')))
                && !at(i.wrapping_sub(1)).is_alphanumeric() =>
            {
                // A raw string: r"…", r#"…"#.
                let mut hashes = 0;
                i += 1;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                while i < c.len() {
                    if c[i] == '"' && (1..=hashes).all(|h| at(i + h) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
                out.push_str("\"\"");
            }
            '"' => {
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    if at(i) == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
                i += 1;
                out.push_str("\"\"");
            }
            '\'' if at(i + 1) == '\\' => {
                // An escaped character literal: '\n', '\'', '\u{7b}'.
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            }
            '\'' if at(i + 2) == '\'' => {
                i += 3;
                out.push_str("' '");
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// What a file says about modules: the paths it names (`crate::…`, `super::…`, `self::…`,
/// use-trees expanded) as absolute segments, and the child modules it declares only for
/// tests (`#[cfg(test)] mod tests;`).
#[derive(Debug, Default)]
struct Read {
    paths: Vec<Module>,
    test_children: Vec<Module>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Reads a file's code (see [`code`]) as module `module`. Test code is skipped: an item
/// under `#[cfg(test)]` (a `mod tests { … }`, a `mod tests;`, a helper) is passed over to
/// its end and the reading goes on after it; its imports are not counted, as a test may
/// reach anywhere, like an integration test. Inline modules (`mod x { … }`) are followed, so
/// a `super::` inside one means the file's own module.
fn read(module: &Module, code: &str) -> Read {
    let c: Vec<char> = code.chars().collect();
    let mut read = Read::default();
    // The inline modules we are in: the module, and the brace depth its body opened at.
    let mut scope: Vec<(Module, usize)> = vec![(module.clone(), 0)];
    let mut depth = 0usize;
    let mut i = 0;
    let word_at = |i: usize, w: &str| -> bool {
        let n = w.chars().count();
        c.len() >= i + n
            && c[i..i + n].iter().copied().eq(w.chars())
            && (i == 0 || !is_ident(c[i - 1]))
    };
    while i < c.len() {
        let current = || scope.last().map(|s| s.0.clone()).unwrap_or_default();
        if c[i] == '#' && word_at(i, "#[cfg(test)]") {
            i += "#[cfg(test)]".len();
            let end = item_end(&c, i);
            let item: String = c[i..end].iter().collect();
            let words: Vec<&str> = item
                .split(|ch: char| !is_ident(ch))
                .filter(|w| !w.is_empty())
                .collect();
            let mod_at = words.iter().position(|w| *w == "mod");
            if let (Some(k), true) = (mod_at, item.trim_end().ends_with(';')) {
                if let Some(name) = words.get(k + 1) {
                    let mut m = current();
                    m.push(name.to_string());
                    read.test_children.push(m);
                }
            }
            i = end;
            continue;
        }
        match c[i] {
            '{' => {
                depth += 1;
                i += 1;
                continue;
            }
            '}' => {
                if scope.len() > 1 && scope.last().is_some_and(|s| s.1 == depth) {
                    scope.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            _ => {}
        }
        if c[i] == 'm' && word_at(i, "mod") && c.get(i + 3).is_some_and(|ch| ch.is_whitespace()) {
            // `mod name {` opens an inline module; `mod name;` names a file module.
            let rest: String = c[i + 3..].iter().take(200).collect();
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|&ch| is_ident(ch))
                .collect();
            let after = rest.trim_start()[name.len()..].trim_start();
            if !name.is_empty() && after.starts_with('{') {
                let mut m = current();
                m.push(name);
                let open = i + 3 + rest.find('{').expect("seen above");
                depth += 1;
                scope.push((m, depth));
                i = open + 1;
                continue;
            }
        }
        if matches!(c[i], 'c' | 's')
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|w| word_at(i, w) && (i == 0 || c[i - 1] != ':'))
        {
            let (trees, end) = use_tree(&c, i);
            let current = current();
            for segs in trees {
                if let Some(p) = resolve(&current, &segs) {
                    read.paths.push(p);
                }
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    read
}

/// Where the item starting at `from` ends: after its `;` or its closing `}`, attributes
/// before it included.
fn item_end(c: &[char], from: usize) -> usize {
    let mut depth = 0usize;
    let mut brackets = 0usize;
    let mut i = from;
    while i < c.len() {
        match c[i] {
            '[' => brackets += 1,
            ']' => brackets = brackets.saturating_sub(1),
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            ';' if depth == 0 && brackets == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    c.len()
}

/// The paths of a use-tree starting at `from` (`a::b::{c, d::{e, f}}`), each as its
/// segments, and where the tree ends.
fn use_tree(c: &[char], from: usize) -> (Vec<Vec<String>>, usize) {
    let mut i = from;
    let skip_ws = |i: &mut usize| {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
    };
    let mut prefix = Vec::new();
    loop {
        skip_ws(&mut i);
        let start = i;
        while i < c.len() && is_ident(c[i]) {
            i += 1;
        }
        if i > start {
            prefix.push(c[start..i].iter().collect::<String>());
        }
        skip_ws(&mut i);
        if c.get(i) == Some(&':') && c.get(i + 1) == Some(&':') {
            i += 2;
            skip_ws(&mut i);
            if c.get(i) == Some(&'{') {
                i += 1;
                let mut out = Vec::new();
                loop {
                    skip_ws(&mut i);
                    match c.get(i) {
                        None => return (out, i),
                        Some('}') => return (out, i + 1),
                        Some(',') => i += 1,
                        Some(_) => {
                            let (subs, end) = use_tree(c, i);
                            for s in subs {
                                let mut p = prefix.clone();
                                p.extend(s.into_iter().filter(|x| x != "self"));
                                out.push(p);
                            }
                            // `as name` and anything else up to the next `,` or `}`.
                            i = end;
                            while i < c.len() && !matches!(c[i], ',' | '}') {
                                i += 1;
                            }
                        }
                    }
                }
            }
            continue;
        }
        return (vec![prefix], i);
    }
}

/// A path's segments as an absolute module path, read in module `current`.
fn resolve(current: &Module, segs: &[String]) -> Option<Module> {
    let mut base = current.clone();
    let mut rest = segs;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {}
        _ => return None,
    }
    // `super` names the parent of the module the code is in, whether the module is a
    // `mod.rs`, a `name.rs` or an inline `mod name { … }`.
    while rest.first().map(String::as_str) == Some("super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Each module under `root` and the modules it imports (the longest prefix of each path
/// that is a module), without itself and its own descendants. Modules declared only for
/// tests are left out.
fn graph_of(root: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut reads = Vec::new();
    let mut test_only = BTreeSet::new();
    for file in &files {
        let module = module_of(root, file);
        let text = std::fs::read_to_string(file).expect("readable source");
        let r = read(&module, &code(&text));
        test_only.extend(r.test_children.iter().cloned());
        reads.push((module, r));
    }
    let modules: BTreeSet<Module> = reads
        .iter()
        .map(|(m, _)| m.clone())
        .filter(|m| !test_only.iter().any(|t| m.starts_with(t)))
        .collect();
    let mut graph = BTreeMap::new();
    for (module, r) in reads {
        if !modules.contains(&module) {
            continue;
        }
        let mut deps = BTreeSet::new();
        for path in r.paths {
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

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    graph_of(Path::new("src"))
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
    // `use super::game::Status;` in judge/session.rs, `use crate::envelope::Letter;`.
    assert!(
        deps("judge::session").contains("judge::game"),
        "{:?}",
        deps("judge::session")
    );
    assert!(deps("judge::session").contains("envelope"));
    // `use crate::judge::cmd::context::{Role, Session};` in a command file.
    assert!(deps("judge::cmd::life").contains("judge::cmd::context"));
    // `use super::ids::{…};` in game/order/mod.rs: `super` of a `mod.rs` is the parent of
    // its directory's module.
    assert!(deps("game::order").contains("game::ids"));
    // judge/mod.rs is read past its `#[cfg(test)] pub mod testkit;`.
    assert!(deps("judge").contains("catalog"));
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

/// The circles of imports in a graph: its strongly connected components of more than one
/// module (Tarjan's algorithm).
fn circles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
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
        g,
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
    s.circles
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let circles = circles(&graph());
    assert!(circles.is_empty(), "{circles:#?}");
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

/// Writes a fake `src/` tree under the temporary directory and returns its root.
fn plant(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = std::env::temp_dir()
        .join(format!("herald-layering-{}-{name}", std::process::id()))
        .join("src");
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in files {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().expect("a parent")).expect("dir");
        std::fs::write(file, text).expect("written");
    }
    root
}

/// The fake tree: `a` (a `mod.rs`) imports `b` by `super::`, and `b` imports `a` in a line
/// after its test module and after a string holding `//` and `{`. Issue 26: the test "resolves
/// `super::` in a `mod.rs` wrongly and stops reading a file at its first `#[cfg(test)]`", so
/// it missed the circle `judge::cmd` ⇄ `judge::session`.
fn planted(b_imports_a: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\n#[cfg(test)]\npub mod testkit;\n".into(),
        ),
        (
            "a/mod.rs",
            "//! Uses b.\npub mod inner;\nuse super::b::Thing;\npub struct Other;\n".into(),
        ),
        ("a/inner.rs", "pub fn g() {}\n".into()),
        (
            "b.rs",
            format!(
                "pub struct Thing;\n#[cfg(test)]\nmod tests {{\n    use crate::c::X;\n    use crate::a::inner;\n}}\n\
                 pub fn f() -> &'static str {{ let _c = '{{'; \"// {{ not a comment\" }}\n{b_imports_a}\n"
            ),
        ),
        ("c.rs", "pub struct X;\n".into()),
        ("testkit.rs", "use crate::a::Other;\nuse crate::b::Thing;\n".into()),
    ]
}

#[test]
fn a_planted_circle_is_caught() {
    let files = planted("use crate::a::Other;");
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let g = graph_of(&plant("circle", &files));
    let m = |s: &str| -> Module { s.split("::").map(str::to_string).collect() };
    // `super::` in a/mod.rs is the crate root, so `super::b` is `b`.
    assert!(g[&m("a")].contains(&m("b")), "{g:?}");
    // Read past the test module of b; its own imports (of c, of a::inner) are not counted.
    assert_eq!(g[&m("b")], BTreeSet::from([m("a")]), "{g:?}");
    // A module declared only for tests is no part of the graph.
    assert!(!g.contains_key(&m("testkit")), "{g:?}");
    assert_eq!(circles(&g), vec![vec!["b".to_string(), "a".to_string()]]);
}

#[test]
fn imports_in_test_code_make_no_circle() {
    let files = planted("");
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let g = graph_of(&plant("none", &files));
    assert!(circles(&g).is_empty(), "{g:?}");
}

/// The test files of `tests/` that no test binary builds: with `autotests = false` (issue
/// 26, "cheap tests"), a file is run only if it is a `[[test]]` root in Cargo.toml or a
/// `mod` of one; a new file that is neither would be silently left out.
fn unbuilt_test_files(cargo_toml: &str, files: &[(String, String)]) -> Vec<String> {
    let roots: Vec<&str> = cargo_toml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("path = \"tests/"))
        .filter_map(|l| l.strip_suffix(".rs\""))
        .collect();
    let declared = |stem: &str| {
        files.iter().any(|(root, text)| {
            roots.contains(&root.as_str())
                && text.lines().any(|l| {
                    l.trim() == format!("mod {stem};") || l.trim() == format!("pub mod {stem};")
                })
        })
    };
    files
        .iter()
        .map(|(stem, _)| stem)
        .filter(|stem| !roots.contains(&stem.as_str()) && !declared(stem))
        .cloned()
        .collect()
}

#[test]
fn every_test_file_is_built_by_a_test_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo_toml = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            files.push((stem, std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(files.len() > 6, "{files:?}");
    assert_eq!(
        unbuilt_test_files(&cargo_toml, &files),
        Vec::<String>::new()
    );
    // And it would notice one: a file no root declares.
    files.push(("forgotten".into(), "#[test]\nfn t() {}\n".into()));
    assert_eq!(
        unbuilt_test_files(&cargo_toml, &files),
        vec!["forgotten".to_string()]
    );
}
