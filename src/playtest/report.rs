//! Reading tallies: rates, game lengths and confidence intervals.

use super::printable;
use super::tally::Tallies;
use crate::load::Settings;
use std::borrow::Cow;
use std::fmt::Write;

/// A normal-approximation 95% interval's half width.
const Z95: f64 = 1.959_964;

/// A mean and its standard error.
#[derive(Clone, Copy, Debug)]
struct Estimate {
    mean: f64,
    se: f64,
}

impl Estimate {
    /// From the count of games, the sum of a per-game value and the sum of its squares.
    fn of(n: u64, sum: f64, squares: f64) -> Estimate {
        let n = n as f64;
        if n < 1.0 {
            return Estimate { mean: 0.0, se: 0.0 };
        }
        let mean = sum / n;
        let var = if n > 1.0 {
            ((squares - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        Estimate {
            mean,
            se: (var / n).sqrt(),
        }
    }

    fn minus(self, other: Estimate) -> Estimate {
        Estimate {
            mean: self.mean - other.mean,
            se: self.se.hypot(other.se),
        }
    }

    /// The mean, the interval's half width and its bounds, which are cut to
    /// `[lowest, highest]`: a share's interval never reaches past 0 or 1.
    fn interval(self, digits: usize, lowest: f64, highest: f64) -> String {
        let h = Z95 * self.se;
        format!(
            "{:.d$} ± {:.d$} (95% CI {:.d$} to {:.d$})",
            self.mean,
            h,
            (self.mean - h).clamp(lowest, highest),
            (self.mean + h).clamp(lowest, highest),
            d = digits
        )
    }
}

/// What a report says of an estimate over no games.
const NO_GAMES: &str = "no games";

impl Tallies {
    fn drawn(&self) -> u64 {
        self.draws + self.unfinished
    }

    /// The first player's score: its share of the point in each finished game (a
    /// win 1, a draw 1/2, a declared fraction as declared), 1/2 an unfinished game.
    fn first_score(&self) -> Estimate {
        let (mut sum, mut squares) = (0.0, 0.0);
        for (share, n) in self.shares.first().into_iter().flatten() {
            let x = fraction_value(share);
            sum += x * *n as f64;
            squares += x * x * *n as f64;
        }
        let u = self.unfinished as f64;
        Estimate::of(self.games, sum + u / 2.0, squares + u / 4.0)
    }

    fn draw_rate(&self) -> Estimate {
        let d = self.drawn() as f64;
        Estimate::of(self.games, d, d)
    }

    fn length(&self) -> Estimate {
        let (sum, squares) = self.lengths.iter().fold((0.0, 0.0), |(s, q), (len, n)| {
            let (len, n) = (*len as f64, *n as f64);
            (s + len * n, q + len * len * n)
        });
        Estimate::of(self.games, sum, squares)
    }

    fn median_length(&self) -> f64 {
        let nth = |i: u64| {
            let mut seen = 0;
            for (len, n) in &self.lengths {
                seen += n;
                if seen > i {
                    return *len as f64;
                }
            }
            0.0
        };
        if self.games == 0 {
            0.0
        } else if self.games % 2 == 1 {
            nth(self.games / 2)
        } else {
            (nth(self.games / 2 - 1) + nth(self.games / 2)) / 2.0
        }
    }
}

/// The value of a share written `a/b`.
fn fraction_value(share: &str) -> f64 {
    let (a, b) = share.split_once('/').unwrap_or((share, "1"));
    let (a, b) = (
        a.parse::<f64>().unwrap_or(0.0),
        b.parse::<f64>().unwrap_or(1.0),
    );
    if b > 0.0 { a / b } else { 0.0 }
}

fn share(n: u64, of: u64) -> String {
    format!("{:5.1}%", 100.0 * n as f64 / of.max(1) as f64)
}

/// The study's report, as `selfplay` and `merge` print it.
pub fn text_report(t: &Tallies) -> String {
    let mut s = String::new();
    // Every name may come from a file (`merge`).
    let options: Vec<String> = t
        .options
        .iter()
        .map(|(k, v)| format!("{}={}", printable(k), if *v { "on" } else { "off" }))
        .collect();
    let players: Vec<Cow<str>> = t.players.iter().map(|p| printable(p)).collect();
    let end_rules: Vec<Cow<str>> = t.end_rules.iter().map(|r| printable(r)).collect();
    let _ = writeln!(
        s,
        "{}: {} games, level {}, seed {}, {} random opening plies{}",
        printable(&t.variant),
        t.games,
        t.level,
        t.seed,
        t.opening_plies,
        if options.is_empty() {
            String::new()
        } else {
            format!(", options {}", options.join(" "))
        }
    );
    if t.searched > 0 {
        let _ = writeln!(
            s,
            "the computer: level {}, {} deep then captures, {:.0} nodes a move ({} moves)\nhow strong a level plays: docs/playtesting.md, \"Levels\"",
            t.level,
            match t.level {
                1 => "1 ply".to_string(),
                n => format!("{n} plies"),
            },
            t.nodes as f64 / t.searched as f64,
            t.searched
        );
    }
    if t.games < t.games_planned {
        let shards: Vec<String> = t
            .shards
            .iter()
            .map(|k| format!("{}/{}", k + 1, t.shard_count))
            .collect();
        let _ = writeln!(
            s,
            "(shards {} of a study of {} games)",
            shards.join(" "),
            t.games_planned
        );
    }
    let width = players
        .iter()
        .map(|p| p.len() + 5)
        .chain(end_rules.iter().map(|r| r.len()))
        .max()
        .unwrap_or(10)
        .max(24);
    s += "\nresults\n";
    for (p, w) in players.iter().zip(&t.wins) {
        let _ = writeln!(
            s,
            "  {:<width$} {w:>7} {}",
            format!("{p} wins"),
            share(*w, t.games)
        );
    }
    let _ = writeln!(
        s,
        "  {:<width$} {:>7} {}",
        "draws",
        t.draws,
        share(t.draws, t.games)
    );
    if t.split > 0 {
        let _ = writeln!(
            s,
            "  {:<width$} {:>7} {}",
            "split by a score",
            t.split,
            share(t.split, t.games)
        );
    }
    if t.unfinished > 0 {
        let _ = writeln!(
            s,
            "  {:<width$} {:>7} {}",
            format!("unfinished at {} plies", t.max_plies),
            t.unfinished,
            share(t.unfinished, t.games)
        );
    }
    let decisive: u64 = t.wins.iter().sum();
    let _ = writeln!(
        s,
        "  {:<width$} {:>7} {}",
        "decisive games",
        decisive,
        share(decisive, t.games)
    );
    s += "\nend rules fired (draws by reason among them)\n";
    for (r, n) in end_rules.iter().zip(&t.fired) {
        let _ = writeln!(s, "  {r:<width$} {n:>7} {}", share(*n, t.games));
    }
    let longest = t.lengths.keys().next_back().copied().unwrap_or(0);
    if t.games == 0 {
        let _ = writeln!(s, "\ngame length in plies: {NO_GAMES}");
    } else {
        let _ = writeln!(
            s,
            "\ngame length in plies: mean {:.1}, median {:.1}, longest {longest}",
            t.length().mean,
            t.median_length(),
        );
    }
    if let Some(first) = players.first() {
        let score = match t.games {
            0 => NO_GAMES.to_string(),
            _ => t.first_score().interval(3, 0.0, 1.0),
        };
        let _ = writeln!(
            s,
            "{first}'s score (moving first; a draw counts 1/2): {score}"
        );
    }
    s
}

/// Two or more runs of the same games under different settings of one option (each
/// labelled `NAME=VALUE`), and what changed between the first and each other.
pub fn compare_report(runs: &[(String, Tallies)]) -> String {
    let mut s = String::new();
    for (label, t) in runs {
        let _ = writeln!(s, "==== {label}\n{}", text_report(t));
    }
    let Some(((base_label, base), rest)) = runs.split_first() else {
        return s;
    };
    for (label, t) in rest {
        let _ = writeln!(s, "==== {label} minus {base_label}");
        if t.games == 0 || base.games == 0 {
            let _ = writeln!(s, "  {NO_GAMES} to compare");
            continue;
        }
        let _ = writeln!(
            s,
            "  draw rate:         {}",
            t.draw_rate().minus(base.draw_rate()).interval(3, -1.0, 1.0)
        );
        let _ = writeln!(
            s,
            "  first player score: {}",
            t.first_score()
                .minus(base.first_score())
                .interval(3, -1.0, 1.0)
        );
        let _ = writeln!(
            s,
            "  game length:       {}",
            t.length()
                .minus(base.length())
                .interval(1, f64::NEG_INFINITY, f64::INFINITY)
        );
        s += "  (an interval that excludes 0 is a difference the games show at 95% confidence)\n";
    }
    s
}

/// A progress bar with the time left, for a terminal.
pub fn progress_line(done: usize, total: usize, elapsed: std::time::Duration) -> String {
    const WIDTH: usize = 30;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH);
    let left = if done == 0 {
        "estimating".to_string()
    } else {
        let secs = elapsed.as_secs_f64() * (total - done) as f64 / done as f64;
        format!("{}:{:02} left", secs as u64 / 60, secs as u64 % 60)
    };
    format!(
        "[{}{}] {done}/{total} games, {left}",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled)
    )
}

/// Reads `NAME=on,off` for `--compare`: for each value, a label `NAME=VALUE` and the
/// option settings with that value added.
pub fn compared_settings(
    settings: &Settings,
    compare: &str,
) -> Result<Vec<(String, Settings)>, String> {
    let bad = || format!("`{compare}`: write a comparison as NAME=on,off");
    let (name, values) = compare.split_once('=').ok_or_else(bad)?;
    let name = name.trim();
    let values: Vec<&str> = values.split(',').map(str::trim).collect();
    if name.is_empty() || values.len() < 2 {
        return Err(bad());
    }
    values
        .into_iter()
        .map(|v| {
            let on = match v {
                "on" => true,
                "off" => false,
                _ => return Err(format!("`{v}`: an option is `on` or `off`")),
            };
            Ok((format!("{name}={v}"), settings.clone().with(name, on)))
        })
        .collect()
}
