//! `kinrow fit`: fits the gomoku network ([`Network`]) to labelled game records.
//!
//! The positions are those `kinrow tune` learns from ([`learnable_positions`]): after
//! the opening, on each game's path and after each sibling, without a five to make;
//! unlike `tune`, the positions the teacher proved count too, with their outcome as the
//! target. A sample keeps, for the side to move and for the opponent, how many empty
//! cells carry each cell code, and the threat mask; its target is the recorded value
//! (the teacher's, from `kinrow label`) mixed with the game's result (`--mix`).
//!
//! **Training.** Minibatch Adam on the cross-entropy between `σ(logit)` and the target,
//! the network run in floating point exactly as [`Network::logit`] runs it (the same
//! clipped layers). Rare codes and masks borrow from their parts, as in `kinrow tune`:
//! a code's vector is its own plus those of its four line classes, a mask's row its own
//! plus those of its threat bits, and the parts are folded together when the network is
//! written; the codes' and masks' own parts carry a stronger pull towards 0. The
//! batches are cut in halves that `--threads` threads work on at once. Every
//! `--holdout`-th game is kept out and measured on: the log-loss against the targets
//! and against the game results, for the network, for the committed tables and for a
//! constant. The order of the samples is shuffled by `--seed`, so the same records and
//! flags make the same network.

use std::path::PathBuf;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::tune::{learnable_positions, log_loss, sigmoid, split_samples};
use crate::output::Progress;
use crate::record::read_text;
use kinrow_engine::network::{Network, CHANNELS, EMBED_SCALE, HIDDEN};
use kinrow_engine::weights::{threat_mask, LearnedWeights, MASKS, MASK_THREATS, UNIT};
use kinrow_engine::CLASSES;
use kinrow_engine::{classes_of, CODES};

/// `kinrow fit`'s flags.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Labelled game records (`kinrow label`'s; `.gz` read as such).
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Where the network goes.
    #[arg(
        long,
        default_value = "crates/kinrow-engine/src/eval/networks/gomoku.txt"
    )]
    pub out: PathBuf,
    /// The network's name line (say what data and command made it).
    #[arg(long, default_value = "gomoku network, fitted by kinrow fit")]
    pub name: String,
    /// Every N-th game (by its index in its file) is held out of the fit.
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Passes over the training samples.
    #[arg(long, default_value_t = 15)]
    pub epochs: usize,
    /// Samples per step of Adam.
    #[arg(long, default_value_t = 512)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 2e-3)]
    pub lr: f64,
    /// The step size at the last step: from `lr` it falls along a half cosine to this
    /// (noisy steps early, fine ones at the end). Without it the step stays `lr`.
    #[arg(long)]
    pub lr_final: Option<f64>,
    /// The pull towards 0 on every parameter per step (the codes' and masks' own parts
    /// ten times as much).
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    /// The share of the game's result in a path position's target; the rest is the
    /// recorded (teacher's) value.
    #[arg(long, default_value_t = 0.2)]
    pub mix: f64,
    /// The seed of the first weights and of the order of the samples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Leave out the positions the teacher proved (a forced win or loss), as `kinrow
    /// tune` does; by default they are learned with their outcome as the target, since
    /// the search's leaves hold many (a three to make into a four-three, a four-three on
    /// the board) and nothing else tells the network what they are worth.
    #[arg(long)]
    pub unproven_only: bool,
    /// Tables (a `kinrow tune` weights file) to measure on the same held-out positions
    /// beside the committed ones: a refit of the tables on the same labels, say.
    #[arg(long)]
    pub compare_tables: Option<PathBuf>,
    /// Threads working on each batch.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// One position: `(code, count)` for the side to move's codes, then the opponent's.
struct Sample {
    codes: Vec<(u16, u16)>,
    own: u16,
    mask: u16,
    target: f32,
    result: Option<f32>,
}

fn sample_of(l: super::tune::Learnable) -> Result<Sample, String> {
    let cells = l.board.cell_eval().ok_or("no cell codes for these rules")?;
    let mut counts = [vec![0u16; CODES], vec![0u16; CODES]];
    for c in 0..l.board.cells().len() {
        for (side, count) in counts.iter_mut().enumerate() {
            if let Some(code) = cells.code(c, l.me ^ side) {
                count[code as usize] += 1;
            }
        }
    }
    let mut codes = Vec::new();
    let mut own = 0;
    for (side, count) in counts.iter().enumerate() {
        for (code, &n) in count.iter().enumerate() {
            if n > 0 {
                codes.push((code as u16, n));
            }
        }
        if side == 0 {
            own = codes.len() as u16;
        }
    }
    Ok(Sample {
        codes,
        own,
        mask: threat_mask(|s, t| cells.threats(l.me ^ s, t) > 0) as u16,
        target: l.target as f32,
        result: l.result.map(|r| r as f32),
    })
}

/// The parameters being fitted, flat, with where each part begins.
#[derive(Clone)]
struct Params {
    v: Vec<f32>,
}

/// Where each part of [`Params`] begins.
const CODE_AT: usize = 0;
const CLASS_AT: usize = CODE_AT + CODES * CHANNELS;
const BIAS_AT: usize = CLASS_AT + CLASSES * CHANNELS;
const W1_AT: usize = BIAS_AT + 2 * CHANNELS;
const MASK_AT: usize = W1_AT + 2 * CHANNELS * HIDDEN;
const BIT_AT: usize = MASK_AT + MASKS * HIDDEN;
const W2_AT: usize = BIT_AT + 2 * MASK_THREATS * HIDDEN;
const B2_AT: usize = W2_AT + HIDDEN;
const PARAMS: usize = B2_AT + 1;

/// The folded tables a batch runs on: every code's whole vector and every mask's row.
struct Folded {
    embed: Vec<[f32; CHANNELS]>,
    masks: Vec<[f32; HIDDEN]>,
}

impl Params {
    fn new(rng: &mut StdRng) -> Params {
        let mut v = vec![0f32; PARAMS];
        let mut r = |scale: f32| (rng.random::<f32>() * 2.0 - 1.0) * scale;
        for x in &mut v[CLASS_AT..BIAS_AT] {
            *x = r(0.01);
        }
        for x in &mut v[BIAS_AT..W1_AT] {
            *x = 0.5;
        }
        let s = 1.0 / (2.0 * CHANNELS as f32).sqrt();
        for x in &mut v[W1_AT..MASK_AT] {
            *x = r(s);
        }
        for x in &mut v[W2_AT..B2_AT] {
            *x = r(0.3);
        }
        Params { v }
    }

    fn fold(&self) -> Folded {
        let v = &self.v;
        let embed = (0..CODES)
            .map(|code| {
                let mut e = [0f32; CHANNELS];
                e.copy_from_slice(&v[CODE_AT + code * CHANNELS..][..CHANNELS]);
                for class in classes_of(code as u16) {
                    let at = CLASS_AT + class as usize * CHANNELS;
                    for (x, &c) in e.iter_mut().zip(&v[at..at + CHANNELS]) {
                        *x += c;
                    }
                }
                e
            })
            .collect();
        let masks = (0..MASKS)
            .map(|m| {
                let mut row = [0.5f32; HIDDEN];
                for (x, &c) in row.iter_mut().zip(&v[MASK_AT + m * HIDDEN..][..HIDDEN]) {
                    *x += c;
                }
                for bit in (0..2 * MASK_THREATS).filter(|b| m >> b & 1 == 1) {
                    let at = BIT_AT + bit * HIDDEN;
                    for (x, &c) in row.iter_mut().zip(&v[at..at + HIDDEN]) {
                        *x += c;
                    }
                }
                row
            })
            .collect();
        Folded { embed, masks }
    }

    /// The network to write: vectors rounded to [`EMBED_SCALE`] steps.
    fn network(&self, name: &str) -> Network {
        let f = self.fold();
        let mut net = Network::zero(name);
        for (out, e) in net.embed.iter_mut().zip(&f.embed) {
            for (o, &x) in out.iter_mut().zip(e) {
                *o = (x * EMBED_SCALE)
                    .round()
                    .clamp(i16::MIN as f32, i16::MAX as f32) as i16;
            }
        }
        for side in 0..2 {
            net.bias[side].copy_from_slice(&self.v[BIAS_AT + side * CHANNELS..][..CHANNELS]);
        }
        for (i, row) in net.w1.iter_mut().enumerate() {
            row.copy_from_slice(&self.v[W1_AT + i * HIDDEN..][..HIDDEN]);
        }
        net.masks = f.masks;
        net.w2.copy_from_slice(&self.v[W2_AT..B2_AT]);
        net.b2 = self.v[B2_AT];
        net
    }
}

/// The side to move's and the opponent's accumulators of a sample, in units.
fn accumulators(f: &Folded, s: &Sample) -> [[f32; CHANNELS]; 2] {
    let mut acc = [[0f32; CHANNELS]; 2];
    for (i, &(code, n)) in s.codes.iter().enumerate() {
        let side = (i >= s.own as usize) as usize;
        for (a, &e) in acc[side].iter_mut().zip(&f.embed[code as usize]) {
            *a += n as f32 * e;
        }
    }
    acc
}

/// The forward pass from the accumulators, as [`Network::logit`] runs it, keeping
/// what the backward pass needs: the inputs, the hidden units before the clip, the
/// logit.
fn forward(
    p: &[f32],
    f: &Folded,
    acc: &[[f32; CHANNELS]; 2],
    mask: usize,
) -> ([f32; 2 * CHANNELS], [f32; HIDDEN], f32) {
    let mut x = [0f32; 2 * CHANNELS];
    for side in 0..2 {
        for i in 0..CHANNELS {
            x[side * CHANNELS + i] =
                (acc[side][i] + p[BIAS_AT + side * CHANNELS + i]).clamp(0.0, 1.0);
        }
    }
    let mut pre = f.masks[mask];
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            let row = &p[W1_AT + i * HIDDEN..][..HIDDEN];
            for (h, &w) in pre.iter_mut().zip(row) {
                *h += xi * w;
            }
        }
    }
    let z = p[B2_AT]
        + pre
            .iter()
            .zip(&p[W2_AT..B2_AT])
            .map(|(&h, &w)| h.clamp(0.0, 1.0) * w)
            .sum::<f32>();
    (x, pre, z)
}

/// The gradient of the summed loss over `batch` (with respect to the folded tables
/// for the codes and masks), and the summed loss.
fn gradient(p: &Params, f: &Folded, batch: &[&Sample]) -> (Vec<f32>, Vec<f32>, Vec<f32>, f64) {
    let v = &p.v;
    let mut g = vec![0f32; PARAMS];
    let mut g_embed = vec![0f32; CODES * CHANNELS];
    let mut g_masks = vec![0f32; MASKS * HIDDEN];
    let mut loss = 0.0;
    for s in batch {
        let acc = accumulators(f, s);
        let (x, pre, z) = forward(v, f, &acc, s.mask as usize);
        let prob = sigmoid(z as f64);
        loss += log_loss(prob, s.target as f64);
        let dz = (prob - s.target as f64) as f32;
        g[B2_AT] += dz;
        let mut dpre = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            let h = pre[j];
            g[W2_AT + j] += dz * h.clamp(0.0, 1.0);
            if h > 0.0 && h < 1.0 {
                dpre[j] = dz * v[W2_AT + j];
            }
        }
        let m = s.mask as usize * HIDDEN;
        for j in 0..HIDDEN {
            g_masks[m + j] += dpre[j];
        }
        let mut dacc = [[0f32; CHANNELS]; 2];
        for (i, &xi) in x.iter().enumerate() {
            let row = W1_AT + i * HIDDEN;
            let mut dx = 0.0;
            for j in 0..HIDDEN {
                g[row + j] += xi * dpre[j];
                dx += v[row + j] * dpre[j];
            }
            let (side, c) = (i / CHANNELS, i % CHANNELS);
            let a = acc[side][c] + v[BIAS_AT + i];
            if a > 0.0 && a < 1.0 {
                dacc[side][c] = dx;
                g[BIAS_AT + i] += dx;
            }
        }
        for (i, &(code, n)) in s.codes.iter().enumerate() {
            let side = (i >= s.own as usize) as usize;
            let at = code as usize * CHANNELS;
            for c in 0..CHANNELS {
                g_embed[at + c] += n as f32 * dacc[side][c];
            }
        }
    }
    (g, g_embed, g_masks, loss)
}

/// The mean log-loss of the network `f`/`p` on `set`: against the targets, and against
/// the results where the samples have them.
fn losses(p: &Params, f: &Folded, set: &[Sample]) -> (f64, f64) {
    let (mut target, mut result, mut n) = (0.0, 0.0, 0usize);
    for s in set {
        let (_, _, z) = forward(&p.v, f, &accumulators(f, s), s.mask as usize);
        let prob = sigmoid(z as f64);
        target += log_loss(prob, s.target as f64);
        if let Some(r) = s.result {
            result += log_loss(prob, r as f64);
            n += 1;
        }
    }
    (target / set.len().max(1) as f64, result / n.max(1) as f64)
}

/// The same losses for another predictor of the probability.
fn losses_of(set: &[Sample], prob: impl Fn(&Sample) -> f64) -> (f64, f64) {
    let (mut target, mut result, mut n) = (0.0, 0.0, 0usize);
    for s in set {
        let p = prob(s);
        target += log_loss(p, s.target as f64);
        if let Some(r) = s.result {
            result += log_loss(p, r as f64);
            n += 1;
        }
    }
    (target / set.len().max(1) as f64, result / n.max(1) as f64)
}

/// Adam's step size at `progress` (0 at the first step, 1 at the last): `lr` throughout,
/// or from `lr` down a half cosine to `last`.
fn step_size(lr: f64, last: Option<f64>, progress: f64) -> f64 {
    match last {
        None => lr,
        Some(last) => {
            last + (lr - last)
                * 0.5
                * (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos())
        }
    }
}

/// What the committed tables predict for a sample.
fn tables(w: &LearnedWeights, s: &Sample) -> f64 {
    let mut score = w.masks[s.mask as usize] as f64;
    for (i, &(code, n)) in s.codes.iter().enumerate() {
        let table = if i < s.own as usize { &w.own } else { &w.opp };
        score += table[code as usize] as f64 * n as f64;
    }
    sigmoid(score / UNIT)
}

/// `kinrow fit`: returns the exit code.
pub fn main(args: FitArgs) -> i32 {
    match fit(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow fit: {e}");
            1
        }
    }
}

/// The gradient of `batch` over every parameter, computed on `threads` threads (the
/// batch's losses added to `loss`, in the chunks' order): the folded tables' gradients
/// (a code's and a threat mask's whole vectors) go back to the parts they are folded
/// from.
fn batch_gradient(params: &Params, batch: &[&Sample], threads: usize, loss: &mut f64) -> Vec<f32> {
    let folded = params.fold();
    let part = batch.len().div_ceil(threads);
    let parts: Vec<_> = std::thread::scope(|sc| {
        let handles: Vec<_> = batch
            .chunks(part.max(1))
            .map(|chunk| {
                let (params, folded) = (&params, &folded);
                sc.spawn(move || gradient(params, folded, chunk))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic in a gradient"))
            .collect()
    });
    let (mut g, mut g_embed, mut g_masks) = (
        vec![0f32; PARAMS],
        vec![0f32; CODES * CHANNELS],
        vec![0f32; MASKS * HIDDEN],
    );
    for (pg, pe, pm, part_loss) in parts {
        *loss += part_loss;
        for (a, b) in g.iter_mut().zip(&pg) {
            *a += b;
        }
        for (a, b) in g_embed.iter_mut().zip(&pe) {
            *a += b;
        }
        for (a, b) in g_masks.iter_mut().zip(&pm) {
            *a += b;
        }
    }
    // The folded tables' gradients go to their parts.
    for code in 0..CODES {
        let ge = &g_embed[code * CHANNELS..][..CHANNELS];
        for c in 0..CHANNELS {
            g[CODE_AT + code * CHANNELS + c] += ge[c];
        }
        for class in classes_of(code as u16) {
            let at = CLASS_AT + class as usize * CHANNELS;
            for c in 0..CHANNELS {
                g[at + c] += ge[c];
            }
        }
    }
    for mask in 0..MASKS {
        let gm = &g_masks[mask * HIDDEN..][..HIDDEN];
        for j in 0..HIDDEN {
            g[MASK_AT + mask * HIDDEN + j] += gm[j];
        }
        for bit in (0..2 * MASK_THREATS).filter(|b| mask >> b & 1 == 1) {
            for j in 0..HIDDEN {
                g[BIT_AT + bit * HIDDEN + j] += gm[j];
            }
        }
    }
    g
}

/// The network's parameters trained on `train` by Adam over `args.epochs` epochs of
/// shuffled batches (the step size decaying from `--lr` to `--lr-final`, an L2 penalty
/// ten times heavier on the codes' and masks' own parts), the held-out losses reported
/// after each epoch.
fn train_network(args: &FitArgs, train: &[Sample], held: &[Sample], rng: &mut StdRng) -> Params {
    let mut params = Params::new(rng);
    let (mut m, mut s2) = (vec![0f32; PARAMS], vec![0f32; PARAMS]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let steps_per_epoch = train.len().div_ceil(args.batch.max(1));
    let progress = Progress::new("fit", "epochs", 0, args.epochs);
    let mut t = 0i32;
    let threads = args.threads.max(1);
    let steps = (args.epochs * train.len().div_ceil(args.batch.max(1))).max(1) as f64;
    for _ in 0..args.epochs {
        order.shuffle(rng);
        let mut epoch_loss = 0.0;
        for step in 0..steps_per_epoch {
            let idx = &order[step * args.batch..((step + 1) * args.batch).min(order.len())];
            let batch: Vec<&Sample> = idx.iter().map(|&i| &train[i]).collect();
            let g = batch_gradient(&params, &batch, threads, &mut epoch_loss);
            t += 1;
            let scale = 1.0 / batch.len() as f32;
            let lr = step_size(args.lr, args.lr_final, t as f64 / steps) as f32;
            for i in 0..PARAMS {
                let own_part = (CODE_AT..CLASS_AT).contains(&i) || (MASK_AT..BIT_AT).contains(&i);
                let l2 = args.l2 as f32 * if own_part { 10.0 } else { 1.0 };
                let gi = g[i] * scale + l2 * params.v[i];
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                s2[i] = b2 * s2[i] + (1.0 - b2) * gi * gi;
                let mh = m[i] / (1.0 - b1.powi(t));
                let vh = s2[i] / (1.0 - b2.powi(t));
                params.v[i] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        let folded = params.fold();
        let (held_target, held_result) = losses(&params, &folded, held);
        progress.advance(&format!(
            "training log-loss {:.4}, held out {held_target:.4} (targets) {held_result:.4} (results)",
            epoch_loss / train.len() as f64
        ));
    }
    params
}

fn fit(args: &FitArgs) -> Result<(), String> {
    let start = Instant::now();
    let (train, held, games) = split_samples("fit", &args.games, args.holdout, |g| {
        let mut out = Vec::new();
        learnable_positions(g, args.mix, !args.unproven_only, |l| {
            out.push(sample_of(l)?);
            Ok(())
        })?;
        Ok(out)
    })?;
    let mut rng = StdRng::seed_from_u64(args.seed);
    let params = train_network(args, &train, &held, &mut rng);
    let net = params.network(&args.name);
    std::fs::write(&args.out, net.to_text()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    // The written network, as the engine runs it (whole-number vectors), on the held-out
    // positions; then the committed tables and a constant on the same ones.
    let as_run = |net: &Network, s: &Sample| {
        let mut acc = [[0i32; CHANNELS]; 2];
        for (i, &(code, n)) in s.codes.iter().enumerate() {
            let side = (i >= s.own as usize) as usize;
            for (a, &e) in acc[side].iter_mut().zip(&net.embed[code as usize]) {
                *a += n as i32 * e as i32;
            }
        }
        sigmoid(net.logit(&acc[0], &acc[1], s.mask as usize) as f64)
    };
    let network = losses_of(&held, |s| as_run(&net, s));
    // The committed network on the same positions: the generation this one may replace.
    let committed_network =
        kinrow_engine::network::gomoku().map(|n| losses_of(&held, |s| as_run(n, s)));
    let committed = kinrow_engine::weights::gomoku().ok_or("no committed tables")?;
    let committed = losses_of(&held, |s| tables(committed, s));
    let other = match &args.compare_tables {
        None => None,
        Some(path) => {
            let text = read_text(path)?;
            let w = LearnedWeights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(losses_of(&held, |s| tables(&w, s)))
        }
    };
    let mean = train.iter().map(|s| s.target as f64).sum::<f64>() / train.len() as f64;
    let constant = losses_of(&held, |_| mean);
    // The least loss any predictor can have on the targets: their own entropy.
    let floor = losses_of(&held, |s| s.target as f64).0;
    eprintln!(
        "fit: held-out log-loss on targets {:.4} network, {:.4} committed network, {:.4} committed tables, {:.4} constant (the targets' own entropy {floor:.4}); on results {:.4}, {:.4}, {:.4}, {:.4}; network in {}",
        network.0,
        committed_network.map_or(f64::NAN, |l| l.0),
        committed.0,
        constant.0,
        network.1,
        committed_network.map_or(f64::NAN, |l| l.1),
        committed.1,
        constant.1,
        args.out.display()
    );
    let summary = serde_json::json!({
        "games": games,
        "train_samples": train.len(),
        "held_out_samples": held.len(),
        "held_out_target_loss": { "network": network.0, "committed_network": committed_network.map(|l| l.0), "committed_tables": committed.0, "constant": constant.0, "floor": floor },
        "held_out_result_loss": { "network": network.1, "committed_network": committed_network.map(|l| l.1), "committed_tables": committed.1, "constant": constant.1 },
        "compared_tables": other.map(|(t, r)| serde_json::json!({
            "file": args.compare_tables.as_ref().map(|p| p.display().to_string()),
            "held_out_target_loss": t,
            "held_out_result_loss": r,
        })),
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "lr_final": args.lr_final,
        "mix": args.mix,
        "seed": args.seed,
        "out": args.out.display().to_string(),
        "seconds": start.elapsed().as_secs_f64(),
    });
    crate::output::print_line(&summary.to_string());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::step_size;

    #[test]
    fn the_step_size_falls_along_a_half_cosine_to_its_last_value() {
        assert_eq!(step_size(0.002, None, 0.7), 0.002);
        assert!((step_size(0.002, Some(0.0002), 0.0) - 0.002).abs() < 1e-12);
        assert!((step_size(0.002, Some(0.0002), 0.5) - 0.0011).abs() < 1e-12);
        assert!((step_size(0.002, Some(0.0002), 1.0) - 0.0002).abs() < 1e-12);
        assert!(step_size(0.002, Some(0.0002), 0.3) > step_size(0.002, Some(0.0002), 0.6));
    }
}
