use variantlab::check::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let checked = check(&path, &text);
    print!("{}", checked.report.render(80, false));
    let Some(v) = checked.variant else { return };
    println!("{}", variantlab::render::board_diagram(&v, &v.setup));
    let rules = variantlab::compile::compile_tables(&v, &v.default_options()).unwrap();
    for (i, p) in v.pieces.iter().enumerate() {
        println!(
            "{} {}",
            p.name,
            rules
                .footprint(PlayerId(0), PieceId(i as u8), v.board.centre())
                .len()
        );
        println!(
            "{}",
            variantlab::render::footprint_diagram(
                &rules,
                PlayerId(0),
                PieceId(i as u8),
                v.board.centre(),
                p.name == "Princess"
            )
        );
    }
}
