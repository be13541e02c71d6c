//! The bots' thinking pool: a fixed number of threads of the server's own and
//! a bounded queue in front of them, so that however many requests ask the
//! bots to think, the machine runs at most `threads` decisions at once and
//! holds at most `queue` waiting jobs. A job that finds the queue full, or that
//! waited longer than `wait` before a thread took it, is refused with
//! [`WebError::Busy`] (503 with a Retry-After) rather than left to hang; a job
//! that panics is answered with [`WebError::BotFailed`] and the thread goes on.
//! Reading a game's state never goes through the pool (see [`super::store`]),
//! so reads answer while every thread thinks.

use super::error::WebError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A job: it runs on a pool thread and answers through its own channel.
type Job = Box<dyn FnOnce(Started) + Send>;

/// How a job was started: in time, or after waiting past the pool's `wait`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Started {
    InTime,
    TooLate,
}

/// The pool (see the module docs). Dropping it ends its threads once the
/// queued jobs are answered.
pub struct ThinkPool {
    send: Mutex<Option<mpsc::Sender<(Instant, Job)>>>,
    queued: Arc<AtomicUsize>,
    threads: Vec<std::thread::JoinHandle<()>>,
    queue: usize,
    wait: Duration,
}

/// The seconds a refused client is told to wait (`Retry-After`).
pub const RETRY_AFTER_S: u64 = 2;

impl ThinkPool {
    /// `threads` threads (at least 1), at most `queue` jobs waiting, each
    /// refused once it waited `wait`.
    pub fn new(threads: usize, queue: usize, wait: Duration) -> std::io::Result<ThinkPool> {
        let (send, recv) = mpsc::channel::<(Instant, Job)>();
        let recv = Arc::new(Mutex::new(recv));
        let queued = Arc::new(AtomicUsize::new(0));
        let mut handles = Vec::new();
        for i in 0..threads.max(1) {
            let (recv, queued) = (recv.clone(), queued.clone());
            handles.push(std::thread::Builder::new().name(format!("bones-bots-{i}")).spawn(move || loop {
                // The receiver's lock is held only to take a job (no job runs under it).
                let next = match recv.lock() {
                    Ok(r) => r.recv(),
                    Err(_) => return,
                };
                let Ok((queued_at, job)) = next else { return };
                queued.fetch_sub(1, Ordering::SeqCst);
                let started = if queued_at.elapsed() > wait { Started::TooLate } else { Started::InTime };
                job(started);
            })?);
        }
        Ok(ThinkPool { send: Mutex::new(Some(send)), queued, threads: handles, queue, wait })
    }

    /// Jobs waiting for a thread now.
    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::SeqCst)
    }

    /// The threads that think.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Runs `job` on a pool thread and answers its result: [`WebError::Busy`]
    /// when the queue is full or the job waited too long to start,
    /// [`WebError::BotFailed`] when it panicked (with the panic's message).
    pub async fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> Result<T, WebError> {
        let busy = |why: String| WebError::Busy { why, retry_after: RETRY_AFTER_S };
        if self.queued.fetch_add(1, Ordering::SeqCst) >= self.queue {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(busy(format!("{} requests are already waiting for the bots", self.queue)));
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        let wait = self.wait;
        let job: Job = Box::new(move |started| {
            let out = match started {
                Started::TooLate => Err(busy(format!("the bots were busy for over {} s", wait.as_secs_f64()))),
                Started::InTime => bones_agents::agent::contain(job).map_err(|f| WebError::BotFailed(f.what)),
            };
            let _ = tx.send(out);
        });
        let sent = match self.send.lock() {
            Ok(s) => s.as_ref().map(|s| s.send((Instant::now(), job)).is_ok()).unwrap_or(false),
            Err(_) => false,
        };
        if !sent {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(WebError::Internal("the bots' pool has stopped".into()));
        }
        rx.await.map_err(|_| WebError::Internal("the bots' pool dropped a job".into()))?
    }
}

impl Drop for ThinkPool {
    fn drop(&mut self) {
        if let Ok(mut s) = self.send.lock() {
            s.take();
        }
        // The last holder of the server may be a job on one of these threads
        // (a request whose client left while its bots thought): that thread
        // ends by itself once the job returns, and is not joined from itself.
        let me = std::thread::current().id();
        for t in self.threads.drain(..) {
            if t.thread().id() != me {
                let _ = t.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
    }

    #[test]
    fn a_job_runs_on_the_pool_and_a_panic_is_a_bot_failure_not_a_dead_thread() {
        let rt = runtime();
        let pool = ThinkPool::new(1, 4, Duration::from_secs(5)).unwrap();
        rt.block_on(async {
            assert_eq!(pool.run(|| 6 * 7).await, Ok(42));
            let e = pool.run(|| -> u8 { panic!("the bot tripped") }).await.unwrap_err();
            assert_eq!(e, WebError::BotFailed("it panicked: the bot tripped".into()));
            assert_eq!(pool.run(|| "still here").await, Ok("still here"));
        });
    }

    /// Waits (at most 10 s) until `done` holds.
    async fn until(what: &str, done: impl Fn() -> bool) {
        let t0 = Instant::now();
        while !done() {
            assert!(t0.elapsed() < Duration::from_secs(10), "timed out waiting until {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[test]
    fn a_full_queue_and_a_job_that_waited_too_long_are_refused_as_busy() {
        let rt = runtime();
        let pool = Arc::new(ThinkPool::new(1, 2, Duration::from_millis(100)).unwrap());
        rt.block_on(async {
            // The one thread is held by a job that has started and waits for `go`.
            let (go, gate) = std::sync::mpsc::channel::<()>();
            let (started, has_started) = std::sync::mpsc::channel::<()>();
            let p = pool.clone();
            let blocker = tokio::spawn(async move {
                p.run(move || {
                    started.send(()).unwrap();
                    gate.recv().is_ok()
                })
                .await
            });
            let t0 = Instant::now();
            while has_started.try_recv().is_err() {
                assert!(t0.elapsed() < Duration::from_secs(10), "the blocking job never started");
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            // Two jobs wait; a third is refused at once.
            let (p1, p2) = (pool.clone(), pool.clone());
            let waiting1 = tokio::spawn(async move { p1.run(|| 1).await });
            let waiting2 = tokio::spawn(async move { p2.run(|| 2).await });
            until("two jobs wait", || pool.queued() == 2).await;
            let full = pool.run(|| 3).await.unwrap_err();
            assert!(matches!(full, WebError::Busy { .. }), "{full:?}");
            assert!(full.to_string().contains("2 requests are already waiting"), "{full}");
            // Past the wait, the two waiting jobs are refused when the thread comes free.
            tokio::time::sleep(Duration::from_millis(150)).await;
            go.send(()).unwrap();
            assert_eq!(blocker.await.unwrap(), Ok(true));
            for w in [waiting1, waiting2] {
                let late = w.await.unwrap().unwrap_err();
                assert!(late.to_string().contains("busy for over 0.1 s"), "{late}");
            }
            assert_eq!(pool.run(|| 4).await, Ok(4));
        });
    }

    #[test]
    fn a_pool_dropped_by_its_own_job_does_not_join_the_thread_it_runs_on() {
        let rt = runtime();
        let pool = Arc::new(ThinkPool::new(2, 4, Duration::from_secs(5)).unwrap());
        let inner = pool.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let job = move || {
            // Wait until every other handle is gone, then drop the last one here.
            while Arc::strong_count(&inner) > 1 {
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(inner);
            tx.send(()).unwrap();
        };
        // Queued, then the request is abandoned (its client left).
        rt.block_on(async {
            let _ = tokio::time::timeout(Duration::from_millis(1), pool.run(job)).await;
        });
        drop(pool);
        rx.recv_timeout(Duration::from_secs(5)).expect("the job dropped the pool and returned");
    }
}
