//! Running independent jobs (games, openings, judgements) on a few threads with the
//! results kept in job order, so that a match replays whatever `--threads` says.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work(0)`, ..., `work(count - 1)` on `threads` threads, each index taken by the next
/// free thread; the results in index order.
pub(crate) fn in_parallel<T: Send>(
    count: usize,
    threads: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let v = work(i);
                done.lock().expect("no panics while holding").push((i, v));
            });
        }
    });
    let mut done = done.into_inner().expect("threads finished");
    done.sort_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, v)| v).collect()
}
