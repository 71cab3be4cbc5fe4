fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    for _ in 0..50 {
        let v = variantlab::check::check(&path, &text).variant.unwrap();
        let r = variantlab::compile::compile_tables(&v, &v.default_options()).unwrap();
        std::hint::black_box(r);
    }
}
