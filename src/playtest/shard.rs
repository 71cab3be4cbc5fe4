//! Slices of a study: game `g` belongs to slice `g mod count`.

use serde::{Deserialize, Serialize};

/// The `index`-th (from 0) of `count` disjoint slices of a study's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N`, the K-th of N slices counting from 1.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}`: write a shard as K/N, e.g. 3/10 (K from 1 to N)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    pub fn holds(&self, game: u64) -> bool {
        game % self.count as u64 == self.index as u64
    }

    /// How many of a study's `games` (numbered from 0) this slice holds.
    pub fn games_in(&self, games: u64) -> u64 {
        let (index, count) = (self.index as u64, self.count.max(1) as u64);
        if index >= games {
            0
        } else {
            (games - index).div_ceil(count)
        }
    }

    /// The number of this slice's `i`-th game (from 0), for `i` below
    /// [`Shard::games_in`].
    pub fn game(&self, i: u64) -> u64 {
        self.index as u64 + i * self.count as u64
    }
}

/// The shard a batch scheduler assigned: a Slurm job array's task, or a Kubernetes
/// Indexed Job's completion index (out of `count`). None when neither is set.
///
/// Slurm numbers an array's tasks `SLURM_ARRAY_TASK_MIN`, then every
/// `SLURM_ARRAY_TASK_STEP` (1 when unset) up to `SLURM_ARRAY_TASK_MAX`: task `id` plays
/// shard `(id - MIN) / STEP` out of `SLURM_ARRAY_TASK_COUNT` (or `count`), so that
/// `--array=1-5:2` (tasks 1, 3 and 5) plays shards 1/3, 2/3 and 3/3. An id off the
/// steps, or an array whose ids are not one evenly spaced range (`--array=1,4,5`), is
/// refused: give such tasks `--shard K/N` instead.
pub fn shard_from_env(
    var: impl Fn(&str) -> Option<String>,
    count: Option<u32>,
) -> Result<Option<Shard>, String> {
    let number = |name: &str| -> Result<Option<u32>, String> {
        match var(name) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("{name}=`{v}` is not a number")),
        }
    };
    let (index, count) = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let first = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
        if step == 0 {
            return Err("SLURM_ARRAY_TASK_STEP is 0".into());
        }
        let tasks = number("SLURM_ARRAY_TASK_COUNT")?;
        let offset = id
            .checked_sub(first)
            .ok_or("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")?;
        if offset % step != 0 {
            return Err(format!(
                "SLURM_ARRAY_TASK_ID {id} is not SLURM_ARRAY_TASK_MIN {first} plus a multiple of SLURM_ARRAY_TASK_STEP {step}; give the shard with --shard K/N"
            ));
        }
        if let (Some(last), Some(tasks)) = (number("SLURM_ARRAY_TASK_MAX")?, tasks) {
            let spaced = last >= first && (last - first) % step == 0;
            if !spaced || (last - first) / step + 1 != tasks {
                return Err(format!(
                    "the array's {tasks} task ids from {first} to {last} are not one range with step {step}; give each task --shard K/N"
                ));
            }
        }
        let count = count
            .or(tasks)
            .ok_or("SLURM_ARRAY_TASK_ID is set: give the number of shards with --shard-count")?;
        (offset / step, count)
    } else if let Some(i) = number("JOB_COMPLETION_INDEX")? {
        let count = count.ok_or(
            "JOB_COMPLETION_INDEX is set: give the number of shards (the Job's completions) with --shard-count",
        )?;
        (i, count)
    } else {
        return Ok(None);
    };
    if count == 0 || index >= count {
        return Err(format!(
            "shard index {index} is not below the shard count {count}"
        ));
    }
    Ok(Some(Shard { index, count }))
}
