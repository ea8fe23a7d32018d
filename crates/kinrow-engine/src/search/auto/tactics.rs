//! The tactics of `auto`'s alpha-beta that the lab can switch (issue 58): exact static
//! threat verdicts at every node, generated defences against an opposing four-three
//! (and the exact common defences of several threes), and mate-safe selectivity (no
//! loss claimed from a move list cut by the width). Each is an `auto:KEY=VALUE`
//! option of the lab's contestants (`kinrow arena`, `kinrow bench --replay`), kept in
//! the [`SearchContext`](crate::core::context::SearchContext), so that one binary can
//! play one setting against the other; the defaults are what the SPRTs decided
//! (docs/strength.md), and the API and the Gomocup brain play the defaults.
//!
//! The counters beside them ([`SearchCounters`]) say how often the situations these
//! options handle arise: each search adds its own counts to process-wide totals when it
//! is dropped, which `kinrow bench` prints.

use std::sync::atomic::{AtomicU64, Ordering};

/// What the alpha-beta searches at a node where the opponent threatens.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Defences {
    /// Against a three: one's own fours and the cells of the opponent's windows through
    /// the first threatened cell; a four-three is a quiet node.
    Off,
    /// Against threes: the cells that stop every threatened cell at once (the
    /// intersection over the opponent's three cells), with one's own fours; against a
    /// four-three: its defence cells added to the quiet node's moves.
    Add,
    /// As [`Defences::Add`], but against a four-three only its defence cells and one's
    /// own fours are searched, with no reductions, as against a three.
    Only,
}

/// When a quiet node whose kept moves all lost searches the moves the width cut before
/// it claims (and stores) the loss, and whether the guard checks root moves valued as
/// wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateSafe {
    /// The loss is claimed from the cut list; the guard leaves wins alone.
    Off,
    /// The cut moves are searched only at a remaining depth of at most
    /// [`MateSafe::SHALLOW_DEPTH`] (where the refill is cheap); the guard leaves wins
    /// alone.
    Shallow,
    /// The cut moves are searched at every depth; the guard checks wins too.
    On,
}

impl MateSafe {
    /// The deepest remaining depth at which [`MateSafe::Shallow`] refills a cut list
    /// (the research's cap: threats-in-the-tree.md, change 1).
    pub const SHALLOW_DEPTH: i32 = 3;

    /// Whether a cut list whose kept moves all lost is refilled at remaining `depth`.
    pub fn refills(self, depth: i32) -> bool {
        match self {
            MateSafe::Off => false,
            MateSafe::Shallow => depth <= MateSafe::SHALLOW_DEPTH,
            MateSafe::On => true,
        }
    }

    /// Whether the guard checks root moves the alpha-beta values as wins.
    pub fn checks_wins(self) -> bool {
        self == MateSafe::On
    }
}

/// What a leaf of the alpha-beta reads before its static value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Quiescence {
    /// A one-sided VCF probe of the side to move (a few fours, a few solver nodes,
    /// fours board-wide): a win or the static value.
    Off,
    /// A two-sided VCF quiescence with stand-pat (issue 58, step 4): own fours near
    /// one's own last move, the forced block free, then the blocker's own fours; values,
    /// not win or no-win ([`super::search`]'s `quiesce` module).
    Vcf,
}

/// What the guard does with a root move whose check ran out of its slice (issue 58
/// step 6), or whether it runs at all.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Guard {
    /// No guard: the search takes the whole time, the root moves unchecked.
    Off,
    /// A check out of its slice ends the guard's turn, the move kept unchecked.
    On,
    /// A check out of its slice moves on to the next root move (the unchecked one stays
    /// first and is checked again in the next turn), so that the moves behind it are
    /// checked too.
    Next,
}

/// Which of the root's threat-space searches run before the main search (issue 58 step
/// 6): the VCFs (the mover's, and the opponent's were the mover to pass) always do. The
/// default is [`RootVct::Opponent`] since its SPRT (Elo +44 at 20 000 nodes against
/// [`RootVct::On`]: the mover's VCT took 12.9% of the nodes on the R8 replay and decided
/// 3 of its 123 moves; docs/strength.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RootVct {
    /// The mover's VCT and the opponent's (with its defences checked) as well (the
    /// default before issue 58 step 6).
    On,
    /// Neither VCT: their shares go to the main search.
    Off,
    /// Only the opponent's VCT (with its defences checked), not the mover's.
    Opponent,
}

/// How the root's time is shared between the threat-space searches, the guard and the
/// main search (issue 58 step 6).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootTime {
    /// `auto:guard=on|off|next`.
    pub guard: Guard,
    /// `auto:root_vct=on|off|opponent`.
    pub root_vct: RootVct,
}

impl Default for RootTime {
    fn default() -> RootTime {
        RootTime {
            guard: Guard::On,
            root_vct: RootVct::Opponent,
        }
    }
}

/// The switchable tactics of the pattern search (see the module's text).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tactics {
    /// Static threat verdicts at every node (`auto:verdicts=on|off`).
    pub verdicts: bool,
    /// Defences against threats (`auto:defences=off|add|only`).
    pub defences: Defences,
    /// No mate score from a list cut by the width, at every depth with the guard
    /// checking winning roots, or only near the leaves (`auto:mate_safe=on|shallow|off`).
    pub mate_safe: MateSafe,
    /// Rapfi's depth selectivity, each row its own switch (issue 58 step 5).
    pub depth: Selectivity,
    /// What a leaf reads (`auto:quiescence=off|vcf`).
    pub quiescence: Quiescence,
    /// The root's shares of the time: its threat-space searches and the guard.
    pub root: RootTime,
}

/// Where the alpha-beta spends its depth (issue 58 step 5, the research's D5 rows 1-7),
/// each an `auto:` switch, off until an SPRT keeps it (`futility`, `move_count` and `razor` are on since their SPRTs). Every one keeps the mate
/// guard: none prunes before the node has a move that does not lose, none returns an
/// unproven win, and fours and threat defences are never pruned.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Selectivity {
    /// Row 5 (`auto:reply_ext=on`): every third forced reply (the block of a five) on a
    /// line gains a ply besides costing none, a forced reply worth 1.3 plies as in
    /// Rapfi's singular-response extension.
    pub reply_ext: bool,
    /// Row 3 (`auto:move_count=on`): the quiet moves searched grow with the depth,
    /// `1.2 (3 + d^1.32) / (2 - improving)` (the improving branch is today's 5, 7 and
    /// 10 at depths 1-3), in place of the fixed widths; every four is kept, and the
    /// moves the count cut are searched when every kept one lost.
    pub move_count: bool,
    /// Row 4 (`auto:log_lmr=on`): late moves reduced by `ln d ln i / 2` plies (rounded)
    /// instead of one or two, a ply less for a move that makes a three or four of
    /// one's own, a ply more for a move that makes no threat for either side.
    pub log_lmr: bool,
    /// Row 2 (`auto:futility=on`): at a quiet null-window node under the learned
    /// evaluation, a static value at least `beta + 315 (d - improving)` is returned
    /// (never where beta is a mate bound, nor after two own fours in a row).
    pub futility: bool,
    /// Row 6 (`auto:alpha_reduce=on`): once a move raises alpha (without a cut) at a
    /// remaining depth between 3 and 11, the remaining moves are searched a ply
    /// shallower.
    pub alpha_reduce: bool,
    /// Row 7 (`auto:attack_history=on`): a move that makes a three or four of one's own
    /// and cuts is counted in a history of attacks kept per side, apart from the
    /// history of the other moves, and attacking moves are ordered by it.
    pub attack_history: bool,
    /// Row 1 (`auto:razor=on`): at a quiet null-window node one or two plies above the
    /// leaves whose static value lies more than [`razor_margin`] below alpha, the
    /// quiescence is read first with the node's window, and its value is returned where
    /// it fails low (never a mate bound, never against a five, a three or a four-three
    /// of the opponent's).
    pub razor: bool,
}

/// `auto:razor`: the deepest remaining depth that is razored (Rapfi razors below 2.6 of
/// its plies).
pub const RAZOR_DEPTH: i32 = 2;

/// `auto:razor`: how far below alpha a node's static value at remaining depth `depth`
/// must lie to be razored, in thousandths of a logit: Rapfi's `0.17 d^2 + 14 d + 19` of
/// its units, five of ours each (the research's D5, row 1): 165 at one ply, 238 at two.
pub fn razor_margin(depth: i32) -> i64 {
    let d = depth as i64;
    (85 * d * d + 7_000 * d + 9_500) / 100
}

/// The defaults, each as its SPRT at 20 000 nodes decided (docs/strength.md): the
/// verdicts passed (`-3,1`, Elo +27), child futility passed (`0,5`, Elo +52) and the move
/// count on top of it (`0,5`, Elo +48); the quiescence passed its (`0,5`, Elo +137, and
/// +22 against the probe given 1.6 times the nodes), and razoring on top of them (`0,5`,
/// Elo +26); the others are off until theirs are
/// logged.
impl Default for Tactics {
    fn default() -> Tactics {
        Tactics {
            verdicts: true,
            defences: Defences::Off,
            mate_safe: MateSafe::Off,
            depth: Selectivity {
                futility: true,
                move_count: true,
                razor: true,
                ..Selectivity::default()
            },
            quiescence: Quiescence::Vcf,
            root: RootTime::default(),
        }
    }
}

impl crate::core::context::Kept for Tactics {
    fn bytes(&self) -> usize {
        0
    }
}

impl Tactics {
    /// The option names, for the lab's messages.
    pub const KEYS: &'static str =
        "verdicts, defences, mate_safe, quiescence, reply_ext, move_count, \
        log_lmr, futility, alpha_reduce, attack_history, guard, root_vct, razor";

    /// Sets option `key` to `value`: `None` when `key` is none of these options, else
    /// whether `value` was understood (the error names the option and what it takes).
    pub fn set(&mut self, key: &str, value: &str) -> Option<Result<(), String>> {
        let on_off = |v: &str| match v {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(format!("{key}={value:?} is not on or off")),
        };
        Some(match key {
            "verdicts" => on_off(value).map(|b| self.verdicts = b),
            "mate_safe" => match value {
                "off" => Ok(MateSafe::Off),
                "shallow" => Ok(MateSafe::Shallow),
                "on" => Ok(MateSafe::On),
                _ => Err(format!("{key}={value:?} is not off, shallow or on")),
            }
            .map(|m| self.mate_safe = m),
            "defences" => match value {
                "off" => Ok(Defences::Off),
                "add" => Ok(Defences::Add),
                "only" => Ok(Defences::Only),
                _ => Err(format!("{key}={value:?} is not off, add or only")),
            }
            .map(|d| self.defences = d),
            "quiescence" => match value {
                "off" => Ok(Quiescence::Off),
                "vcf" => Ok(Quiescence::Vcf),
                _ => Err(format!("{key}={value:?} is not off or vcf")),
            }
            .map(|q| self.quiescence = q),
            "reply_ext" => on_off(value).map(|b| self.depth.reply_ext = b),
            "move_count" => on_off(value).map(|b| self.depth.move_count = b),
            "log_lmr" => on_off(value).map(|b| self.depth.log_lmr = b),
            "futility" => on_off(value).map(|b| self.depth.futility = b),
            "alpha_reduce" => on_off(value).map(|b| self.depth.alpha_reduce = b),
            "attack_history" => on_off(value).map(|b| self.depth.attack_history = b),
            "guard" => match value {
                "off" => Ok(Guard::Off),
                "on" => Ok(Guard::On),
                "next" => Ok(Guard::Next),
                _ => Err(format!("{key}={value:?} is not off, on or next")),
            }
            .map(|g| self.root.guard = g),
            "root_vct" => match value {
                "on" => Ok(RootVct::On),
                "off" => Ok(RootVct::Off),
                "opponent" => Ok(RootVct::Opponent),
                _ => Err(format!("{key}={value:?} is not on, off or opponent")),
            }
            .map(|v| self.root.root_vct = v),
            "razor" => on_off(value).map(|b| self.depth.razor = b),
            _ => return None,
        })
    }
}

/// How often the alpha-beta met what [`Tactics`] handles, summed over searches.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchCounters {
    /// Nodes searched (the alpha-beta's own, leaves included).
    pub nodes: u64,
    /// Quiet nodes whose move list the width cut and whose searched moves all lost.
    pub truncated_all_lose: u64,
    /// Of those, the ones that returned (and stored) the loss: false mates unless the
    /// cut moves lose too.
    pub false_mates: u64,
    /// Root moves valued as a win or a loss after a completed iteration whose search
    /// met such a false mate: mate values that are not proofs.
    pub unproven_root_mates: u64,
    /// Nodes where the opponent had a four-three cell and no three to answer.
    pub opponent_four_three: u64,
    /// Leaf VCFs that gave up at their node cap.
    pub leaf_vcf_aborts: u64,
    /// Static threat verdicts returned at inner nodes and leaves (`verdicts=on`).
    pub verdicts: u64,
}

static TOTALS: [AtomicU64; 7] = [const { AtomicU64::new(0) }; 7];

impl SearchCounters {
    fn fields(&self) -> [u64; 7] {
        [
            self.nodes,
            self.truncated_all_lose,
            self.false_mates,
            self.unproven_root_mates,
            self.opponent_four_three,
            self.leaf_vcf_aborts,
            self.verdicts,
        ]
    }

    /// Adds these counts to the process-wide totals.
    pub(super) fn flush(&mut self) {
        for (total, n) in TOTALS.iter().zip(self.fields()) {
            if n > 0 {
                total.fetch_add(n, Ordering::Relaxed);
            }
        }
        *self = SearchCounters::default();
    }

    /// The process-wide totals so far, reset to zero.
    pub fn take() -> SearchCounters {
        let [nodes, truncated_all_lose, false_mates, unproven_root_mates, opponent_four_three, leaf_vcf_aborts, verdicts] =
            std::array::from_fn(|i| TOTALS[i].swap(0, Ordering::Relaxed));
        SearchCounters {
            nodes,
            truncated_all_lose,
            false_mates,
            unproven_root_mates,
            opponent_four_three,
            leaf_vcf_aborts,
            verdicts,
        }
    }

    /// One line for a report: each count, per million nodes where it is per node.
    pub fn line(&self) -> String {
        let per_m = |n: u64| n as f64 * 1e6 / self.nodes.max(1) as f64;
        format!(
            "alpha-beta nodes {}; truncated all-lose nodes {} ({:.1}/M); false mates {} ({:.1}/M); unproven root mates {}; opponent four-three nodes {} ({:.1}/M); leaf VCF aborts {} ({:.1}/M); static verdicts {} ({:.1}/M)",
            self.nodes,
            self.truncated_all_lose,
            per_m(self.truncated_all_lose),
            self.false_mates,
            per_m(self.false_mates),
            self.unproven_root_mates,
            self.opponent_four_three,
            per_m(self.opponent_four_three),
            self.leaf_vcf_aborts,
            per_m(self.leaf_vcf_aborts),
            self.verdicts,
            per_m(self.verdicts),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_name_the_field_they_reject() {
        let mut t = Tactics::default();
        assert_eq!(t.set("verdicts", "on"), Some(Ok(())));
        assert_eq!(t.set("defences", "only"), Some(Ok(())));
        assert_eq!(t.set("mate_safe", "shallow"), Some(Ok(())));
        assert_eq!(
            t,
            Tactics {
                verdicts: true,
                defences: Defences::Only,
                mate_safe: MateSafe::Shallow,
                depth: Tactics::default().depth,
                quiescence: Quiescence::Vcf,
                root: RootTime::default(),
            }
        );
        for key in [
            "reply_ext",
            "move_count",
            "log_lmr",
            "futility",
            "alpha_reduce",
            "attack_history",
            "razor",
        ] {
            assert_eq!(t.set(key, "on"), Some(Ok(())), "{key}");
            let err = t.set(key, "1.3").unwrap().unwrap_err();
            assert!(err.contains(key), "{err}");
        }
        assert_eq!(
            t.depth,
            Selectivity {
                reply_ext: true,
                move_count: true,
                log_lmr: true,
                futility: true,
                alpha_reduce: true,
                attack_history: true,
                razor: true,
            }
        );
        assert_eq!(t.set("quiescence", "vcf"), Some(Ok(())));
        assert_eq!(t.quiescence, Quiescence::Vcf);
        let err = t.set("quiescence", "deep").unwrap().unwrap_err();
        assert!(err.contains("quiescence"), "{err}");
        assert_eq!(t.set("mate_safe", "on"), Some(Ok(())));
        assert_eq!(t.mate_safe, MateSafe::On);
        assert_eq!(t.set("level", "3"), None);
        let err = t.set("defences", "all").unwrap().unwrap_err();
        assert!(err.contains("defences"), "{err}");
        let err = t.set("mate_safe", "yes").unwrap().unwrap_err();
        assert!(err.contains("mate_safe"), "{err}");
        assert_eq!(t.set("guard", "next"), Some(Ok(())));
        assert_eq!(t.set("root_vct", "off"), Some(Ok(())));
        assert_eq!(
            t.root,
            RootTime {
                guard: Guard::Next,
                root_vct: RootVct::Off,
            }
        );
        let err = t.set("guard", "later").unwrap().unwrap_err();
        assert!(err.contains("guard"), "{err}");
        let err = t.set("root_vct", "1").unwrap().unwrap_err();
        assert!(err.contains("root_vct"), "{err}");
    }
}
