use kinrow::engine::perfect::Perfect;
use kinrow::engine::{Engine, Limits};
use kinrow::game::{Position, Rules};
use rand::SeedableRng;
use std::time::{Duration, Instant};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let m: u64 = args[1].parse().unwrap();
    let n: u64 = args[2].parse().unwrap();
    let k: u64 = args[3].parse().unwrap();
    let secs: f64 = args.get(4).map(|s| s.parse().unwrap()).unwrap_or(10.0);
    let rules = Rules::mnk(m, n, k).unwrap();
    let pos = Position::empty(&rules);
    let limits = Limits::with_time(Duration::from_secs_f64(secs));
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let t = Instant::now();
    let a = Perfect.analyze(&pos, &limits, &mut rng);
    let el = t.elapsed();
    println!(
        "{m},{n},{k}: {:?} nodes {} complete {} depth {}",
        el, a.stats.nodes, a.stats.complete, a.stats.depth
    );
    println!(
        "best {:?} {:?} pv {:?}",
        a.best,
        a.evaluation,
        a.pv.iter().map(|m| m.cell).collect::<Vec<_>>()
    );
    let grid: Vec<String> = (0..n as usize)
        .map(|r| {
            (0..m as usize)
                .map(|c| {
                    let e = a
                        .moves
                        .iter()
                        .find(|e| e.mv.cell as usize == r * m as usize + c)
                        .unwrap();
                    format!(
                        "{:>4}{:<3}",
                        match e.eval.outcome {
                            kinrow::engine::Outcome::Win => "W",
                            kinrow::engine::Outcome::Draw => "D",
                            kinrow::engine::Outcome::Loss => "L",
                            _ => "?",
                        },
                        e.eval.plies.map(|p| p.to_string()).unwrap_or("-".into())
                    )
                })
                .collect::<Vec<_>>()
                .join("")
        })
        .collect();
    println!("{}", grid.join("\n"));
}
