//! The raw counts of a study, which add up across shards.

use super::printable;
use super::shard::Shard;
use super::study::{GameRecord, Study};
use crate::compile::Rules;
use crate::model::PlayerId;
use crate::search::MAX_LEVEL;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
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
    /// The moves the computer chose (the others opened games at random), and the nodes
    /// its searches visited for them: how much each move was thought over.
    #[serde(default)]
    pub searched: u64,
    #[serde(default)]
    pub nodes: u64,
}

/// Why tallies cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    Nothing,
    /// The files come from different studies; the field that differs.
    Different(&'static str),
    /// The same shard appears twice.
    Overlap(u32),
    /// The tallies of part `part` (counting from 0) are not what any run of their
    /// study could give; what is wrong.
    Invalid {
        part: usize,
        problem: String,
    },
    /// A count would pass 2^64 - 1.
    Overflow(&'static str),
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
            MergeError::Invalid { part, problem } => {
                write!(f, "file {} holds no study's tallies: {problem}", part + 1)
            }
            MergeError::Overflow(what) => {
                write!(f, "the {what} add up to more than 2^64 - 1")
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// `a + b`, or the error naming what overflowed.
fn add(a: u64, b: u64, what: &'static str) -> Result<u64, MergeError> {
    a.checked_add(b).ok_or(MergeError::Overflow(what))
}

/// A share written `a/b` in lowest terms, from 0 to 1: (a, b).
fn read_share(text: &str) -> Option<(u64, u64)> {
    let (a, b) = text.split_once('/')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
    let gcd = |mut x: u64, mut y: u64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    (b >= 1 && a <= b && gcd(a, b) == 1).then_some((a, b))
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
                    let text = v.rule_text(r);
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
            searched: 0,
            nodes: 0,
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
        self.searched += r.searched as u64;
        self.nodes += r.nodes;
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

    /// Adds the counts of `other`, tallies of other games of the same study.
    pub fn absorb(&mut self, other: &Tallies) -> Result<(), MergeError> {
        if other.wins.len() != self.wins.len()
            || other.fired.len() != self.fired.len()
            || other.shares.len() != self.shares.len()
        {
            return Err(MergeError::Different("players or end rules"));
        }
        self.games = add(self.games, other.games, "games")?;
        self.draws = add(self.draws, other.draws, "draws")?;
        self.split = add(self.split, other.split, "split games")?;
        self.unfinished = add(self.unfinished, other.unfinished, "unfinished games")?;
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a = add(*a, *b, "wins")?;
        }
        for (a, b) in self.fired.iter_mut().zip(&other.fired) {
            *a = add(*a, *b, "end rules fired")?;
        }
        for (mine, theirs) in self.shares.iter_mut().zip(&other.shares) {
            for (share, n) in theirs {
                let slot = mine.entry(share.clone()).or_default();
                *slot = add(*slot, *n, "shares")?;
            }
        }
        for (len, n) in &other.lengths {
            let slot = self.lengths.entry(*len).or_default();
            *slot = add(*slot, *n, "game lengths")?;
        }
        self.searched = add(self.searched, other.searched, "moves searched")?;
        self.nodes = add(self.nodes, other.nodes, "nodes")?;
        Ok(())
    }

    /// Whether these tallies are what a run of their study's shards could give: the
    /// shards are among the study's, each once; the games are exactly those the shards
    /// hold; every game is won, drawn, split or unfinished; each player's shares count
    /// every finished game once and add up to one point a game; each finished game
    /// fired one end rule; and every length is within the ply limit. What is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let study = self.games_planned;
        if study > Study::MAX_GAMES {
            return Err(format!(
                "a study of {study} games is more than the {} a study may plan",
                Study::MAX_GAMES
            ));
        }
        if !(1..=MAX_LEVEL).contains(&self.level) {
            return Err(format!(
                "level {} is not one selfplay plays: a level is from 1 to {MAX_LEVEL} plies",
                self.level
            ));
        }
        if self.shard_count == 0 {
            return Err("the shard count is 0".into());
        }
        if self.shards.is_empty() {
            return Err("it lists no shard".into());
        }
        let mut held = 0u64;
        let mut seen = HashSet::with_capacity(self.shards.len());
        for &k in &self.shards {
            if k >= self.shard_count {
                return Err(format!(
                    "shard number {k} is not one of the {} shards (numbered from 0)",
                    self.shard_count
                ));
            }
            if !seen.insert(k) {
                return Err(format!(
                    "shard {}/{} is listed twice",
                    k + 1,
                    self.shard_count
                ));
            }
            let shard = Shard {
                index: k,
                count: self.shard_count,
            };
            held += shard.games_in(study);
        }
        if self.games != held {
            return Err(format!(
                "it counts {} games, but its shards of a study of {study} games hold {held}",
                self.games
            ));
        }
        let players = self.players.len();
        if players == 0 {
            return Err("it names no player".into());
        }
        if self.wins.len() != players || self.shares.len() != players {
            return Err(format!(
                "it names {players} players but counts wins or shares for {} and {}",
                self.wins.len(),
                self.shares.len()
            ));
        }
        if self.fired.len() != self.end_rules.len() {
            return Err(format!(
                "it names {} end rules but counts {} of them fired",
                self.end_rules.len(),
                self.fired.len()
            ));
        }
        fn sum<'a>(xs: impl IntoIterator<Item = &'a u64>) -> Option<u64> {
            xs.into_iter().try_fold(0u64, |t, x| t.checked_add(*x))
        }
        let outcomes = sum(self
            .wins
            .iter()
            .chain([&self.draws, &self.split, &self.unfinished]));
        if outcomes != Some(self.games) {
            return Err(format!(
                "its wins, draws, split and unfinished games do not add up to its {} games",
                self.games
            ));
        }
        let finished = self.games - self.unfinished;
        let mut points = 0.0;
        for (p, shares) in self.shares.iter().enumerate() {
            let name = printable(&self.players[p]);
            let mut counted = 0u64;
            for (share, &n) in shares {
                let (a, b) = read_share(share).ok_or_else(|| {
                    let share = printable(share);
                    format!("`{share}` is not a share of the point (a fraction from 0/1 to 1/1 in lowest terms)")
                })?;
                counted = counted
                    .checked_add(n)
                    .ok_or_else(|| format!("{name}'s shares add up to more than 2^64 - 1"))?;
                points += n as f64 * a as f64 / b as f64;
            }
            if counted != finished {
                return Err(format!(
                    "{name}'s shares count {counted} games, not its {finished} finished games"
                ));
            }
            let whole = shares.get("1/1").copied().unwrap_or(0);
            if players > 1 && whole != self.wins[p] {
                return Err(format!(
                    "{name} wins {} games but takes the whole point in {whole}",
                    self.wins[p]
                ));
            }
        }
        if (points - finished as f64).abs() > 1e-6 * (finished as f64).max(1.0) {
            return Err(format!(
                "the players' shares add up to {points} points in {finished} finished games, not one a game"
            ));
        }
        if sum(&self.fired) != Some(finished) {
            return Err(format!(
                "the end rules fired do not add up to its {finished} finished games"
            ));
        }
        if sum(self.lengths.values()) != Some(self.games) {
            return Err(format!(
                "its game lengths do not count its {} games",
                self.games
            ));
        }
        let plies: u128 = self
            .lengths
            .iter()
            .map(|(l, n)| *l as u128 * *n as u128)
            .sum();
        if self.searched as u128 > plies || self.nodes < self.searched {
            return Err(format!(
                "{} moves searched in {plies} plies, with {} nodes: every move searched is a ply and visits a node",
                self.searched, self.nodes
            ));
        }
        if let Some((&longest, _)) = self.lengths.iter().next_back()
            && longest > self.max_plies
        {
            return Err(format!(
                "a game of {longest} plies is longer than the ply limit, {}",
                self.max_plies
            ));
        }
        Ok(())
    }
}

/// Adds the tallies of disjoint shards of one study. Every part is first checked
/// against its study ([`Tallies::validate`]) and the parts against each other. Once
/// every shard is in, the result is exactly what one run of the whole study gives.
pub fn merge(parts: &[Tallies]) -> Result<Tallies, MergeError> {
    for (part, p) in parts.iter().enumerate() {
        p.validate()
            .map_err(|problem| MergeError::Invalid { part, problem })?;
    }
    let (first, rest) = parts.split_first().ok_or(MergeError::Nothing)?;
    let mut out = first.clone();
    // A set, not a search of the list: thousands of shards merge in linear time.
    let mut seen: HashSet<u32> = first.shards.iter().copied().collect();
    for p in rest {
        let same: [(&'static str, bool); 10] = [
            ("variants", p.variant == out.variant),
            ("options", p.options == out.options),
            ("players", p.players == out.players),
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
        for s in &p.shards {
            if !seen.insert(*s) {
                return Err(MergeError::Overlap(*s));
            }
            out.shards.push(*s);
        }
        out.absorb(p)?;
    }
    out.shards.sort_unstable();
    if out.shards.len() as u32 == out.shard_count {
        // All of the study: the same as one run of it.
        out.shard_count = 1;
        out.shards = vec![0];
    }
    Ok(out)
}
