#!/usr/bin/env python3
"""Drives `variantlab uci FILE` through python-chess's engine module, a UCI client
written outside this project: checks what it reads from the engine's `info` lines, a
`go infinite` ended by `stop`, move times and clocks, then plays variantlab against
itself and prints one line per game and a summary.

    python3 scripts/uci_selfmatch.py target/release/variantlab variants/chess.var [GAMES]

Exits non-zero on the first broken promise (an illegal move, a missing info field, a
move slower than its time, a lost clock).
"""

import sys
import time

import chess
import chess.engine

MAX_PLIES = 200


def fail(why):
    print(f"FAIL: {why}")
    sys.exit(1)


def open_engine(binary, variant):
    return chess.engine.SimpleEngine.popen_uci([binary, "uci", variant], timeout=60)


def check_analysis(engine):
    board = chess.Board()
    board.push_uci("e2e4")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    for field in ("depth", "score", "nodes", "nps", "pv", "time"):
        if field not in info:
            fail(f"no `{field}` in the info lines: {info}")
    if info["depth"] != 4:
        fail(f"asked for depth 4, the last info says {info['depth']}")
    if len(info["pv"]) < 1:
        fail("an empty principal variation")
    probe = board.copy()
    for m in info["pv"]:
        if m not in probe.legal_moves:
            fail(f"pv move {m} is not legal in {probe.fen()}")
        probe.push(m)
    # Mate in one for White: the score must say mate.
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=3))
    if info["score"].white() != chess.engine.Mate(1):
        fail(f"mate in one scored {info['score']}")
    print(f"analysis: depth {info['depth']}, mate found, pv {info['pv'][0]}")


def check_infinite(engine):
    board = chess.Board()
    started = time.monotonic()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
    best = analysis.wait()
    took = time.monotonic() - started
    if best.move is None or best.move not in board.legal_moves:
        fail(f"go infinite then stop gave {best.move}")
    print(f"infinite: stopped after {took:.2f}s with {best.move}")


def check_times(engine):
    board = chess.Board()
    worst = 0.0
    for _ in range(4):
        started = time.monotonic()
        r = engine.play(board, chess.engine.Limit(time=0.2))
        worst = max(worst, time.monotonic() - started)
        board.push(r.move)
    # The engine answers by the movetime; the pipe and a loaded machine add a little.
    if worst > 0.2 + 0.3:
        fail(f"movetime 200 ms answered after {worst * 1000:.0f} ms")
    print(f"movetime 200 ms: slowest answer {worst * 1000:.0f} ms")


def play_game(white, black, limit_of, label):
    board = chess.Board()
    clocks = {chess.WHITE: 4.0, chess.BLACK: 4.0}
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        engine = white if board.turn == chess.WHITE else black
        limit = limit_of(clocks)
        started = time.monotonic()
        result = engine.play(board, limit)
        took = time.monotonic() - started
        if limit.white_clock is not None:
            clocks[board.turn] -= took
            if clocks[board.turn] <= 0:
                fail(f"{label}: {'White' if board.turn else 'Black'} lost on time at ply {board.ply()}")
            clocks[board.turn] += limit.white_inc or 0.0
        if result.move is None or result.move not in board.legal_moves:
            fail(f"{label}: illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    result = outcome.result() if outcome else "*"
    why = outcome.termination.name.lower() if outcome else f"stopped at {MAX_PLIES} plies"
    print(f"{label}: {result} ({why}) in {board.ply()} plies")
    return result


def main():
    binary, variant = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    a, b = open_engine(binary, variant), open_engine(binary, variant)
    try:
        if not a.id.get("name", "").startswith("variantlab"):
            fail(f"the engine calls itself {a.id}")
        check_analysis(a)
        check_infinite(a)
        check_times(a)
        limits = [
            lambda c: chess.engine.Limit(time=0.03),
            lambda c: chess.engine.Limit(
                white_clock=c[chess.WHITE], black_clock=c[chess.BLACK],
                white_inc=0.04, black_inc=0.04),
        ]
        results = []
        for g in range(games):
            white, black = (a, b) if g % 2 == 0 else (b, a)
            results.append(play_game(white, black, limits[g % 2], f"game {g + 1}"))
        print(f"games {len(results)}: " + " ".join(results))
    finally:
        a.quit()
        b.quit()


if __name__ == "__main__":
    main()
