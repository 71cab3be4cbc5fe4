//! The raw counts of a study, which add up across shards.

use super::shard::Shard;
use super::study::{GameRecord, Study};
use crate::compile::Rules;
use crate::model::{Event, Outcome, PlayerId, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Counts only, so that shards add up exactly to one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tallies {
    pub variant: String,
    pub options: BTreeMap<String, bool>,
    pub players: Vec<String>,
    /// The end rules in force, in words, in the file's order.
    pub end_rules: Vec<String>,
    pub seed: u64,
    pub level: u32,
    pub opening_plies: u32,
    pub max_plies: u32,
    /// The study's whole list of games, and the shards tallied here.
    pub games_planned: u64,
    pub shard_count: u32,
    pub shards: Vec<u32>,
    /// Games tallied.
    pub games: u64,
    /// Won games by winner: games in which one player took the whole point.
    pub wins: Vec<u64>,
    /// Games ended with every player scoring the same.
    pub draws: u64,
    /// Games ended with the point split unequally and no single winner (`mover scores
    /// 3/4`).
    pub split: u64,
    /// For each player: how many finished games gave each share of the point, written
    /// as a fraction in lowest terms (`1/1`, `1/2`, `3/4`, `0/1`).
    pub shares: Vec<BTreeMap<String, u64>>,
    /// Games ended by each end rule.
    pub fired: Vec<u64>,
    /// Games stopped at the ply limit.
    pub unfinished: u64,
    /// How many games lasted each number of plies.
    pub lengths: BTreeMap<u32, u64>,
}

/// Why tallies cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    Nothing,
    /// The files come from different studies; the field that differs.
    Different(&'static str),
    /// The same shard appears twice.
    Overlap(u32),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Nothing => write!(f, "nothing to merge"),
            MergeError::Different(what) => {
                write!(
                    f,
                    "the files are from different studies: their {what} differ"
                )
            }
            MergeError::Overlap(k) => write!(f, "shard {}/N appears more than once", k + 1),
        }
    }
}

impl std::error::Error for MergeError {}

/// An end rule in words, as the variant file says it.
pub fn describe_rule(v: &Variant, event: Event, outcome: Outcome) -> String {
    let event = match event {
        Event::Captured { piece, by: None } => format!("{} captured", v.piece(piece).name),
        Event::Captured { piece, by: Some(b) } => {
            format!("{} captured by {}", v.piece(piece).name, v.piece(b).name)
        }
        Event::NoLegalMove => "no legal move".to_string(),
        Event::Repetition(n, false) => format!("position repeated {n} times"),
        Event::Repetition(n, true) => format!("position repeated {n} times by perpetual check"),
        Event::Checkmate => "checkmate".to_string(),
        Event::Stalemate => "stalemate".to_string(),
        Event::PliesWithoutCapture(n, _) => format!("{n} plies without capture"),
    };
    let outcome = match outcome {
        Outcome::Draw => "draw",
        Outcome::MoverWins => "mover wins",
        Outcome::MoverLoses => "mover loses",
        Outcome::MoverScores(a, b) => return format!("{event}: mover scores {a}/{b}"),
        Outcome::CheckerLoses => "checker loses",
    };
    format!("{event}: {outcome}")
}

impl Tallies {
    /// Empty tallies for a study of these rules.
    pub fn new(rules: &Rules, study: &Study) -> Tallies {
        let v = &rules.variant;
        Tallies {
            variant: v.name.clone(),
            options: rules.option_settings().into_iter().collect(),
            players: v.players.iter().map(|p| p.name.clone()).collect(),
            end_rules: v
                .end_rules
                .iter()
                .map(|r| {
                    let text = describe_rule(v, r.event, r.outcome);
                    match r.guard {
                        Some(g) => format!(
                            "if {}{}: {text}",
                            if g.when { "" } else { "not " },
                            v.options[g.option.0 as usize].name
                        ),
                        None => text,
                    }
                })
                .collect(),
            seed: study.seed,
            level: study.level,
            opening_plies: study.opening_plies,
            max_plies: study.max_plies,
            games_planned: study.games,
            shard_count: study.shard.count,
            shards: vec![study.shard.index],
            games: 0,
            wins: vec![0; v.players.len()],
            draws: 0,
            split: 0,
            shares: vec![BTreeMap::new(); v.players.len()],
            fired: vec![0; v.end_rules.len()],
            unfinished: 0,
            lengths: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        match r.score {
            Some(score) => {
                match score.winner() {
                    Some(w) => self.wins[w.0 as usize] += 1,
                    None if score.is_draw() => self.draws += 1,
                    None => self.split += 1,
                }
                for (p, shares) in self.shares.iter_mut().enumerate() {
                    let (a, b) = score.fraction(PlayerId(p as u8));
                    *shares.entry(format!("{a}/{b}")).or_default() += 1;
                }
            }
            None => self.unfinished += 1,
        }
        if let Some(rule) = r.rule {
            self.fired[rule] += 1;
        }
        *self.lengths.entry(r.plies).or_default() += 1;
    }

    /// The shard these tallies cover, when they cover one.
    pub fn shard(&self) -> Option<Shard> {
        match self.shards[..] {
            [index] => Some(Shard {
                index,
                count: self.shard_count,
            }),
            _ => None,
        }
    }
}

/// Adds the tallies of disjoint shards of one study. Once every shard is in, the result
/// is exactly what one run of the whole study gives.
pub fn merge(parts: &[Tallies]) -> Result<Tallies, MergeError> {
    let (first, rest) = parts.split_first().ok_or(MergeError::Nothing)?;
    let mut out = first.clone();
    for p in rest {
        let same: [(&'static str, bool); 9] = [
            ("variants", p.variant == out.variant),
            ("options", p.options == out.options),
            ("end rules", p.end_rules == out.end_rules),
            ("seeds", p.seed == out.seed),
            ("levels", p.level == out.level),
            ("opening plies", p.opening_plies == out.opening_plies),
            ("ply limits", p.max_plies == out.max_plies),
            ("numbers of games", p.games_planned == out.games_planned),
            ("shard counts", p.shard_count == out.shard_count),
        ];
        if let Some((what, _)) = same.iter().find(|(_, ok)| !ok) {
            return Err(MergeError::Different(what));
        }
        if p.wins.len() != out.wins.len()
            || p.fired.len() != out.fired.len()
            || p.shares.len() != out.shares.len()
        {
            return Err(MergeError::Different("players or end rules"));
        }
        for s in &p.shards {
            if out.shards.contains(s) {
                return Err(MergeError::Overlap(*s));
            }
            out.shards.push(*s);
        }
        out.games += p.games;
        out.draws += p.draws;
        out.split += p.split;
        out.unfinished += p.unfinished;
        for (a, b) in out.wins.iter_mut().zip(&p.wins) {
            *a += b;
        }
        for (a, b) in out.fired.iter_mut().zip(&p.fired) {
            *a += b;
        }
        for (mine, theirs) in out.shares.iter_mut().zip(&p.shares) {
            for (share, n) in theirs {
                *mine.entry(share.clone()).or_default() += n;
            }
        }
        for (len, n) in &p.lengths {
            *out.lengths.entry(*len).or_default() += n;
        }
    }
    out.shards.sort_unstable();
    if out.shards.len() as u32 == out.shard_count {
        // All of the study: the same as one run of it.
        out.shard_count = 1;
        out.shards = vec![0];
    }
    Ok(out)
}
