use jigsaw::vision::{describe_piece, DescribeOptions, PieceRegion};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let img = image::open(&a[1]).unwrap();
    let m = img.to_luma8();
    let mut o = DescribeOptions::default();
    if a.len() > 3 {
        o.critical.arms = [a[3].parse().unwrap(), a[4].parse().unwrap()];
        o.critical.gap = a[5].parse().unwrap();
        o.critical.min_turn_deg = a[6].parse().unwrap();
    }
    let area = m.pixels().filter(|p| p.0[0] > 127).count() as u64;
    let r = PieceRegion {
        bbox: [0, 0, m.width(), m.height()],
        mask: m,
        area,
    };
    let p = describe_piece(1, &a[1], &r, &o).unwrap();
    for c in &p.critical_points {
        println!("{c:?}");
    }
    let ov = jigsaw::render::draw_overlay(&img.to_rgb8(), &[&p]);
    ov.save(&a[2]).unwrap();
}
