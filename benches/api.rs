//! The cost of one `/v1/suggest` answer without the network, stage by stage: reading the
//! JSON body, checking the position and plan, the engine, building the answer and writing
//! its JSON, for 3x3 `perfect` (the load test's headline request). The engine is measured
//! twice: on a position it solved before (answered from its table of solved small
//! positions, what a server mostly does) and on a first solve; the answer's JSON both by
//! serde and by the hand-written writer the server uses. `cargo bench --bench api`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kinrow_server::dto::{write_suggest_json, LimitsUsed, SuggestRequest, SuggestResponse};
use kinrow_server::parse_body;
use kinrow_server::prepare_suggest;
use kinrow_server::Config;
use rand::rngs::StdRng;
use rand::SeedableRng;

const BODY: &[u8] = br#"{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o.","..."],"engine":{"name":"perfect","time_ms":1000,"seed":7}}"#;

fn suggest_stages(c: &mut Criterion) {
    let config = Config::default();
    let request: SuggestRequest = parse_body(BODY).unwrap();
    let (position, plan) = prepare_suggest(&request, &config).unwrap();
    let (limits, seed) = (plan.limits.clone(), plan.seed);
    let analysis = plan.builder()().analyze(&position, &limits, &mut StdRng::seed_from_u64(seed));
    let used = || LimitsUsed {
        time_ms: limits.time.as_millis() as u64,
        depth: None,
        nodes: None,
        mistake_probability: 0.0,
        level: 10,
        threads: 1,
    };
    let answer = SuggestResponse::new(&position, &plan, &analysis, (0.0, seed), used());

    let mut group = c.benchmark_group("suggest 3x3 perfect");
    group.bench_function("parse body", |b| {
        b.iter(|| parse_body::<SuggestRequest>(black_box(BODY)).unwrap())
    });
    group.bench_function("position and plan", |b| {
        b.iter(|| prepare_suggest(black_box(&request), &config).unwrap())
    });
    let mut ctx = kinrow_engine::SearchContext::new();
    group.bench_function("engine (position solved before)", |b| {
        b.iter(|| {
            plan.builder()().analyze_with(
                black_box(&position),
                &limits,
                &mut ctx,
                &mut StdRng::seed_from_u64(seed),
            )
        })
    });
    group.bench_function("engine (first solve, a new context)", |b| {
        b.iter(|| {
            plan.builder()().analyze(
                black_box(&position),
                &limits,
                &mut StdRng::seed_from_u64(seed),
            )
        })
    });
    group.bench_function("answer", |b| {
        b.iter(|| SuggestResponse::new(&position, &plan, black_box(&analysis), (0.0, seed), used()))
    });
    group.bench_function("answer json (serde)", |b| {
        b.iter(|| serde_json::to_vec(black_box(&answer)).unwrap())
    });
    group.bench_function("answer json (suggest_json, what the server writes)", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(4096);
            write_suggest_json(&mut out, black_box(&answer));
            out
        })
    });
    group.bench_function("whole (position solved before)", |b| {
        b.iter(|| {
            let request: SuggestRequest = parse_body(black_box(BODY)).unwrap();
            let (position, plan) = prepare_suggest(&request, &config).unwrap();
            let analysis = plan
                .engine()
                .analyze(&position, &plan.limits, &mut plan.rng());
            let answer =
                SuggestResponse::new(&position, &plan, &analysis, (0.0, plan.seed), used());
            let mut out = Vec::with_capacity(4096);
            write_suggest_json(&mut out, &answer);
            out
        })
    });
    group.finish();
}

criterion_group!(benches, suggest_stages);
criterion_main!(benches);
