//! The web's edge (issue 36: "The web edge protects the mail path"): the accept loop in
//! front of the pages, with the limits a public web server keeps.
//!
//! - A cap on connections open at once: one accepted beyond it is closed at once, so the web
//!   never holds more than that many descriptors and the mail workers keep theirs.
//! - A header timeout: a connection has that long, from connecting (or, kept alive, from the
//!   first byte of its next request), to send a request's complete headers, and as long
//!   again for its body; else it is closed.
//! - An idle timeout: a kept-alive connection that sends nothing for that long after an
//!   answer is closed.
//!
//! A request being answered is never cut short by these clocks: they run only while the
//! connection waits for the client.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::response::Response;
use axum::{BoxError, Router};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, Semaphore};
use tokio::time::{Instant, Sleep};
use tracing::{debug, error, warn};

/// The limits of the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a client has for a request's headers, and again for its body.
    pub header: Duration,
    /// How long a kept-alive connection may wait, idle, for its next request.
    pub idle: Duration,
    /// The most connections open at once.
    pub connections: usize,
}

/// How often at most the log says that connections were refused at the cap.
const REFUSALS_LOGGED_EVERY: Duration = Duration::from_secs(60);

/// Serves `app` on `listener` within `limits` until `shutdown` completes; then stops
/// accepting, lets each open connection finish the request it is answering, and returns
/// once all are closed.
pub async fn serve(
    app: Router,
    listener: TcpListener,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let cap = limits.connections.clamp(1, Semaphore::MAX_PERMITS);
    let permits = Arc::new(Semaphore::new(cap));
    let (stop, stopping) = watch::channel(false);
    let mut refused = Refused::default();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            // At the cap: closed at once, its descriptor given back.
            drop(stream);
            refused.one(cap);
            continue;
        };
        let app = app.clone();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            connection(app, stream, peer, limits, stopping).await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    // Every connection holds a permit until it is closed.
    if let Ok(all) = u32::try_from(cap) {
        let _ = permits.acquire_many(all).await;
    }
    Ok(())
}

/// The connections refused at the cap since the log last said so.
#[derive(Default)]
struct Refused {
    /// Refused since the last log line.
    count: u64,
    /// When the log last said so.
    logged: Option<Instant>,
}

impl Refused {
    fn one(&mut self, cap: usize) {
        self.count += 1;
        let now = Instant::now();
        if self
            .logged
            .is_none_or(|t| now.duration_since(t) >= REFUSALS_LOGGED_EVERY)
        {
            warn!(
                cap,
                refused = self.count,
                "web connections at their cap: new ones are closed at once (mail is not affected)"
            );
            self.count = 0;
            self.logged = Some(now);
        }
    }
}

/// A failed accept: a connection that went away before it was taken is nothing; anything
/// else (out of descriptors) is logged and the loop pauses a second, as axum's does.
async fn accept_failed(e: io::Error) {
    if matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    ) {
        return;
    }
    error!(error = %e, "accepting a web connection failed; trying again in a second");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Serves one connection until it ends, its client is too slow or idle too long, or the
/// server stops.
async fn connection(
    app: Router,
    stream: TcpStream,
    peer: SocketAddr,
    limits: Limits,
    mut stopping: watch::Receiver<bool>,
) {
    let pulse = Arc::new(Pulse::new());
    let io = TokioIo::new(Watched {
        stream,
        pulse: pulse.clone(),
    });
    let service = Guarded {
        app: TowerToHyperService::new(app),
        pulse: pulse.clone(),
        peer,
        body_within: limits.header,
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The clocks are kept here (hyper's header timeout would also close a kept-alive
    // connection after the header time, not the idle time).
    builder.header_read_timeout(None);
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let expired = expiry(&pulse, limits);
    tokio::pin!(expired);
    let mut stopped = false;
    loop {
        tokio::select! {
            ended = conn.as_mut() => {
                if let Err(e) = ended {
                    debug!(%peer, error = %e, "web connection ended with an error");
                }
                return;
            }
            () = &mut expired => {
                debug!(%peer, "web connection closed: too slow sending a request, or idle too long");
                return;
            }
            _ = stopping.changed(), if !stopped => {
                stopped = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Completes when the connection's clock runs out: it has waited for the client longer
/// than `limits` allow.
async fn expiry(pulse: &Pulse, limits: Limits) {
    loop {
        // Made before the state is read, so that a change in between is not missed.
        let changed = pulse.changed.notified();
        match pulse.deadline(limits) {
            None => changed.await,
            Some(at) if Instant::now() >= at => return,
            Some(at) => {
                tokio::select! {
                    () = tokio::time::sleep_until(at) => {}
                    () = changed => {}
                }
            }
        }
    }
}

/// Where a connection is in its life.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Waiting for a request's headers, since then.
    Head(Instant),
    /// Answering this many requests.
    Busy(usize),
    /// Answered, waiting for the next request, since then.
    Idle(Instant),
}

/// A connection's phase, seen by its reads, its requests, and its clock.
struct Pulse {
    /// The phase.
    phase: Mutex<Phase>,
    /// Rung when the phase changes, to set the clock again.
    changed: Notify,
}

impl Pulse {
    fn new() -> Pulse {
        Pulse {
            phase: Mutex::new(Phase::Head(Instant::now())),
            changed: Notify::new(),
        }
    }

    fn set(&self, change: impl FnOnce(Phase) -> Phase) {
        {
            let mut phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
            *phase = change(*phase);
        }
        self.changed.notify_one();
    }

    /// Bytes came from the client: an idle connection has begun its next request.
    fn read(&self) {
        let idle = matches!(
            *self.phase.lock().unwrap_or_else(PoisonError::into_inner),
            Phase::Idle(_)
        );
        if idle {
            self.set(|p| match p {
                Phase::Idle(_) => Phase::Head(Instant::now()),
                other => other,
            });
        }
    }

    /// A request's headers came; it is being answered.
    fn begin(&self) {
        self.set(|p| match p {
            Phase::Busy(n) => Phase::Busy(n + 1),
            Phase::Head(_) | Phase::Idle(_) => Phase::Busy(1),
        });
    }

    /// A request was answered.
    fn end(&self) {
        self.set(|p| match p {
            Phase::Busy(n) if n > 1 => Phase::Busy(n - 1),
            _ => Phase::Idle(Instant::now()),
        });
    }

    /// When the connection is closed if nothing changes; none while a request is answered.
    fn deadline(&self, limits: Limits) -> Option<Instant> {
        match *self.phase.lock().unwrap_or_else(PoisonError::into_inner) {
            Phase::Head(since) => Some(since + limits.header),
            Phase::Idle(since) => Some(since + limits.idle),
            Phase::Busy(_) => None,
        }
    }
}

/// A request being answered; dropped when the answer is ready (or the request abandoned).
struct Answering(Arc<Pulse>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// The pages as a hyper service that marks each request's life on the pulse, gives the
/// handlers the client's address, and bounds the time its body may take.
#[derive(Clone)]
struct Guarded {
    /// The pages.
    app: TowerToHyperService<Router>,
    /// The connection's phase.
    pulse: Arc<Pulse>,
    /// The client (`ConnectInfo` for the handlers).
    peer: SocketAddr,
    /// How long a request's body may take to come.
    body_within: Duration,
}

impl hyper::service::Service<Request<Incoming>> for Guarded {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        self.pulse.begin();
        let answering = Answering(self.pulse.clone());
        let within = self.body_within;
        let mut request = request.map(|body| Paced {
            body,
            late: Box::pin(tokio::time::sleep(within)),
        });
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let answer = self.app.call(request);
        Box::pin(async move {
            let answer = answer.await;
            drop(answering);
            answer
        })
    }
}

/// A request body that must have come in full before its time is up.
struct Paced {
    /// The body as it comes.
    body: Incoming,
    /// When its time is up.
    late: Pin<Box<Sleep>>,
}

impl Body for Paced {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.body).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(frame.map(|f| f.map_err(BoxError::from))),
            Poll::Pending => match this.late.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(BoxError::from(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the request body came too slowly",
                ))))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The client's socket, telling the pulse when bytes come.
struct Watched {
    /// The socket.
    stream: TcpStream,
    /// The connection's phase.
    pulse: Arc<Pulse>,
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.pulse.read();
        }
        read
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
