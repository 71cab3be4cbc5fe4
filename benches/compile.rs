//! Parsing, checking and compiling each variant file: the cost of loading a game.

use variantlab::{Rules, Settings};

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
    bencher.bench(|| Rules::from_text(&text, &Settings::new()).expect("variant loads"));
}
