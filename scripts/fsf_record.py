#!/usr/bin/env python3
"""Records Fairy-Stockfish's move counts as test expectations.

For each game listed below: the perft from the start, then seeded random games played
with Fairy-Stockfish's own legal moves, keeping at every ply its position string (FEN,
or SFEN for the shogi family), its perft 2 and the move played next. The files written
to tests/suite/fsf/ are facts the test suite replays against variantlab; the suite
never runs Fairy-Stockfish itself.

    scripts/fsf_record.py /path/to/stockfish [game ...]
"""

import random
import subprocess
import sys
from pathlib import Path

# (Fairy-Stockfish's name, variant file, protocol, start perft depth, seeds, plies)
GAMES = [
    ("crazyhouse", "crazyhouse.var", "uci", 4, [1, 2, 3], 60),
    ("chessgi", "chessgi.var", "uci", 4, [1, 2, 3], 60),
    ("pocketknight", "pocketknight.var", "uci", 4, [1, 2, 3], 60),
    ("minishogi", "minishogi.var", "usi", 5, [1, 2, 3], 80),
    ("judkins", "judkins.var", "usi", 4, [1, 2, 3], 80),
    ("gorogoro", "gorogoro.var", "usi", 5, [1, 2, 3], 80),
    ("euroshogi", "euroshogi.var", "usi", 4, [1, 2, 3], 80),
]

OUT = Path(__file__).resolve().parent.parent / "tests" / "suite" / "fsf"


class Engine:
    def __init__(self, path, protocol, variant):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.protocol = protocol
        self.send(protocol)
        self.wait(protocol + "ok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(token):
                return lines

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def perft(self, depth):
        """The total and the moves at the root with their counts."""
        self.send(f"go perft {depth}")
        lines = self.wait("Nodes searched")
        total = int(lines[-1].split(":")[1])
        moves = [l.split(":")[0] for l in lines[:-1] if ": " in l and " " not in l.split(":")[0]]
        return total, moves

    def fen(self):
        self.send("d")
        lines = self.wait("Chased")
        key = "Sfen:" if self.protocol == "usi" else "Fen:"
        return next(l[len(key):].strip() for l in lines if l.startswith(key))

    def quit(self):
        self.send("quit")
        self.p.wait()


def record(path, game):
    name, file, protocol, depth, seeds, plies = game
    e = Engine(path, protocol, name)
    e.position([])
    start, _ = e.perft(depth)
    out = [
        f"# Fairy-Stockfish's counts for {name}, recorded by scripts/fsf_record.py.",
        f"# start: perft DEPTH NODES; then per game, per ply: position, perft 2, next move.",
        f"file {file}",
        f"start {depth} {start}",
    ]
    for seed in seeds:
        rng = random.Random(seed)
        moves = []
        out.append(f"game {seed}")
        for _ in range(plies):
            e.position(moves)
            fen = e.fen()
            total, legal = e.perft(2)
            if not legal:
                out.append(f"{fen}\t{total}\t-")
                break
            move = rng.choice(sorted(legal))
            out.append(f"{fen}\t{total}\t{move}")
            moves.append(move)
    e.quit()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.txt").write_text("\n".join(out) + "\n")
    print(f"{name}: start perft {depth} = {start}")


def main():
    path = sys.argv[1]
    wanted = sys.argv[2:]
    for game in GAMES:
        if not wanted or game[0] in wanted:
            record(path, game)


if __name__ == "__main__":
    main()
