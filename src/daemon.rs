//! The daemon: three workers that never wait on each other — one reads the inbox, one
//! sweeps deadlines, one drains the outbox — each on its own task; stop cleanly when
//! `shutdown` resolves (SIGTERM or Ctrl-C in `main`).
//!
//! Issue 24: "reading, deadlines and sending never wait on each other (a stalled mailbox
//! does not delay results; a stalled SMTP server costs one timeout per round, not one per
//! mail)". A mail read wakes the sweeper and the sender at once; a deadline processed wakes
//! the sender.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::Notify;
use tracing::{error, info};

use crate::service::Service;

/// How long the workers are given to stop.
const STOPPING: Duration = Duration::from_millis(400);

/// The longest pause after failed rounds.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Runs until `shutdown` completes. A failure in one round of a worker (the inbox
/// unreachable, the SMTP server stalled, the database refusing to write) is logged and that
/// worker tries again after a pause that doubles up to a minute; the others go on. No worker
/// spins, and each comes back by itself once the fault is gone.
///
/// `shutdown` is heard at once, in the middle of a round too: the workers' tasks are
/// aborted, and everything a round does is safe to cut short (an uncommitted transaction is
/// rolled back, a mail is marked handled only after its commit and read again if it was
/// not). The one thing still done on the way out is recording as sent the mails that went
/// out and whose record failed, so that they are not sent again at the next start.
pub async fn run(service: &Arc<Service>, shutdown: impl Future<Output = ()>) {
    tokio::pin!(shutdown);
    // Issue 36: the soft limit on open files raised where allowed, before the web sizes its
    // cap on connections from it.
    crate::descriptors::raise();
    info!(inbox = %service.config.inbox.kind, outbox = %service.config.outbox.kind, "herald is running");
    let wake = Arc::new(Wake::default());
    let mut workers = tokio::task::JoinSet::new();
    workers.spawn(reading(service.clone(), wake.clone()));
    workers.spawn(sweeping(service.clone(), wake.clone()));
    workers.spawn(sending(service.clone(), wake));
    // Issue 28: "[web] … served by the daemon … on the daemon's runtime and database".
    if let Some(listener) = web_listener(service).await {
        workers.spawn(serving(service.clone(), listener));
    }
    tokio::select! {
        biased;
        _ = &mut shutdown => {}
        // The workers loop for ever; one ending means it panicked, and the daemon stops
        // rather than go on without it.
        ended = workers.join_next() => error!(?ended, "a worker of the daemon stopped; herald stops"),
    }
    // A task is stopped at its next await; one busy on a thread (a long render) is not
    // waited for longer than this, so that SIGTERM is obeyed within a second.
    workers.abort_all();
    let _ = tokio::time::timeout(STOPPING, async {
        while workers.join_next().await.is_some() {}
    })
    .await;
    if let Err(e) = service.record_sent().await {
        error!(error = %e, "mails that went out could not be recorded as sent; they will be sent again at the next start");
    }
    info!("herald stops");
}

/// The socket of `[web] listen`, when the section is there; a failure to bind is logged and
/// the daemon goes on without pages (mail does not wait on the web).
async fn web_listener(service: &Service) -> Option<tokio::net::TcpListener> {
    let web = service.config.web.as_ref()?;
    match tokio::net::TcpListener::bind(&web.listen).await {
        Ok(listener) => {
            info!(listen = %web.listen, "serving the web pages");
            Some(listener)
        }
        Err(e) => {
            error!(listen = %web.listen, error = %e, "the web pages cannot listen there; herald goes on without them");
            None
        }
    }
}

/// Serves the web pages until the daemon stops.
async fn serving(service: Arc<Service>, listener: tokio::net::TcpListener) {
    let web = match crate::web::Web::new(service) {
        Ok(web) => Arc::new(web),
        Err(e) => {
            error!(error = %e, "the web pages cannot start");
            return std::future::pending().await;
        }
    };
    if let Err(e) = crate::web::serve(web, listener, std::future::pending()).await {
        error!(error = %e, "serving the web pages failed");
    }
    // A listener that failed is not tried again; mail goes on.
    std::future::pending::<()>().await
}

/// Who is woken when: the sweeper after mail was read, the sender after mail was queued.
#[derive(Default)]
struct Wake {
    /// Mail was read: a game may be due early.
    sweep: Notify,
    /// Mail was queued.
    send: Notify,
}

/// A worker's pause: `poll` after a good round, doubling up to [`MAX_BACKOFF`] after failed
/// ones.
struct Pace {
    poll: Duration,
    backoff: Option<Duration>,
}

impl Pace {
    fn new(service: &Service) -> Pace {
        Pace {
            poll: Duration::from_secs(service.config.inbox.poll_seconds.max(1)),
            backoff: None,
        }
    }

    /// Notes how a round went; returns the pause a failure calls for.
    fn after(&mut self, what: &str, failed: bool) -> Option<Duration> {
        if failed {
            let next = self.backoff.map_or(self.poll, |b| (b * 2).min(MAX_BACKOFF));
            error!(worker = what, retry_in = ?next, "this round failed; trying again after a pause");
            self.backoff = Some(next);
            Some(next)
        } else {
            if self.backoff.take().is_some() {
                info!(worker = what, "back at work");
            }
            None
        }
    }
}

/// Reads the inbox, then waits for news (IMAP IDLE or NOOP checks, or `poll_seconds`).
async fn reading(service: Arc<Service>, wake: Arc<Wake>) {
    let mut pace = Pace::new(&service);
    loop {
        let (failed, read) = match service.poll_inbox(Utc::now()).await {
            Ok(n) => (false, n),
            Err(e) => {
                error!(error = %e, "reading the inbox failed");
                (true, 0)
            }
        };
        if read > 0 {
            info!(read, "mail read");
            wake.sweep.notify_one();
            wake.send.notify_one();
        }
        match pace.after("reading", failed) {
            Some(pause) => tokio::time::sleep(pause).await,
            // More may have come while this round read: look again at once rather than
            // wait to be told (Dovecot tells an IDLE client 500 ms late).
            None if read > 0 => {}
            None => {
                if let Err(e) = service.wait_for_mail(pace.poll).await {
                    error!(error = %e, "waiting for mail failed");
                    tokio::time::sleep(pace.poll).await;
                }
            }
        }
    }
}

/// Processes what is due every `poll_seconds`, and at once after mail was read.
async fn sweeping(service: Arc<Service>, wake: Arc<Wake>) {
    let mut pace = Pace::new(&service);
    loop {
        let failed = match service.tick(Utc::now()).await {
            Ok(0) => false,
            Ok(ticked) => {
                info!(ticked, "deadlines processed");
                wake.send.notify_one();
                false
            }
            Err(e) => {
                error!(error = %e, "processing deadlines failed");
                true
            }
        };
        let pause = pace.after("deadlines", failed).unwrap_or(pace.poll);
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = wake.sweep.notified(), if !failed => {}
        }
    }
}

/// Sends what is queued every `poll_seconds`, and at once after mail was queued.
async fn sending(service: Arc<Service>, wake: Arc<Wake>) {
    let mut pace = Pace::new(&service);
    loop {
        let failed = match service.deliver(Utc::now()).await {
            Ok(0) => false,
            Ok(sent) => {
                info!(sent, "mail sent");
                false
            }
            Err(e) => {
                error!(error = %e, "sending failed");
                true
            }
        };
        let pause = pace.after("sending", failed).unwrap_or(pace.poll);
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = wake.send.notified(), if !failed => {}
        }
    }
}
