//! An arena contestant of kinrow's own: an engine and its parameters, parsed from
//! `name[:key=value]*`.

use std::time::Duration;

use kinrow_engine::level;
use kinrow_engine::network::Network;
use kinrow_engine::weights::LearnedWeights;
use kinrow_engine::Engine;
use kinrow_engine::EvalChoice;
use kinrow_engine::SearchContext;
use kinrow_engine::{CellValues, Tactics};
use kinrow_engine::{EngineKind, Parameter};
use kinrow_engine::{Limits, MAX_THREADS};

/// One contestant: an engine and its parameters, written `name[:key=value]*`,
/// e.g. `minimax:depth=4`, `perfect:mistake_probability=0.1:time_ms=50`, `auto:level=3` or
/// `auto:threads=2`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The engine.
    pub kind: EngineKind,
    /// Its time per move (the match's when omitted).
    pub time_ms: Option<u64>,
    /// Its depth limit.
    pub depth: Option<u32>,
    /// Its node limit per move.
    pub nodes: Option<u64>,
    /// The chance it overlooks each move it weighs (`perfect`).
    pub mistake_probability: Option<f64>,
    /// The difficulty 1..=10 (10, full strength, when omitted).
    pub level: Option<u8>,
    /// Threads of `auto`'s pattern search (1 when omitted).
    pub threads: Option<usize>,
    /// `auto`'s static evaluation on gomoku (`eval=learned`, the default, `eval=window`,
    /// or `weights=PATH`, a weights file): a lab setting, kept in the game's
    /// [`SearchContext`].
    pub eval: EvalChoice,
    /// Whether `auto` values every cell besides choosing its move, kept in the game's
    /// [`SearchContext`]: off, as for the Gomocup brain, since a player is shown only
    /// the move; `cells=on` plays as `/v1/suggest` answers by default (every cell
    /// valued, a share of the budget kept for it), to measure what the values cost.
    pub cells: CellValues,
    /// `auto`'s switchable search tactics (`verdicts=on`, `defences=add`,
    /// `mate_safe=on`, ...: [`Tactics`]), kept in the game's [`SearchContext`].
    pub tactics: Tactics,
    /// The text it was parsed from: the engine's label in the results.
    pub label: String,
}

impl EngineSpec {
    /// Parses `name[:key=value]*`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or_default();
        let kind = EngineKind::parse(name).ok_or_else(|| {
            let known: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown engine {name:?} (known: {})", known.join(", "))
        })?;
        let mut spec = EngineSpec {
            kind,
            time_ms: None,
            depth: None,
            nodes: None,
            mistake_probability: None,
            level: None,
            threads: None,
            eval: EvalChoice::default(),
            cells: CellValues(false),
            tactics: Tactics::default(),
            label: text.trim().to_string(),
        };
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{text:?}: parameter {part:?} is not key=value"))?;
            let bad = |what: &str| format!("{text:?}: {key}={value:?} is not {what}");
            if key == "eval" {
                if kind != EngineKind::Auto {
                    return Err(format!("{text:?}: only auto takes eval"));
                }
                spec.eval = EvalChoice::parse(value)
                    .ok_or_else(|| bad("learned, tables, network or window"))?;
                continue;
            }
            if key == "cells" {
                if kind != EngineKind::Auto {
                    return Err(format!("{text:?}: only auto takes cells"));
                }
                spec.cells = CellValues(match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad("on or off")),
                });
                continue;
            }
            if let Some(set) = spec.tactics.set(key, value) {
                if kind != EngineKind::Auto {
                    return Err(format!("{text:?}: only auto takes {key}"));
                }
                set.map_err(|e| format!("{text:?}: {e}"))?;
                continue;
            }
            if key == "weights" || key == "network" {
                if kind != EngineKind::Auto {
                    return Err(format!("{text:?}: only auto takes {key}"));
                }
                let file = std::fs::read_to_string(value)
                    .map_err(|e| format!("{text:?}: {key} file {value:?}: {e}"))?;
                let bad_file = |e: String| format!("{text:?}: {key} file {value:?}: {e}");
                // One leak per contestant of a lab command: the searchers take the
                // weights or the network by reference for the whole run.
                spec.eval = if key == "weights" {
                    let w = LearnedWeights::parse(&file).map_err(bad_file)?;
                    EvalChoice::File(Box::leak(Box::new(w)))
                } else {
                    let n = Network::parse(&file).map_err(bad_file)?;
                    EvalChoice::NetworkFile(Box::leak(Box::new(n)))
                };
                continue;
            }
            let param = match key {
                "time_ms" => {
                    spec.time_ms = Some(value.parse().map_err(|_| bad("a whole number"))?);
                    Parameter::TimeMs
                }
                "depth" => {
                    spec.depth = Some(value.parse().map_err(|_| bad("a whole number"))?);
                    Parameter::Depth
                }
                "nodes" => {
                    spec.nodes = Some(value.parse().map_err(|_| bad("a whole number"))?);
                    Parameter::Nodes
                }
                "mistake_probability" => {
                    let p: f64 = value.parse().map_err(|_| bad("a number"))?;
                    if !(0.0..=1.0).contains(&p) {
                        return Err(bad("between 0 and 1"));
                    }
                    spec.mistake_probability = Some(p);
                    Parameter::MistakeProbability
                }
                "level" => {
                    let l: u8 = value.parse().map_err(|_| bad("a whole number"))?;
                    if !(level::MIN..=level::FULL).contains(&l) {
                        return Err(bad("between 1 and 10"));
                    }
                    spec.level = Some(l);
                    Parameter::Level
                }
                "threads" => {
                    let t: usize = value.parse().map_err(|_| bad("a whole number"))?;
                    if !(1..=MAX_THREADS).contains(&t) {
                        return Err(bad(&format!("between 1 and {MAX_THREADS}")));
                    }
                    spec.threads = Some(t);
                    Parameter::Threads
                }
                _ => {
                    return Err(format!(
                        "{text:?}: unknown parameter {key:?} (time_ms, depth, nodes, mistake_probability, level, threads, eval, weights, cells, network, {})",
                        Tactics::KEYS
                    ))
                }
            };
            if !kind.parameters().contains(&param) {
                return Err(format!("{text:?}: {name} does not read {key}"));
            }
        }
        Ok(spec)
    }

    /// The engine at the spec's level (also what applies `mistake_probability` at the
    /// root of a one-ply engine).
    pub fn build(&self) -> Box<dyn Engine> {
        Box::new(level::Leveled::new(
            self.kind,
            self.level.unwrap_or(level::FULL),
        ))
    }

    /// A context for one game of this contestant: nothing kept yet, and its evaluation.
    pub fn context(&self) -> SearchContext {
        let mut ctx = SearchContext::new();
        *ctx.kept::<EvalChoice>() = self.eval;
        *ctx.kept::<CellValues>() = self.cells;
        *ctx.kept::<Tactics>() = self.tactics;
        ctx
    }

    /// The limits of one move: the spec's own values over the match's time budget.
    pub fn limits(&self, default_time: Duration) -> Limits {
        Limits {
            time: self.time_ms.map_or(default_time, Duration::from_millis),
            depth: self.depth,
            nodes: self.nodes,
            mistake_probability: self.mistake_probability.unwrap_or(0.0),
            threads: self.threads.unwrap_or(1),
            target: None,
        }
    }
}
