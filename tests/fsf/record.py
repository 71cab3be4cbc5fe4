#!/usr/bin/env python3
"""Records Fairy-Stockfish's perft counts as test expectations.

Usage: tests/fsf/record.py PATH-TO-STOCKFISH [GAME[:usi] ...] > tests/fsf/perft.txt

For each game (a Fairy-Stockfish variant name; the variant file is
variants/GAME.var; `:usi` for a game whose files write moves and positions as
USI and SFEN do) it writes the start position, perft from the start up to depth 4
or until a depth passes 2M nodes, and seeded random games: at each ply the move
played (in Fairy-Stockfish's move text), perft 2 after it and the position string
after it. A game stops where Fairy-Stockfish has no legal move (the game is over).
The test (tests/suite/fsf.rs) reads the file; it never runs Fairy-Stockfish.
Without GAME arguments the games already in tests/fsf/perft.txt are recorded again.
A game the engine does not build in (gorogoroplus) is defined in its source's
src/variants.ini: name that file in FSF_VARIANT_PATH.
"""

import os
import subprocess
import sys

GAMES = 3
PLIES = 40
# Games from a given position run longer: they are there for what happens late.
PLIES_FROM = 160
MAX_NODES = 2_000_000
MAX_DEPTH = 4


class Engine:
    def __init__(self, path, protocol):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.protocol = protocol
        self.send(protocol)
        self.until(lambda l: l == protocol + "ok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines

    def variant(self, name):
        # A game defined in a variants file of its own (not built into the engine).
        if os.environ.get("FSF_VARIANT_PATH"):
            self.send(f"setoption name VariantPath value {os.environ['FSF_VARIANT_PATH']}")
        self.send(f"setoption name UCI_Variant value {name}")
        self.send("ucinewgame")

    def position(self, moves, start=None):
        tail = " moves " + " ".join(moves) if moves else ""
        self.send(("position fen " + start if start else "position startpos") + tail)

    def fen(self):
        self.send("d")
        self.send("isready")
        lines = self.until(lambda l: l == "readyok")
        key = "Sfen: " if self.protocol == "usi" else "Fen: "
        return next(l[len(key):] for l in lines if l.startswith(key))

    def perft(self, depth):
        """The moves (with their counts below) and the total."""
        self.send(f"go perft {depth}")
        lines = self.until(lambda l: l.startswith("Nodes searched:"))
        moves = [l.split(":")[0] for l in lines if ": " in l and not l.startswith("Nodes")]
        moves = [m for m in moves if " " not in m]
        return moves, int(lines[-1].split(":")[1])


def seed_of(name, game):
    h = 1469598103934665603
    for b in f"{name}/{game}".encode():
        h = ((h ^ b) * 1099511628211) % 2**64
    return h


def lcg(state):
    """The next state and a number from it (Knuth's MMIX constants)."""
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return state, state >> 33


def rows(here):
    with open(os.path.join(here, "positions.txt")) as f:
        return [l.split(" ", 1) for l in f if l.strip() and not l.startswith("#")]


def positions(here, name):
    """Positions to record perft from."""
    return [t.strip() for game, t in rows(here) if game == name and not t.startswith("play ")]


def starts(here, name):
    """Positions to play a random game from (`GAME play FEN`)."""
    return [t[5:].strip() for game, t in rows(here) if game == name and t.startswith("play ")]


def play(engine, out, state, start):
    """A seeded random game from `start` (None: the game's start), a `ply` line each."""
    played = []
    for _ in range(PLIES_FROM if start else PLIES):
        engine.position(played, start)
        moves, _ = engine.perft(1)
        if not moves:
            break
        moves.sort()
        state, r = lcg(state)
        played.append(moves[r % len(moves)])
        engine.position(played, start)
        _, nodes = engine.perft(2)
        out.write(f"ply {played[-1]} {nodes} {engine.fen()}\n")


def record(path, game, out, here):
    name, _, protocol = game.partition(":")
    engine = Engine(path, protocol or "uci")
    engine.variant(name)
    engine.position([])
    out.write(f"variant {game.replace(':', ' ')}\n")
    out.write(f"start {engine.fen()}\n")
    for depth in range(1, MAX_DEPTH + 1):
        _, nodes = engine.perft(depth)
        out.write(f"perft {depth} {nodes}\n")
        if nodes > MAX_NODES:
            break
    for game in range(GAMES):
        out.write(f"game {game}\n")
        play(engine, out, seed_of(name, game), None)
    for i, fen in enumerate(starts(here, name)):
        out.write(f"from {fen}\n")
        play(engine, out, seed_of(name, f"from {i}"), fen)
    for fen in positions(here, name):
        engine.send(f"position fen {fen}")
        out.write(f"position {engine.fen()}\n")
        for depth in range(1, 4):
            _, nodes = engine.perft(depth)
            out.write(f"perft {depth} {nodes}\n")
            if nodes > MAX_NODES // 100:
                break
    out.flush()
    engine.send("quit")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    games = sys.argv[2:]
    if not games:
        with open(os.path.join(here, "perft.txt")) as f:
            games = [":".join(l.split()[1:]) for l in f if l.startswith("variant ")]
    sys.stdout.write(
        "# Fairy-Stockfish's counts, written by tests/fsf/record.py; read by tests/suite/fsf.rs.\n"
    )
    for game in games:
        record(sys.argv[1], game, sys.stdout, here)


if __name__ == "__main__":
    main()
