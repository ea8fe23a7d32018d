//! What a search keeps between calls, owned by its caller: no engine hides state in a
//! `thread_local!`.
//!
//! A [`SearchContext`] holds one slot per kind of kept state, made on first use by the
//! engine that needs it: `auto`'s pattern search keeps its transposition table (so that a
//! game's next move starts from what this one found), `perfect` its table of solved
//! small positions and its table of bounds on gravity boards. `context` knows none of these types: each engine defines its own
//! [`Kept`] state and asks for it with [`SearchContext::kept`], so no engine module and
//! this one import each other.
//!
//! Reproducibility: what a context holds may only make a search faster or deeper, never
//! change a node-limited answer. Engines therefore read kept state only for searches
//! without a node limit; a search limited by nodes starts as if the context were new
//! (it may still leave its results for later searches by time).
//!
//! Memory: every kept state bounds its own size ([`Kept::bytes`] reports it, at most
//! [`MAX_CONTEXT_BYTES`] for the states in this crate together), and a [`ContextPool`]
//! keeps at most its capacity of idle contexts and at most its byte cap of kept state
//! ([`ContextPool::with_max_bytes`]), so a server's idle kept memory is bounded by the
//! smaller of capacity x [`MAX_CONTEXT_BYTES`] and that cap.

use std::any::Any;
use std::sync::{Arc, Mutex};

use kinrow_game::Position;

/// The most memory one context's kept states take together: `auto`'s kept table (2^18
/// entries of 24 bytes, 6 MiB), `perfect`'s solved positions (at most 8 192 boards of
/// at most 16 cells, well under 8 MiB) and `perfect`'s table of gravity boards (2^22
/// entries: 44 MiB for boards of 64 bits, 76 MiB for wider ones). A context serves one
/// board shape, so the gravity table and `auto`'s table, made for different games,
/// never share one.
pub const MAX_CONTEXT_BYTES: usize = 92 << 20;

/// One kind of state a search keeps in a [`SearchContext`].
pub trait Kept: Any + Send {
    /// The memory it holds, in bytes (an estimate of the heap it owns).
    fn bytes(&self) -> usize;
}

/// The state searches keep between calls: one slot per [`Kept`] type.
#[derive(Default)]
pub struct SearchContext {
    slots: Vec<Box<dyn Any + Send>>,
    sizes: Vec<fn(&(dyn Any + Send)) -> usize>,
}

impl std::fmt::Debug for SearchContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchContext")
            .field("slots", &self.slots.len())
            .field("bytes", &self.bytes())
            .finish()
    }
}

impl SearchContext {
    /// An empty context: every search through it starts from nothing.
    pub fn new() -> SearchContext {
        SearchContext::default()
    }

    /// The kept state of type `T`, made with `T::default()` on first use.
    pub fn kept<T: Kept + Default>(&mut self) -> &mut T {
        let i = match self.slots.iter().position(|s| s.is::<T>()) {
            Some(i) => i,
            None => {
                self.slots.push(Box::new(T::default()));
                self.sizes
                    .push(|s| s.downcast_ref::<T>().map_or(0, T::bytes));
                self.slots.len() - 1
            }
        };
        self.slots[i]
            .downcast_mut::<T>()
            .expect("the slot holds a T")
    }

    /// The memory the kept states hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots
            .iter()
            .zip(&self.sizes)
            .map(|(s, size)| size(s.as_ref()))
            .sum()
    }

    /// Forgets everything kept.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.sizes.clear();
    }
}

/// Which contexts may serve a position: those used for the same board size and rules
/// (m, n, k, overline). What a context keeps is only worth anything to later searches
/// of the same game.
pub type RulesKey = u64;

fn rules_key(position: &Position) -> RulesKey {
    position.geometry().key()
}

/// Idle contexts, kept for the next search of the same rules: a server takes one per
/// search and gives it back when the search ends, so that a game's next move finds what
/// the search of its last move kept. At most `capacity` idle contexts are kept, holding
/// at most `max_bytes` together (the least recently returned go first), so the pool
/// holds at most the smaller of `capacity` x [`MAX_CONTEXT_BYTES`] and `max_bytes`; a
/// search that finds none of its rules gets a new one.
pub struct ContextPool {
    idle: Mutex<Vec<(RulesKey, SearchContext)>>,
    capacity: usize,
    max_bytes: usize,
}

impl ContextPool {
    /// A pool keeping at most `capacity` idle contexts (and no byte cap below
    /// `capacity` x [`MAX_CONTEXT_BYTES`]).
    pub fn new(capacity: usize) -> ContextPool {
        ContextPool {
            idle: Mutex::new(Vec::new()),
            capacity,
            max_bytes: capacity.saturating_mul(MAX_CONTEXT_BYTES),
        }
    }

    /// The same pool, keeping at most `max_bytes` of kept state in its idle contexts
    /// together: a context returned past the cap pushes the oldest out (itself too, when
    /// it alone is over the cap).
    pub fn with_max_bytes(mut self, max_bytes: usize) -> ContextPool {
        self.max_bytes = max_bytes;
        self
    }

    /// A context for a search of `position`: the last one returned for its rules, or a
    /// new one. It goes back to the pool when the returned guard is dropped.
    pub fn take(self: &Arc<Self>, position: &Position) -> PooledContext {
        let key = rules_key(position);
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        let context = match idle.iter().rposition(|(k, _)| *k == key) {
            Some(i) => idle.remove(i).1,
            None => SearchContext::new(),
        };
        PooledContext {
            pool: Arc::clone(self),
            key,
            context: Some(context),
        }
    }

    /// Idle contexts held now.
    pub fn idle(&self) -> usize {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn give_back(&self, key: RulesKey, context: SearchContext) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        idle.push((key, context));
        while idle.len() > self.capacity {
            idle.remove(0);
        }
        let mut bytes: usize = idle.iter().map(|(_, c)| c.bytes()).sum();
        while bytes > self.max_bytes {
            let (_, oldest) = idle.remove(0);
            bytes -= oldest.bytes();
        }
    }

    /// The kept state the idle contexts hold together, in bytes.
    pub fn idle_bytes(&self) -> usize {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        idle.iter().map(|(_, c)| c.bytes()).sum()
    }
}

/// A context taken from a [`ContextPool`]; it goes back when dropped.
pub struct PooledContext {
    pool: Arc<ContextPool>,
    key: RulesKey,
    context: Option<SearchContext>,
}

impl std::ops::Deref for PooledContext {
    type Target = SearchContext;
    fn deref(&self) -> &SearchContext {
        self.context.as_ref().expect("held until dropped")
    }
}

impl std::ops::DerefMut for PooledContext {
    fn deref_mut(&mut self) -> &mut SearchContext {
        self.context.as_mut().expect("held until dropped")
    }
}

impl Drop for PooledContext {
    fn drop(&mut self) {
        if let Some(context) = self.context.take() {
            // A search that panicked may have left its state half-written: drop it.
            if !std::thread::panicking() {
                self.pool.give_back(self.key, context);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kinrow_game::Rules;

    #[derive(Default)]
    struct Counter(Vec<u64>);

    impl Kept for Counter {
        fn bytes(&self) -> usize {
            self.0.capacity() * 8
        }
    }

    #[test]
    fn a_kept_state_is_made_once_and_found_again() {
        let mut ctx = SearchContext::new();
        ctx.kept::<Counter>().0.push(1);
        ctx.kept::<Counter>().0.push(2);
        assert_eq!(ctx.kept::<Counter>().0, vec![1, 2]);
        assert!(ctx.bytes() >= 16);
        ctx.clear();
        assert!(ctx.kept::<Counter>().0.is_empty());
    }

    #[test]
    fn the_pool_hands_back_a_context_of_the_same_rules_only() {
        let pool = Arc::new(ContextPool::new(2));
        let gomoku = Position::empty(&Rules::mnk(15, 15, 5).unwrap());
        let ttt = Position::empty(&Rules::mnk(3, 3, 3).unwrap());
        {
            let mut ctx = pool.take(&gomoku);
            ctx.kept::<Counter>().0.push(7);
        }
        assert_eq!(pool.idle(), 1);
        assert!(pool.take(&ttt).kept::<Counter>().0.is_empty());
        assert_eq!(pool.take(&gomoku).kept::<Counter>().0, vec![7]);
    }

    #[test]
    fn the_pool_keeps_at_most_its_bytes_the_newest_first() {
        let pool = Arc::new(ContextPool::new(8).with_max_bytes(3 * 8 * 1024));
        let p = Position::empty(&Rules::mnk(7, 7, 4).unwrap());
        let mut held: Vec<PooledContext> = (0..5).map(|_| pool.take(&p)).collect();
        for (i, ctx) in held.iter_mut().enumerate() {
            ctx.kept::<Counter>().0 = vec![i as u64; 1024];
        }
        drop(held);
        assert_eq!(pool.idle(), 3, "three contexts of 8 KiB fit in 24 KiB");
        assert!(pool.idle_bytes() <= 3 * 8 * 1024);
        assert_eq!(
            pool.take(&p).kept::<Counter>().0[0],
            4,
            "the newest is kept"
        );
        let big = Arc::new(ContextPool::new(8).with_max_bytes(1024));
        big.take(&p).kept::<Counter>().0 = vec![0; 1024];
        assert_eq!(big.idle(), 0, "a context over the cap alone is not kept");
    }

    #[test]
    fn the_pool_keeps_at_most_its_capacity() {
        let pool = Arc::new(ContextPool::new(2));
        let p = Position::empty(&Rules::mnk(7, 7, 4).unwrap());
        let held: Vec<PooledContext> = (0..5).map(|_| pool.take(&p)).collect();
        drop(held);
        assert_eq!(pool.idle(), 2);
    }
}
