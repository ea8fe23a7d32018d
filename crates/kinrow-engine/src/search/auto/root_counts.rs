//! What the root of `auto`'s pattern search spends and decides (issue 58 step 6): per
//! answer, the nodes and time of the root's threat-space searches (the plan: the VCFs,
//! the VCTs and the checks of the defences against the opponent's), of the guard's
//! checks and of the main search, and how often the plan or the guard decided the move
//! instead of the main search. Each answer adds its counts to process-wide totals,
//! which `kinrow bench --replay` prints (a line and a JSON object).

use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of the root's parts, summed over answers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RootCounters {
    /// Answers of the pattern search.
    pub answers: u64,
    /// Nodes of the root's threat-space searches (the plan and the defences' checks).
    pub plan_nodes: u64,
    /// Their time, in microseconds.
    pub plan_micros: u64,
    /// Answers whose move a threat-space win decided (no main search ran).
    pub plan_wins: u64,
    /// Answers whose root moves the opponent's VCF narrowed to its defences.
    pub plan_vcf_defences: u64,
    /// Answers whose root moves the opponent's VCT narrowed to its defences.
    pub plan_vct_defences: u64,
    /// Of the narrowed answers, those where the main search's first choice over every
    /// root (the ordering's best [`ROOT_WIDTH`](super::pattern) cells) lay outside the
    /// defences: the plan changed the move from what the ordering put first.
    pub plan_moved_first: u64,
    /// Nodes of the guard's checks.
    pub guard_nodes: u64,
    /// Their time, in microseconds.
    pub guard_micros: u64,
    /// Root moves the guard checked.
    pub guard_checks: u64,
    /// Of them, proven lost (the move left the roots unless it was the last).
    pub guard_refuted: u64,
    /// Of them, out of their slice of time (no answer).
    pub guard_out_of_time: u64,
    /// Of them, with no proof within their slice (the move held).
    pub guard_held: u64,
    /// Answers whose move the guard changed: the search's first choice was refuted and
    /// another move was played.
    pub guard_changed: u64,
    /// Nodes of the main search (its turns between the guard's, or its one run).
    pub search_nodes: u64,
    /// Its time, in microseconds.
    pub search_micros: u64,
}

const FIELDS: usize = 16;
static TOTALS: [AtomicU64; FIELDS] = [const { AtomicU64::new(0) }; FIELDS];

impl RootCounters {
    fn fields(&self) -> [u64; FIELDS] {
        [
            self.answers,
            self.plan_nodes,
            self.plan_micros,
            self.plan_wins,
            self.plan_vcf_defences,
            self.plan_vct_defences,
            self.plan_moved_first,
            self.guard_nodes,
            self.guard_micros,
            self.guard_checks,
            self.guard_refuted,
            self.guard_out_of_time,
            self.guard_held,
            self.guard_changed,
            self.search_nodes,
            self.search_micros,
        ]
    }

    const NAMES: [&'static str; FIELDS] = [
        "answers",
        "plan_nodes",
        "plan_micros",
        "plan_wins",
        "plan_vcf_defences",
        "plan_vct_defences",
        "plan_moved_first",
        "guard_nodes",
        "guard_micros",
        "guard_checks",
        "guard_refuted",
        "guard_out_of_time",
        "guard_held",
        "guard_changed",
        "search_nodes",
        "search_micros",
    ];

    /// Adds these counts to the process-wide totals.
    pub(super) fn flush(&self) {
        for (total, n) in TOTALS.iter().zip(self.fields()) {
            if n > 0 {
                total.fetch_add(n, Ordering::Relaxed);
            }
        }
    }

    /// The process-wide totals so far, reset to zero.
    pub fn take() -> RootCounters {
        RootCounters::from_fields(std::array::from_fn(|i| {
            TOTALS[i].swap(0, Ordering::Relaxed)
        }))
    }

    fn from_fields(f: [u64; FIELDS]) -> RootCounters {
        RootCounters {
            answers: f[0],
            plan_nodes: f[1],
            plan_micros: f[2],
            plan_wins: f[3],
            plan_vcf_defences: f[4],
            plan_vct_defences: f[5],
            plan_moved_first: f[6],
            guard_nodes: f[7],
            guard_micros: f[8],
            guard_checks: f[9],
            guard_refuted: f[10],
            guard_out_of_time: f[11],
            guard_held: f[12],
            guard_changed: f[13],
            search_nodes: f[14],
            search_micros: f[15],
        }
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &RootCounters) {
        let (a, b) = (self.fields(), other.fields());
        *self = RootCounters::from_fields(std::array::from_fn(|i| a[i] + b[i]));
    }

    /// The counts as a JSON object (one number per field).
    pub fn json(&self) -> String {
        let body: Vec<String> = Self::NAMES
            .iter()
            .zip(self.fields())
            .map(|(name, n)| format!("\"{name}\":{n}"))
            .collect();
        format!("{{{}}}", body.join(","))
    }

    /// One line for a report: each part's nodes and milliseconds (and its share of the
    /// three parts' nodes), and what the plan and the guard decided.
    pub fn line(&self) -> String {
        let all = (self.plan_nodes + self.guard_nodes + self.search_nodes).max(1) as f64;
        let part = |nodes: u64, micros: u64| {
            format!(
                "{nodes} nodes ({:.1}%), {:.0} ms",
                nodes as f64 * 100.0 / all,
                micros as f64 / 1000.0
            )
        };
        format!(
            "answers {}; root plan {}: wins {}, VCF defences {}, VCT defences {} (first choice outside them {}); guard {}: checks {}, refuted {}, out of time {}, held {}, move changed in {} answers; main search {}",
            self.answers,
            part(self.plan_nodes, self.plan_micros),
            self.plan_wins,
            self.plan_vcf_defences,
            self.plan_vct_defences,
            self.plan_moved_first,
            part(self.guard_nodes, self.guard_micros),
            self.guard_checks,
            self.guard_refuted,
            self.guard_out_of_time,
            self.guard_held,
            self.guard_changed,
            part(self.search_nodes, self.search_micros),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_names_every_field_with_its_count() {
        let c = RootCounters {
            answers: 3,
            guard_refuted: 2,
            search_micros: 9,
            ..RootCounters::default()
        };
        let json = c.json();
        assert!(json.starts_with("{\"answers\":3,"), "{json}");
        assert!(json.contains("\"guard_refuted\":2,"), "{json}");
        assert!(json.ends_with("\"search_micros\":9}"), "{json}");
        assert_eq!(json.matches(':').count(), FIELDS, "{json}");
        let mut sum = c;
        sum.add(&RootCounters {
            answers: 1,
            plan_wins: 4,
            ..RootCounters::default()
        });
        assert_eq!((sum.answers, sum.plan_wins, sum.guard_refuted), (4, 4, 2));
    }
}
