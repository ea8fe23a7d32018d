//! The gomoku network: a small NNUE-style evaluation over the cell codes.
//!
//! **Algorithm.** Every empty cell has, per player, a code: its four line classes as
//! one number ([`super::cells`]). The network gives every code a vector of
//! [`CHANNELS`] numbers (`embed`, whole numbers at [`EMBED_SCALE`] per unit). A player's
//! *accumulator* is the sum of the vectors of its codes over the board's empty cells;
//! the board keeps both accumulators up to date as pieces go on and come off (a cell
//! whose code changes subtracts its old vector and adds its new one), so they are exact
//! whole numbers whatever the order of the moves. To judge a position for the side to
//! move:
//!
//! 1. `x` = the side to move's accumulator, then the opponent's, each scaled back to
//!    units, plus its bias, clipped to `[0, 1]` (2·[`CHANNELS`] inputs);
//! 2. `h` = the threat mask's row (what the threats either side can make at once say,
//!    [`super::weights::threat_mask`], [`HIDDEN`] numbers, the first layer's bias folded
//!    in) plus `x` through the first layer's weights, clipped to `[0, 1]`;
//! 3. the output `w2 · h + b2` is the logit of the side to move's expected result, and
//!    [`Network::eval`] returns it in thousandths ([`super::weights::UNIT`]), the scale
//!    of the tables it replaces.
//!
//! The network is fitted by `kinrow fit` (crates/kinrow-lab) to positions a stronger
//! engine valued (`kinrow label`); docs/evaluation.md has the commands that made the
//! committed file, `networks/gomoku.txt`, which the build embeds.

use std::fmt::Write as _;
use std::sync::OnceLock;

use super::cells::{classes_of, CODES};
use super::classes::LineClass;
use super::weights::{fits, MASKS, UNIT};
use kinrow_game::Rules;

/// Channels of a code's vector and of an accumulator.
pub const CHANNELS: usize = 16;
/// Units of the hidden layer.
pub const HIDDEN: usize = 32;
/// Whole-number steps per unit of a code's vector.
pub const EMBED_SCALE: f32 = 512.0;

/// The first line of a network file.
const MAGIC: &str = "kinrow-network 1";

/// One player's accumulator: the sum of its codes' vectors, in [`EMBED_SCALE`] steps.
pub type Accumulator = [i32; CHANNELS];

/// A fitted network (see the module text).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// What the network is and where it came from (free text, one line).
    pub name: String,
    /// Per code, its vector in [`EMBED_SCALE`] steps.
    pub embed: Vec<[i16; CHANNELS]>,
    /// Added to an accumulator (in units) before the clip: the side to move's, then the
    /// opponent's.
    pub bias: [[f32; CHANNELS]; 2],
    /// The first layer: row `i` is what input `i` adds to each hidden unit.
    pub w1: Vec<[f32; HIDDEN]>,
    /// Per threat mask, the hidden units' starting values (the first layer's bias).
    pub masks: Vec<[f32; HIDDEN]>,
    /// The output's weights.
    pub w2: [f32; HIDDEN],
    /// The output's bias.
    pub b2: f32,
}

#[inline]
fn clip(v: f32) -> f32 {
    v.clamp(0.0, 1.0)
}

impl Network {
    /// A network whose every number is 0: every position even.
    pub fn zero(name: &str) -> Network {
        Network {
            name: name.to_string(),
            embed: vec![[0; CHANNELS]; CODES],
            bias: [[0.0; CHANNELS]; 2],
            w1: vec![[0.0; HIDDEN]; 2 * CHANNELS],
            masks: vec![[0.0; HIDDEN]; MASKS],
            w2: [0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// The logit of the side to move's expected result, from its accumulator `own`,
    /// the opponent's `opp` and the threat mask `mask`.
    #[inline]
    pub fn logit(&self, own: &Accumulator, opp: &Accumulator, mask: usize) -> f32 {
        let mut h = self.masks[mask];
        for (side, acc) in [own, opp].into_iter().enumerate() {
            for (i, &a) in acc.iter().enumerate() {
                let x = clip(a as f32 / EMBED_SCALE + self.bias[side][i]);
                if x != 0.0 {
                    let row = &self.w1[side * CHANNELS + i];
                    for (hj, &w) in h.iter_mut().zip(row) {
                        *hj += x * w;
                    }
                }
            }
        }
        self.b2
            + h.iter()
                .zip(&self.w2)
                .map(|(&v, &w)| clip(v) * w)
                .sum::<f32>()
    }

    /// [`Network::logit`] in thousandths of a logit, the evaluation's unit.
    #[inline]
    pub fn eval(&self, own: &Accumulator, opp: &Accumulator, mask: usize) -> i64 {
        (self.logit(own, opp, mask) * UNIT as f32).round() as i64
    }

    /// The file's text: every number written so that it reads back exactly.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{MAGIC}\n# A gomoku network (crates/kinrow-engine/src/eval/network.rs), written by `kinrow fit`.\nname {}\nshape {CODES} {CHANNELS} {HIDDEN} {EMBED_SCALE}\n",
            self.name
        );
        let floats = |out: &mut String, key: &str, xs: &[f32]| {
            out.push_str(key);
            for x in xs {
                let _ = write!(out, " {x}");
            }
            out.push('\n');
        };
        for (code, v) in self.embed.iter().enumerate() {
            let name = classes_of(code as u16).map(LineClass::short).join(",");
            let _ = write!(out, "embed {name}");
            for x in v {
                let _ = write!(out, " {x}");
            }
            out.push('\n');
        }
        floats(&mut out, "bias own", &self.bias[0]);
        floats(&mut out, "bias opp", &self.bias[1]);
        for (i, row) in self.w1.iter().enumerate() {
            floats(&mut out, &format!("w1 {i}"), row);
        }
        for (m, row) in self.masks.iter().enumerate() {
            floats(&mut out, &format!("mask {m}"), row);
        }
        floats(&mut out, "w2", &self.w2);
        floats(&mut out, "b2", &[self.b2]);
        out
    }

    /// Reads a network file; every part must be there, with the shape this build has.
    pub fn parse(text: &str) -> Result<Network, String> {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        if lines.next() != Some(MAGIC) {
            return Err(format!(
                "not a network file: the first line is not {MAGIC:?}"
            ));
        }
        let mut net = Network::zero("");
        let names: Vec<String> = (0..CODES)
            .map(|c| classes_of(c as u16).map(LineClass::short).join(","))
            .collect();
        let mut seen = 0usize;
        let mut expected = 0usize;
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            let index = |w: &str, n: usize| -> Result<usize, String> {
                w.parse::<usize>()
                    .ok()
                    .filter(|&i| i < n)
                    .ok_or_else(|| format!("line {line:?}: {w:?} is not an index below {n}"))
            };
            match words.as_slice() {
                [] => {}
                ["name", ..] => net.name = line["name".len()..].trim().to_string(),
                ["shape", rest @ ..] => check_shape(rest)?,
                ["embed", code, rest @ ..] => {
                    let (c, row) = embed_row(&names, code, rest)?;
                    net.embed[c] = row;
                    seen += 1;
                }
                ["bias", side @ ("own" | "opp"), rest @ ..] => {
                    let v = numbers(rest, CHANNELS, line)?;
                    net.bias[(*side == "opp") as usize].copy_from_slice(&v);
                    expected |= 1 << (*side == "opp") as usize;
                }
                ["w1", i, rest @ ..] => {
                    let i = index(i, 2 * CHANNELS)?;
                    net.w1[i].copy_from_slice(&numbers(rest, HIDDEN, line)?);
                    seen += 1;
                }
                ["mask", m, rest @ ..] => {
                    let m = index(m, MASKS)?;
                    net.masks[m].copy_from_slice(&numbers(rest, HIDDEN, line)?);
                    seen += 1;
                }
                ["w2", rest @ ..] => {
                    net.w2.copy_from_slice(&numbers(rest, HIDDEN, line)?);
                    expected |= 4;
                }
                ["b2", rest @ ..] => {
                    net.b2 = numbers(rest, 1, line)?[0];
                    expected |= 8;
                }
                _ => return Err(format!("line {line:?} is not part of a network")),
            }
        }
        let want = CODES + 2 * CHANNELS + MASKS;
        if seen != want || expected != 15 {
            return Err(format!(
                "the file has {seen} of the {want} embed, w1 and mask lines, or lacks a bias, w2 or b2"
            ));
        }
        Ok(net)
    }
}

/// The numbers of a line's `words`, which must be `n` (errors name the `line`).
fn numbers(words: &[&str], n: usize, line: &str) -> Result<Vec<f32>, String> {
    let v: Vec<f32> = words
        .iter()
        .map(|w| w.parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("line {line:?}: not numbers"))?;
    if v.len() != n {
        return Err(format!("line {line:?}: {} numbers, not {n}", v.len()));
    }
    Ok(v)
}

/// Checks a `shape` line's numbers against this build's.
fn check_shape(rest: &[&str]) -> Result<(), String> {
    let want = [
        CODES.to_string(),
        CHANNELS.to_string(),
        HIDDEN.to_string(),
        EMBED_SCALE.to_string(),
    ];
    if rest != want.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(format!("shape {rest:?} is not this build's {want:?}"));
    }
    Ok(())
}

/// An `embed` line: the index of its `code` among the codes' `names` and its row.
fn embed_row(
    names: &[String],
    code: &str,
    rest: &[&str],
) -> Result<(usize, [i16; CHANNELS]), String> {
    let c = names
        .iter()
        .position(|n| n == code)
        .ok_or_else(|| format!("{code:?} is not a code"))?;
    let v: Vec<i16> = rest
        .iter()
        .map(|w| w.parse::<i16>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("embed {code}: not whole numbers"))?;
    let row = v
        .try_into()
        .map_err(|_| format!("embed {code}: not {CHANNELS} numbers"))?;
    Ok((c, row))
}
/// The network the build embeds for `rules`, where there is one: freestyle gomoku
/// (k = 5, a longer line wins, marks only), the rules its teacher played.
pub fn for_rules(rules: &Rules) -> Option<&'static Network> {
    (fits(rules) && rules.overline()).then(gomoku).flatten()
}

/// The committed gomoku network.
pub fn gomoku() -> Option<&'static Network> {
    static N: OnceLock<Option<Network>> = OnceLock::new();
    N.get_or_init(|| Network::parse(include_str!("networks/gomoku.txt")).ok())
        .as_ref()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A network with every number drawn from a fixed sequence.
    pub(crate) fn scrambled() -> Network {
        let mut state = 7u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as f64 / (1u64 << 31) as f64) as f32 * 2.0 - 1.0
        };
        let mut net = Network::zero("scrambled");
        for v in net.embed.iter_mut() {
            for x in v.iter_mut() {
                *x = (next() * 300.0) as i16;
            }
        }
        for side in net.bias.iter_mut() {
            for x in side.iter_mut() {
                *x = next() * 0.5;
            }
        }
        for row in net.w1.iter_mut().chain(net.masks.iter_mut()) {
            for x in row.iter_mut() {
                *x = next() * 0.3;
            }
        }
        for x in net.w2.iter_mut() {
            *x = next();
        }
        net.b2 = next() * 0.1;
        net
    }

    #[test]
    fn networks_round_trip_through_text() {
        let net = scrambled();
        assert_eq!(Network::parse(&net.to_text()).unwrap(), net);
        let cut = net.to_text().replace("w2 ", "w3 ");
        assert!(Network::parse(&cut).unwrap_err().contains("w3"));
        let short: String = net
            .to_text()
            .lines()
            .filter(|l| !l.starts_with("mask 5 "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(Network::parse(&short).unwrap_err().contains("of the"));
    }

    #[test]
    fn the_committed_network_reads() {
        let net = gomoku().expect("networks/gomoku.txt reads");
        assert!(net.embed.iter().any(|v| v.iter().any(|&x| x != 0)));
        assert!(net.w2.iter().any(|&x| x != 0.0));
    }

    #[test]
    fn the_logit_follows_the_layers() {
        let mut net = Network::zero("one path");
        // One own channel at 0.5 feeds hidden unit 3 with weight 2 (h = 1 after the clip
        // of 1.0 + 0.25 mask start), which the output weighs 0.8, plus b2 0.1.
        net.w1[0][3] = 2.0;
        net.masks[5][3] = 0.25;
        net.w2[3] = 0.8;
        net.b2 = 0.1;
        let mut own = [0; CHANNELS];
        own[0] = (0.5 * EMBED_SCALE) as i32;
        let opp = [0; CHANNELS];
        assert!((net.logit(&own, &opp, 5) - 0.9).abs() < 1e-6);
        // Mask 0 starts unit 3 at 0: h = 1.0 -> still clipped to 1.
        assert!((net.logit(&own, &opp, 0) - 0.9).abs() < 1e-6);
        // Half the channel: h = 0.5 + 0.25.
        own[0] = (0.25 * EMBED_SCALE) as i32;
        assert!((net.logit(&own, &opp, 5) - (0.1 + 0.8 * 0.75)).abs() < 1e-6);
        // The opponent's same channel goes through w1's second half: nothing here.
        assert!((net.logit(&opp, &own, 5) - (0.1 + 0.8 * 0.25)).abs() < 1e-6);
        assert_eq!(net.eval(&opp, &own, 5), 300);
    }
}
