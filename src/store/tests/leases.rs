//! Leases and claimed attempts (issue 29: "each due game is processed by exactly one ...;
//! each outgoing mail is sent by one and re-sent by another if its sender died before
//! confirming"): on PostgreSQL two holders never hold one game or one mail, and a holder
//! that ends without letting go lets go all the same; on SQLite every lease is granted. An
//! attempt is recorded only while the mail is still to be tried.

use super::*;

#[tokio::test]
async fn a_game_or_a_mail_is_leased_by_one_holder_at_a_time() {
    let (store, dir) = fresh("leases").await;
    let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let mut first = store.leases().await.unwrap();
    let mut second = store.leases().await.unwrap();
    assert_eq!(first.games(&names[..2]).await.unwrap(), ["a", "b"]);
    assert!(first.mail(7).await.unwrap());
    if store.is_shared() {
        assert_eq!(second.games(&names).await.unwrap(), ["c"]);
        assert!(!second.mail(7).await.unwrap());
        assert!(second.mail(8).await.unwrap(), "another mail is free");
        first.let_go_mail(7).await.unwrap();
        assert!(second.mail(7).await.unwrap(), "let go");
        second.release().await;
        // A holder dropped without letting go (a round cut short, a daemon killed) closes
        // its connection, and the server lets go of its leases a moment later.
        drop(first);
        let mut third = store.leases().await.unwrap();
        let mut got = Vec::new();
        for _ in 0..100 {
            got = third.games(&names).await.unwrap();
            if got.len() == 3 {
                break;
            }
            third.release().await;
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            third = store.leases().await.unwrap();
        }
        assert_eq!(got, ["a", "b", "c"]);
        third.release().await;
    } else {
        // One daemon on a file: nothing to share.
        assert_eq!(second.games(&names).await.unwrap(), ["a", "b", "c"]);
        assert!(second.mail(7).await.unwrap());
    }
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_attempt_is_recorded_only_while_the_mail_is_to_be_tried() {
    let (store, dir) = fresh("attempts").await;
    let mut tx = store.begin().await.unwrap();
    tx.queue(&mail("ann@example.org", Vec::new()), 1)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let id = store.unsent(10, 10).await.unwrap()[0].0;
    assert_eq!(store.record_attempt(id, 10, 20).await.unwrap(), Some(1));
    // Tried at 10, next at 20: a second sender at 10 or 19 finds it taken.
    assert_eq!(store.record_attempt(id, 10, 20).await.unwrap(), None);
    assert_eq!(store.record_attempt(id, 19, 40).await.unwrap(), None);
    assert!(store.unsent(19, 10).await.unwrap().is_empty());
    assert_eq!(store.record_attempt(id, 20, 40).await.unwrap(), Some(2));
    store.mark_sent(id, 21).await.unwrap();
    assert_eq!(
        store.record_attempt(id, 100, 200).await.unwrap(),
        None,
        "sent"
    );
    assert_eq!(store.attempts(id).await.unwrap(), 2);
    // Rows after a given one: a round goes through the outbox once.
    let mut tx = store.begin().await.unwrap();
    for to in ["bob@example.org", "cat@example.org"] {
        tx.queue(&mail(to, Vec::new()), 1).await.unwrap();
    }
    tx.commit().await.unwrap();
    let all = store.unsent(300, 10).await.unwrap();
    assert_eq!(all.len(), 2);
    let after = store.unsent_after(300, all[0].0, 10).await.unwrap();
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].1.to, "cat@example.org");
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
