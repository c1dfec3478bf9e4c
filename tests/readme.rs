//! The mail exchange shown in the README is the one herald really has: the example mail is
//! handed to a fresh judge and its reply compared with the README's text.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

use support::{to, World};

fn block_after(readme: &str, marker: &str) -> String {
    let start = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker}"));
    let rest = &readme[start..];
    let open = rest.find("```text\n").expect("a text block") + "```text\n".len();
    let close = rest[open..].find("```").expect("its end");
    rest[open..open + close].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_example_is_what_herald_answers() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mail = block_after(&readme, "<!-- example-mail -->");
    let expected = block_after(&readme, "<!-- example-reply -->");
    let mut w = World::new_with_address("readme", "herald@localhost").await;
    let (head, body) = mail.split_once("\n\n").unwrap();
    let header = |name: &str| {
        head.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap()
            .to_string()
    };
    let sent = w.mail(&header("From"), &header("Subject"), body).await;
    let reply = to(&sent, "ann@example.org");
    // Trailing blank lines aside, the reply is the README text to the letter.
    assert_eq!(
        format!("Subject: {}\n\n{}", reply.subject, reply.body.trim_end()),
        expected.trim_end()
    );
}
