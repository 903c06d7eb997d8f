use jigsaw::chainlets::{critical_points, CriticalOptions};
use jigsaw::piece_set::CriticalKind;
use rayon::prelude::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let mut o = CriticalOptions::default();
    o.arms = [a[2].parse().unwrap(), a[3].parse().unwrap()];
    o.gaps = [a[4].parse().unwrap(), a[5].parse().unwrap()];
    o.min_turn_deg = a[6].parse().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&a[1])
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "jpeg"))
        .collect();
    files.sort();
    let res: Vec<(String, usize, bool)> = files
        .par_iter()
        .map(|f| {
            let m = image::open(f).unwrap().to_luma8();
            let c = jigsaw::vision::trace_mask(&m).unwrap();
            let cps: Vec<_> = critical_points(&c, &o)
                .into_iter()
                .filter(|c| c.kind == CriticalKind::Discontinuity)
                .collect();
            let sol = f
                .parent()
                .unwrap()
                .parent()
                .unwrap()
                .join("6_solution")
                .join(f.file_name().unwrap())
                .with_extension("json");
            let rot: f64 = std::fs::read_to_string(&sol)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v["dest_rotation"].as_f64())
                .unwrap_or(f64::NAN);
            let sign: f64 = std::env::var("SIGN")
                .map(|s| s.parse().unwrap())
                .unwrap_or(1.0);
            let tol: f64 = std::env::var("TOL")
                .map(|s| s.parse().unwrap())
                .unwrap_or(10.0);
            let _ = rot;
            let ok = cps.len() == 4
                && (0..4).all(|i| {
                    let p = &cps[(i + 3) % 4];
                    let q = &cps[i];
                    let r = &cps[(i + 1) % 4];
                    let a = (p.x - q.x, p.y - q.y);
                    let b = (r.x - q.x, r.y - q.y);
                    let cos = (a.0 * b.0 + a.1 * b.1) / (a.0.hypot(a.1) * b.0.hypot(b.1));
                    (cos.acos().to_degrees() - 90.0).abs() < tol && sign > 0.0
                });
            (
                f.file_name().unwrap().to_string_lossy().to_string(),
                cps.len(),
                ok,
            )
        })
        .collect();
    let good = res.iter().filter(|r| r.2).count();
    let mut hist = std::collections::BTreeMap::new();
    for r in &res {
        *hist.entry(r.1).or_insert(0) += 1;
    }
    println!("good {good}/{} hist {:?}", res.len(), hist);
    let bad: Vec<_> = res
        .iter()
        .filter(|r| !r.2)
        .take(15)
        .map(|r| format!("{}:{}", r.0, r.1))
        .collect();
    println!("{}", bad.join(" "));
}
