//! The integration tests, in one binary so the crate is linked once. Each module is
//! one subject; `cargo test --release --test suite chess::` runs one of them.

mod common;
mod reference;
mod scenarios;

mod accepted;
mod bad_input;
mod big_boards;
mod browser;
mod cell_sets;
mod chess;
mod cli;
mod coordinates;
mod crosscheck;
mod diagrams;
mod docs;
mod engine_cli;
mod error_index;
mod example;
mod fsf;
mod generated;
mod grammar;
mod hands;
mod hostile;
mod http_fuzz;
mod keys;
mod layers;
mod paths;
mod pgn;
mod pictures;
mod playtest;
mod protocols;
mod reference_scenarios;
mod robustness;
mod runtime;
mod saves;
mod search;
mod serve;
mod shogi;
mod snapshots;
mod strength;
mod studio;
mod studio_page;
mod terminal;
mod word_index;
mod xiangqi;
