#!/usr/bin/env python3
"""A match between two UCI engines, driven through python-chess's engine module.

    python3 scripts/match.py --games 200 --movetime 300 \\
        --engine "target/release/variantlab uci variants/chess.var" \\
        --opponent "/path/to/fairy-stockfish" --opponent-option UCI_Elo=2000 \\
        --opponent-option UCI_LimitStrength=true

Each opening (a few random legal moves from a seed, the same for both colours) is
played twice, the engines swapping sides. Games are adjudicated by python-chess's
rules (checkmate, stalemate, repetition, 50 moves, too little material) or stopped as
draws at --max-plies. Prints each game, then the first engine's score with a 95%
error bar and the Elo difference it means. Standard chess only (python-chess's board
judges the moves); `--pgn FILE` keeps the games.
"""

import argparse
import math
import random
import shlex

import chess
import chess.engine
import chess.pgn


def open_engine(command, options):
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=60)
    for item in options:
        name, value = item.split("=", 1)
        engine.configure({name: value})
    return engine


def opening(seed, plies):
    rng = random.Random(seed)
    board = chess.Board()
    while True:
        board.reset()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            return board


def play(engines, start, movetime, max_plies):
    board = start.copy()
    limit = chess.engine.Limit(time=movetime / 1000)
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = engines[0] if board.turn == chess.WHITE else engines[1]
        board.push(engine.play(board, limit).move)
    outcome = board.outcome(claim_draw=True)
    return board, (outcome.result() if outcome else "1/2-1/2")


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True)
    p.add_argument("--opponent", required=True)
    p.add_argument("--engine-option", action="append", default=[])
    p.add_argument("--opponent-option", action="append", default=[])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--movetime", type=int, default=300, help="milliseconds a move")
    p.add_argument("--opening-plies", type=int, default=6)
    p.add_argument("--max-plies", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pgn")
    a = p.parse_args()
    ours = open_engine(a.engine, a.engine_option)
    theirs = open_engine(a.opponent, a.opponent_option)
    points, played = 0.0, 0
    scores = []
    out = open(a.pgn, "w") if a.pgn else None
    try:
        for g in range(a.games):
            start = opening(a.seed * 100003 + g // 2, a.opening_plies)
            white_is_ours = g % 2 == 0
            engines = (ours, theirs) if white_is_ours else (theirs, ours)
            board, result = play(engines, start, a.movetime, a.max_plies)
            white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            mine = white_points if white_is_ours else 1 - white_points
            points += mine
            played += 1
            scores.append(mine)
            print(f"game {g + 1}: {'ours' if white_is_ours else 'theirs'} white, {result} in {board.ply()} plies; score {points}/{played}", flush=True)
            if out:
                game = chess.pgn.Game.from_board(board)
                game.headers["White"] = "engine" if white_is_ours else "opponent"
                game.headers["Black"] = "opponent" if white_is_ours else "engine"
                game.headers["Result"] = result
                print(game, file=out, end="\n\n", flush=True)
    finally:
        ours.quit()
        theirs.quit()
        if out:
            out.close()
    mean = points / played
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(played - 1, 1))
    margin = 1.96 * sd / math.sqrt(played)
    print(f"score {points}/{played} = {mean:.3f} ± {margin:.3f} (95%); "
          f"Elo {elo(mean):+.0f} (from {elo(max(mean - margin, 0)):+.0f} to {elo(min(mean + margin, 1)):+.0f})")


if __name__ == "__main__":
    main()
