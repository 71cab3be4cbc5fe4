//! Ordering a run's entries by shadow: a move whose every path crosses an earlier
//! move's destination and that move's own path (a slide's farther cells behind its
//! nearer ones) is closed whenever that destination or path holds a piece. Such moves
//! follow the one that shades them, which says how many they are, so that a walk over
//! the run skips them at once.

use super::MoveEntry;
use crate::geometry::CellSet;

/// One entry with its alternative paths and the cells of its condition on nearby cells.
pub(super) type Built<S> = (MoveEntry, Vec<S>, S);

/// Reorders a run sorted by destination, keeping the entries of one destination side by
/// side, and sets [`MoveEntry::shadow`] on the last entry of each destination.
pub(super) fn order_by_shadow<S: CellSet>(run: Vec<Built<S>>) -> Vec<Built<S>> {
    // Nodes: the entries of one destination, as [start, end).
    let mut nodes: Vec<(usize, usize)> = Vec::new();
    for i in 0..run.len() {
        match nodes.last_mut() {
            Some(n) if run[n.0].0.to == run[i].0.to => n.1 = i + 1,
            _ => nodes.push((i, i + 1)),
        }
    }
    if nodes.len() < 2 {
        return run;
    }
    let node_at = |c: crate::geometry::Cell| nodes.binary_search_by_key(&c, |n| run[n.0].0.to);
    // The one path every entry of a node takes, if they share one (and jump nothing).
    let single: Vec<Option<S>> = nodes
        .iter()
        .map(|&(a, b)| {
            let first = run[a].1.first().copied()?;
            run[a..b]
                .iter()
                .all(|(e, p, _)| e.hurdle == 0 && p.len() == 1 && p[0] == first)
                .then_some(first)
        })
        .collect();
    // Each node's parent: the node with the longest path among those whose destination
    // and path lie on every path of this node.
    let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
    for (m, &(a, b)) in nodes.iter().enumerate() {
        if run[a..b]
            .iter()
            .any(|(e, p, _)| e.hurdle != 0 || p.is_empty())
        {
            continue;
        }
        let common = run[a..b]
            .iter()
            .flat_map(|(_, p, _)| p.iter())
            .fold(None, |acc: Option<S>, p| {
                Some(acc.map_or(*p, |a| a.intersection(p)))
            })
            .unwrap_or(S::EMPTY);
        let mut best: Option<(usize, usize)> = None;
        for c in common.iter() {
            let Ok(n) = node_at(c) else { continue };
            let Some(path) = single[n] else { continue };
            if n != m && path.is_subset(&common) && best.is_none_or(|(_, l)| path.len() > l) {
                best = Some((n, path.len()));
            }
        }
        parent[m] = best.map(|(n, _)| n);
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (m, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(m);
        }
    }
    // Entries under each node, its own not counted.
    let mut under = vec![0usize; nodes.len()];
    fn count(n: usize, children: &[Vec<usize>], nodes: &[(usize, usize)], under: &mut [usize]) {
        for &c in &children[n] {
            count(c, children, nodes, under);
            under[n] += under[c] + nodes[c].1 - nodes[c].0;
        }
    }
    let roots: Vec<usize> = (0..nodes.len()).filter(|m| parent[*m].is_none()).collect();
    for &r in &roots {
        count(r, &children, &nodes, &mut under);
    }
    // Depth first, each node's entries before those it shades.
    let mut order = Vec::with_capacity(run.len());
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(n) = stack.pop() {
        let (a, b) = nodes[n];
        for i in a..b {
            let shadow = if i + 1 == b { under[n] } else { 0 };
            order.push((i, u16::try_from(shadow).unwrap_or(0)));
        }
        stack.extend(children[n].iter().rev());
    }
    let mut slots: Vec<Option<Built<S>>> = run.into_iter().map(Some).collect();
    order
        .into_iter()
        .map(|(i, shadow)| {
            let mut b = slots[i].take().expect("each entry once");
            b.0.shadow = shadow;
            b
        })
        .collect()
}
