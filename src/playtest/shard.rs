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
}

/// The shard a batch scheduler assigned: a Slurm job array's task (its id less the
/// array's first id, out of `SLURM_ARRAY_TASK_COUNT` or `count`), or a Kubernetes
/// Indexed Job's completion index (out of `count`). None when neither is set.
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
        let count = count
            .or(number("SLURM_ARRAY_TASK_COUNT")?)
            .ok_or("SLURM_ARRAY_TASK_ID is set: give the number of shards with --shard-count")?;
        (
            id.checked_sub(first)
                .ok_or("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")?,
            count,
        )
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
