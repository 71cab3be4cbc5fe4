#!/usr/bin/env python3
"""Times variantlab's perft against Fairy-Stockfish's from the start of every game both play.

Usage: scripts/perft_race.py PATH-TO-STOCKFISH [GAME ...] [--variantlab PATH]
       [--before PATH] [--least 0.3] [--most 120]

The games are those of tests/fsf/perft.txt (GAME is a Fairy-Stockfish variant name;
its file is variants/GAME.var). For each, the depth is the first at which
Fairy-Stockfish needs at least --least seconds (or the last under --most seconds).
Each side runs twice and keeps its best time: Fairy-Stockfish's `go perft D` inside
one running engine (its start-up left out), and `variantlab perft FILE --depth D` as a
process, its loading time (the same command at depth 1) taken off. Build variantlab
first (`cargo build --release`) and Fairy-Stockfish on its own, one thread, with
`largeboards=yes all=yes`. Prints a Markdown table, slowest game first, and the
geometric mean of the ratios (above 1: variantlab is faster). Node counts that differ
are marked, and so are games Fairy-Stockfish finishes in under --least seconds at
every depth up to 9; such rows are left out of the mean. With --before, a second
variantlab build is timed the same way, game by game beside the first, in a column of
its own.
"""

import argparse
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "fsf"))
from record import Engine  # noqa: E402  (the engine driver the recorded counts use)
MAX_DEPTH = 9


def start(fsf, name, protocol):
    """Fairy-Stockfish at the start of a game, ready for `go perft`."""
    engine = Engine(fsf, protocol)
    engine.variant(name)
    engine.position([])
    return engine


def perft(engine, depth):
    """Seconds and nodes of one `go perft`."""
    t = time.perf_counter()
    _, nodes = engine.perft(depth)
    return time.perf_counter() - t, nodes


def games():
    with open(os.path.join(ROOT, "tests/fsf/perft.txt")) as f:
        return [l.split()[1:] for l in f if l.startswith("variant ")]


def ours(variantlab, file, depth):
    """Seconds and nodes of one `variantlab perft` run."""
    t = time.perf_counter()
    out = subprocess.run(
        [variantlab, "perft", file, "--depth", str(depth)],
        capture_output=True, text=True, check=True,
    ).stdout
    seconds = time.perf_counter() - t
    nodes = int(next(l for l in out.splitlines() if l.startswith("nodes ")).split()[1])
    return seconds, nodes


def timed(variantlab, file, depth):
    """Best of two runs, loading time taken off, and the nodes counted."""
    load = min(ours(variantlab, file, 1)[0] for _ in range(2))
    runs = [ours(variantlab, file, depth) for _ in range(2)]
    return max(min(r[0] for r in runs) - load, 1e-6), runs[0][1]


def race(fsf, variantlab, before, name, protocol, least, most):
    file = os.path.join(ROOT, "variants", name + ".var")
    engine = start(fsf, name, protocol)
    depth, theirs, nodes = 1, None, 0
    while depth <= MAX_DEPTH:
        seconds, n = perft(engine, depth)
        if seconds > most and theirs is not None:
            break
        theirs, nodes = seconds, n
        if seconds >= least:
            break
        depth += 1
    depth = min(depth, MAX_DEPTH)
    theirs = min(theirs, perft(engine, depth)[0])
    engine.send("quit")
    engine.p.wait()
    mine, mine_nodes = timed(variantlab, file, depth)
    old = timed(before, file, depth)[0] if before else None
    return depth, nodes, mine_nodes, theirs, mine, old


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("stockfish")
    a.add_argument("games", nargs="*")
    a.add_argument("--variantlab", default=os.path.join(ROOT, "target/release/variantlab"))
    a.add_argument("--before", help="another variantlab build to time beside it")
    a.add_argument("--least", type=float, default=0.3)
    a.add_argument("--most", type=float, default=120.0)
    args = a.parse_args()
    wanted = set(args.games)
    rows = []
    for g in games():
        name, protocol = g[0], (g[1] if len(g) > 1 else "uci")
        if wanted and name not in wanted:
            continue
        depth, nodes, mine_nodes, theirs, mine, old = race(
            args.stockfish, args.variantlab, args.before, name, protocol, args.least, args.most
        )
        rows.append((theirs / mine, name, depth, nodes, mine_nodes, theirs, mine, old))
        print(f"{name}: perft {depth}, {theirs:.2f} s against {mine:.2f} s", file=sys.stderr)
    rows.sort()
    before = " variantlab before | ratio before |" if args.before else ""
    print(f"| game | perft | Fairy-Stockfish |{before} variantlab | ratio |")
    print("| --- | --- | --- |" + (" --- | --- |" if args.before else "") + " --- | --- |")
    agreed, agreed_before = [], []
    for ratio, name, depth, nodes, mine_nodes, theirs, mine, old in rows:
        count = f"{depth} ({nodes:,})"
        if nodes != mine_nodes:
            count += f" **variantlab counts {mine_nodes:,}**"
        elif theirs < args.least:
            count += " (too quick to time)"
        else:
            agreed.append(ratio)
            if old:
                agreed_before.append(theirs / old)
        then = f" {old:.2f} s | {theirs / old:.2f} |" if old else ""
        print(f"| {name} | {count} | {theirs:.2f} s |{then} {mine:.2f} s | {ratio:.2f} |")

    def summary(ratios, what):
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        slower = sum(1 for r in ratios if r < 1)
        below2 = sum(1 for r in ratios if r < 2)
        return (
            f"{what}{len(ratios)} games: geometric mean {mean:.2f}x Fairy-Stockfish's "
            f"speed; {below2} below 2x, {slower} slower than it."
        )

    if agreed:
        print("\n" + summary(agreed, ""))
    if agreed_before:
        print(summary(agreed_before, "Before: "))


if __name__ == "__main__":
    main()
