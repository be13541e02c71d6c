//! What one client may take of a server, below the API: connections and
//! request rates.
//!
//! - [`GuardedListener`] accepts at most `max_connections` connections at once
//!   (more wait in the system's backlog) and at most `per_address` from one
//!   address (more are closed at once); a connection with no byte read or
//!   written for `idle` is closed, so slow clients cannot hold the server's
//!   connections open.
//! - [`RateLimiter`] lets each address make `per_s` API requests a second on
//!   average, in bursts of up to `burst` (a token bucket per address); past it
//!   the answer is 429 with a Retry-After. It tracks at most
//!   [`MAX_TRACKED`] addresses.

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

/// Connections per address now.
type Counts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A listener that bounds connections (see the module docs).
pub struct GuardedListener {
    inner: TcpListener,
    all: Arc<Semaphore>,
    counts: Counts,
    per_address: usize,
    idle: Duration,
}

impl GuardedListener {
    /// `inner`, with at most `max_connections` connections at once, at most
    /// `per_address` from one address, each closed after `idle` without traffic.
    pub fn new(inner: TcpListener, max_connections: usize, per_address: usize, idle: Duration) -> GuardedListener {
        GuardedListener {
            inner,
            all: Arc::new(Semaphore::new(max_connections.max(1))),
            counts: Arc::default(),
            per_address: per_address.max(1),
            idle,
        }
    }
}

fn count(counts: &Counts) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
    // Only counts change under this lock (no code that can panic runs under it).
    counts.lock().unwrap_or_else(|e| e.into_inner())
}

impl Listener for GuardedListener {
    type Io = GuardedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (GuardedStream, SocketAddr) {
        loop {
            let Ok(permit) = self.all.clone().acquire_owned().await else {
                // The semaphore is never closed; wait rather than spin if it were.
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            };
            let (stream, addr) = match self.inner.accept().await {
                Ok(x) => x,
                Err(_) => {
                    // Out of file descriptors and the like: wait, as axum's own listener does.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            {
                let mut counts = count(&self.counts);
                let n = counts.entry(addr.ip()).or_insert(0);
                if *n >= self.per_address {
                    continue; // dropped: closed at once
                }
                *n += 1;
            }
            let _ = stream.set_nodelay(true);
            let idle = self.idle;
            return (
                GuardedStream {
                    stream,
                    _permit: permit,
                    counts: self.counts.clone(),
                    ip: addr.ip(),
                    idle,
                    timer: Box::pin(tokio::time::sleep(idle)),
                },
                addr,
            );
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection of a [`GuardedListener`]: it holds its place in the limits
/// until it is closed, and fails once idle for too long.
pub struct GuardedStream {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    counts: Counts,
    ip: IpAddr,
    idle: Duration,
    timer: Pin<Box<Sleep>>,
}

impl GuardedStream {
    /// After traffic: the idle time starts again.
    fn touched(&mut self) {
        let at = tokio::time::Instant::now() + self.idle;
        self.timer.as_mut().reset(at);
    }

    /// While waiting: an error once idle for too long.
    fn check_idle(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(io::ErrorKind::TimedOut, "connection idle for too long")),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for GuardedStream {
    fn drop(&mut self) {
        let mut counts = count(&self.counts);
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(r) => {
                self.touched();
                Poll::Ready(r)
            }
            Poll::Pending => self.check_idle(cx).map(Err),
        }
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, buf) {
            Poll::Ready(r) => {
                self.touched();
                Poll::Ready(r)
            }
            Poll::Pending => self.check_idle(cx).map(Err),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The address a request came from (the handlers' `ConnectInfo`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Client(pub IpAddr);

impl Connected<IncomingStream<'_, GuardedListener>> for Client {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Client {
        Client(stream.remote_addr().ip())
    }
}

/// Addresses a [`RateLimiter`] tracks at most; past it, new addresses are refused
/// until the sweep frees room.
pub const MAX_TRACKED: usize = 65_536;

/// Token buckets per address (see the module docs).
pub struct RateLimiter {
    per_s: u32,
    burst: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// `per_s` requests a second per address on average, bursts of `burst`
    /// (`per_s` 0: no limit).
    pub fn new(per_s: u32, burst: u32) -> RateLimiter {
        RateLimiter { per_s, burst: burst.max(1), buckets: Mutex::default() }
    }

    /// The requests a second allowed (0: no limit).
    pub fn per_s(&self) -> u32 {
        self.per_s
    }

    /// Takes one request of `ip`'s allowance: `Err(seconds to wait)` when none is left.
    pub fn take(&self, ip: IpAddr) -> Result<(), u64> {
        if self.per_s == 0 {
            return Ok(());
        }
        let now = Instant::now();
        // Only the map's own methods and arithmetic run under this lock.
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_TRACKED && !buckets.contains_key(&ip) {
            self.sweep_locked(&mut buckets, now);
            if buckets.len() >= MAX_TRACKED {
                return Err(1);
            }
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst as f64, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_s as f64).min(self.burst as f64);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / self.per_s as f64).ceil().max(1.0) as u64)
        }
    }

    /// Forgets the addresses whose allowance is whole again.
    pub fn sweep(&self) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        self.sweep_locked(&mut buckets, Instant::now());
    }

    fn sweep_locked(&self, buckets: &mut HashMap<IpAddr, (f64, Instant)>, now: Instant) {
        let (per_s, burst) = (self.per_s as f64, self.burst as f64);
        buckets.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * per_s < burst);
    }

    /// Addresses tracked now.
    pub fn tracked(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_burst_then_is_told_to_wait_and_others_are_not_affected() {
        let r = RateLimiter::new(2, 5);
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap());
        for _ in 0..5 {
            assert_eq!(r.take(a), Ok(()));
        }
        assert_eq!(r.take(a), Err(1));
        assert_eq!(r.take(b), Ok(()));
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(r.take(a), Ok(()), "half a second refills one of two a second");
        assert_eq!(r.tracked(), 2);
    }

    #[test]
    fn the_sweep_forgets_addresses_whose_allowance_is_whole_and_zero_means_no_limit() {
        let r = RateLimiter::new(1000, 2);
        r.take("10.0.0.1".parse().unwrap()).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        r.sweep();
        assert_eq!(r.tracked(), 0);
        let free = RateLimiter::new(0, 1);
        for _ in 0..100 {
            assert_eq!(free.take("10.0.0.1".parse().unwrap()), Ok(()));
        }
    }
}
