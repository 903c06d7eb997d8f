use jigsaw::vision::{describe_piece, DescribeOptions, PieceRegion};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let img = image::open(&a[1]).unwrap();
    let m = img.to_luma8();
    let mut o = DescribeOptions::default();
    if a.len() > 3 {
        o.critical.arms = [a[3].parse().unwrap(), a[4].parse().unwrap()];
        o.critical.gaps = [a[5].parse().unwrap(), a[6].parse().unwrap()];
        o.critical.min_turn_deg = a[7].parse().unwrap();
    }
    let area = m.pixels().filter(|p| p.0[0] > 127).count() as u64;
    let r = PieceRegion {
        bbox: [0, 0, m.width(), m.height()],
        mask: m,
        area,
    };
    let p = describe_piece(1, &a[1], &r, &o).unwrap();
    let o2 = jigsaw::chainlets::Outline::new(&p.chain);
    let sm = o2.smoothed(1.5);
    let n = sm.len();
    for c in &p.critical_points {
        // nearest sample
        let i = (0..n)
            .min_by(|&a, &b| {
                ((sm[a][0] - c.x).powi(2) + (sm[a][1] - c.y).powi(2))
                    .total_cmp(&((sm[b][0] - c.x).powi(2) + (sm[b][1] - c.y).powi(2)))
            })
            .unwrap();
        let mut prof = vec![];
        for k in [2usize, 4, 6, 9, 13, 20, 30] {
            // max over window of turn between dir over k
            let mut best: f64 = 0.0;
            for j in 0..=20usize {
                let m = (i + n + j - 10) % n;
                let a = sm[(m + n - k) % n];
                let b = sm[m];
                let cc = sm[(m + k) % n];
                let t = jigsaw::chainlets::turn_deg(
                    [b[0] - a[0], b[1] - a[1]],
                    [cc[0] - b[0], cc[1] - b[1]],
                );
                if t.abs() > best.abs() {
                    best = t;
                }
            }
            prof.push(format!("{k}:{best:.0}"));
        }
        println!(
            "({:.0},{:.0}) {:.0} {}",
            c.x,
            c.y,
            c.angle_deg,
            prof.join(" ")
        );
    }
    let ov = jigsaw::render::draw_overlay(&img.to_rgb8(), &[&p]);
    ov.save(&a[2]).unwrap();
}
#[allow(dead_code)]
fn unused() {}
