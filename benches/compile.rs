//! Parsing, checking and compiling each variant file: the cost of loading a game.

use variantlab::check::check;
use variantlab::compile::compile_tables;

fn main() {
    divan::main();
}

#[divan::bench(args = [
    "iss-jetan.var",
    "hexagonal-iss-jetan.var",
    "hexagonal-iss-jetan-12.var"
])]
fn load(bencher: divan::Bencher, file: &str) {
    let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("variant file");
    bencher.bench(|| {
        let v = check(file, &text).variant.expect("variant checks");
        compile_tables(&v, &v.default_options()).expect("compiles")
    });
}
