#!/usr/bin/env python3
"""Times variantlab's perft against Fairy-Stockfish's from the start of every game both play.

Usage: scripts/perft_race.py PATH-TO-STOCKFISH [GAME ...] [--variantlab PATH]
       [--least 0.3] [--most 120]

The games are those of tests/fsf/perft.txt (GAME is a Fairy-Stockfish variant name;
its file is variants/GAME.var). For each, the depth is the first at which
Fairy-Stockfish needs at least --least seconds (or the last under --most seconds).
Each side runs twice and keeps its best time: Fairy-Stockfish's `go perft D` inside
one running engine (its start-up left out), and `variantlab perft FILE --depth D` as a
process, its loading time (the same command at depth 1) taken off. Build variantlab
first (`cargo build --release`) and Fairy-Stockfish on its own, one thread, with
`largeboards=yes all=yes`. Prints a Markdown table, slowest game first, and the
geometric mean of the ratios (above 1: variantlab is faster). Node counts that differ
are marked; such a row is left out of the mean.
"""

import argparse
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_DEPTH = 9


class Engine:
    def __init__(self, path, protocol):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send(protocol)
        self.until(lambda l: l == protocol + "ok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish closed its output")
            line = line.rstrip("\n")
            if done(line):
                return line

    def start(self, name):
        self.send(f"setoption name UCI_Variant value {name}")
        self.send("position startpos")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def perft(self, depth):
        """Seconds and nodes."""
        t = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.until(lambda l: l.startswith("Nodes searched:"))
        return time.perf_counter() - t, int(line.split(":")[1])

    def close(self):
        self.send("quit")
        self.p.wait()


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


def race(fsf, variantlab, name, protocol, least, most):
    file = os.path.join(ROOT, "variants", name + ".var")
    engine = Engine(fsf, protocol)
    engine.start(name)
    depth, theirs, nodes = 1, None, 0
    while depth <= MAX_DEPTH:
        seconds, n = engine.perft(depth)
        if seconds > most and theirs is not None:
            break
        theirs, nodes = seconds, n
        if seconds >= least:
            break
        depth += 1
    depth = min(depth, MAX_DEPTH)
    theirs = min(theirs, engine.perft(depth)[0])
    engine.close()
    load = min(ours(variantlab, file, 1)[0] for _ in range(2))
    runs = [ours(variantlab, file, depth) for _ in range(2)]
    mine = max(min(r[0] for r in runs) - load, 1e-6)
    return depth, nodes, runs[0][1], theirs, mine


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("stockfish")
    a.add_argument("games", nargs="*")
    a.add_argument("--variantlab", default=os.path.join(ROOT, "target/release/variantlab"))
    a.add_argument("--least", type=float, default=0.3)
    a.add_argument("--most", type=float, default=120.0)
    args = a.parse_args()
    wanted = set(args.games)
    rows = []
    for g in games():
        name, protocol = g[0], (g[1] if len(g) > 1 else "uci")
        if wanted and name not in wanted:
            continue
        depth, nodes, mine_nodes, theirs, mine = race(
            args.stockfish, args.variantlab, name, protocol, args.least, args.most
        )
        rows.append((theirs / mine, name, depth, nodes, mine_nodes, theirs, mine))
        print(f"{name}: perft {depth}, {theirs:.2f} s against {mine:.2f} s", file=sys.stderr)
    rows.sort()
    print("| game | perft | Fairy-Stockfish | variantlab | ratio |")
    print("| --- | --- | --- | --- | --- |")
    agreed = []
    for ratio, name, depth, nodes, mine_nodes, theirs, mine in rows:
        count = f"{depth} ({nodes:,})"
        if nodes != mine_nodes:
            count += f" **variantlab counts {mine_nodes:,}**"
        else:
            agreed.append(ratio)
        print(f"| {name} | {count} | {theirs:.2f} s | {mine:.2f} s | {ratio:.2f} |")
    if agreed:
        mean = math.exp(sum(math.log(r) for r in agreed) / len(agreed))
        slower = sum(1 for r in agreed if r < 1)
        below2 = sum(1 for r in agreed if r < 2)
        print(
            f"\n{len(agreed)} games: geometric mean {mean:.2f}x Fairy-Stockfish's speed; "
            f"{below2} below 2x, {slower} slower than it."
        )


if __name__ == "__main__":
    main()
