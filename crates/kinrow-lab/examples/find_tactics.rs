// Throwaway finder (not committed): positions where the tactics change the alpha-beta's verdict.
use kinrow_engine::search::auto::{alpha_beta_value, Defences, Tactics, PATTERN_MATE};
use kinrow_game::Position;

fn rows(p: &Position) -> String {
    let m = 15;
    let cells = p.cells();
    let mut s = String::new();
    for r in 0..15 {
        s.push_str("        \"");
        for c in 0..m {
            s.push(match cells[r * m + c] {
                kinrow_game::Cell::Empty => '.',
                kinrow_game::Cell::Mark(kinrow_game::Player::X) => 'x',
                kinrow_game::Cell::Mark(_) => 'o',
                _ => '#',
            });
        }
        s.push_str("\",\n");
    }
    s
}
fn kind(v: Option<i64>) -> &'static str {
    match v {
        None => "?",
        Some(v) if v >= PATTERN_MATE => "W",
        Some(v) if v <= -PATTERN_MATE => "L",
        _ => "-",
    }
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let ps = kinrow_lab::replay::positions(&text).unwrap();
    let off = Tactics::default();
    let ver = Tactics {
        verdicts: true,
        ..off
    };
    let safe = Tactics {
        mate_safe: true,
        ..off
    };
    let only = Tactics {
        defences: Defences::Only,
        ..off
    };
    let add = Tactics {
        defences: Defences::Add,
        ..off
    };
    let mut n = [0usize; 4];
    for (i, p) in ps.iter().enumerate() {
        let d0 = (
            kind(alpha_beta_value(p, off, 0, 1 << 20)),
            kind(alpha_beta_value(p, ver, 0, 1 << 20)),
        );
        if d0.1 != "-" {
            let r = kind(alpha_beta_value(
                p,
                Tactics {
                    defences: Defences::Only,
                    ..safe
                },
                5,
                20_000_000,
            ));
            if r != d0.1 {
                n[3] += 1;
                println!(
                    "UNSOUND? {i} {:?} verdict={} deep={r}\n{}",
                    p.to_move(),
                    d0.1,
                    rows(p)
                );
            }
        }
        if d0.0 != d0.1 {
            n[0] += 1;
            if n[0] <= 3 {
                println!(
                    "VERDICT {i} {:?} d0 off={} on={}\n{}",
                    p.to_move(),
                    d0.0,
                    d0.1,
                    rows(p)
                );
            }
        }
        for d in [2u32, 3] {
            let a = kind(alpha_beta_value(p, off, d, 300_000));
            let b = kind(alpha_beta_value(p, safe, d, 300_000));
            if a != b {
                n[1] += 1;
                if n[1] <= 4 {
                    println!(
                        "SAFE {i} {:?} d{d} off={a} safe={b}\n{}",
                        p.to_move(),
                        rows(p)
                    );
                }
            }
            let c = kind(alpha_beta_value(p, only, d, 300_000));
            let e = kind(alpha_beta_value(p, add, d, 300_000));
            if a != c || a != e {
                n[2] += 1;
                if n[2] <= 4 {
                    println!(
                        "DEF {i} {:?} d{d} off={a} only={c} add={e}\n{}",
                        p.to_move(),
                        rows(p)
                    );
                }
            }
        }
    }
    println!("positions {} counts {:?}", ps.len(), n);
}
