use variantlab::runtime::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let depth: u32 = std::env::args().nth(2).unwrap().parse().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let v = variantlab::check::check(&path, &text).variant.unwrap();
    let rules = variantlab::compile::compile_tables(&v, &v.default_options()).unwrap();
    let mut pos = Position::start(&rules).unwrap();
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = perft(&rules, &mut pos, d);
        println!("perft {d} = {n}  ({:?})", t.elapsed());
    }
}
