#!/usr/bin/env python3
"""Reads a PGN file with python-chess and replays every game, checking that each move
is legal and that a game said to end in checkmate or stalemate does.

    python3 scripts/pgn_check.py games.pgn
"""

import sys

import chess
import chess.pgn


def main():
    games = 0
    with open(sys.argv[1]) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            if game.errors:
                print(f"FAIL: game {games}: {game.errors}")
                sys.exit(1)
            board = game.end().board()
            result = game.headers.get("Result")
            termination = game.headers.get("Termination", "")
            if "checkmated" in termination and not board.is_checkmate():
                print(f"FAIL: game {games} says checkmate, python-chess sees {board.fen()}")
                sys.exit(1)
            if "stalemated" in termination and not board.is_stalemate():
                print(f"FAIL: game {games} says stalemate, python-chess sees {board.fen()}")
                sys.exit(1)
            outcome = board.outcome()
            if outcome and result != outcome.result():
                print(f"FAIL: game {games}: Result {result}, python-chess {outcome.result()}")
                sys.exit(1)
    print(f"games {games} read")


if __name__ == "__main__":
    main()
