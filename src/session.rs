//! A game with an optional computer opponent that keeps what it learnt (its
//! transposition table) from one move to the next. The terminal, the web page and
//! self-play all play through it.

use crate::model::PlayerId;
use crate::runtime::{Game, Move, PlayError};
use crate::search::{Limits, Searcher, Thought, think_in_game};

/// The table size of a session's searcher: 2^20 entries.
pub const TABLE_BITS: u32 = 20;

/// A game, and the computer if it plays some of the sides.
pub struct Session {
    game: Game,
    computer: Option<Computer>,
}

/// The computer: the sides it plays, how hard it thinks, and its searcher.
struct Computer {
    /// Bit `p` set: the computer plays player `p`.
    sides: u8,
    limits: Limits,
    searcher: Searcher,
}

/// A move the computer made, and what it thought of it.
#[derive(Clone, Debug)]
pub struct ComputerMove {
    pub played: Move,
    pub thought: Thought,
}

impl Session {
    /// A game for people only.
    pub fn new(game: Game) -> Session {
        Session {
            game,
            computer: None,
        }
    }

    /// The computer plays `sides`, searching within `limits`.
    pub fn with_computer(mut self, sides: &[PlayerId], limits: Limits) -> Session {
        self.set_computer(sides, limits);
        self
    }

    /// [`Session::with_computer`] on a session in progress; no sides: people only.
    pub fn set_computer(&mut self, sides: &[PlayerId], limits: Limits) {
        let sides = sides.iter().fold(0u8, |s, p| s | 1 << p.0);
        self.computer = (sides != 0).then(|| {
            let searcher = match self.computer.take() {
                Some(c) => c.searcher,
                None => Searcher::new(self.game.rules().clone(), TABLE_BITS),
            };
            Computer {
                sides,
                limits,
                searcher,
            }
        });
    }

    /// [`Session::with_computer`] with a searcher of one's own, as self-play reuses one
    /// per thread. The searcher must be for this game's rules.
    pub fn with_searcher(
        mut self,
        sides: &[PlayerId],
        limits: Limits,
        searcher: Searcher,
    ) -> Session {
        debug_assert!(std::sync::Arc::ptr_eq(searcher.rules(), self.game.rules()));
        let sides = sides.iter().fold(0u8, |s, p| s | 1 << p.0);
        self.computer = Some(Computer {
            sides,
            limits,
            searcher,
        });
        self
    }

    /// Ends the computer's searches early once `flag` is set (its caller went away);
    /// a legal move is still played.
    pub fn set_stop(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        if let Some(c) = self.computer.as_mut() {
            c.searcher.set_stop(flag);
        }
    }

    /// The searcher back, for the next session.
    pub fn into_searcher(self) -> Option<Searcher> {
        self.computer.map(|c| c.searcher)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether the computer plays this side.
    pub fn computer_plays(&self, p: PlayerId) -> bool {
        self.computer
            .as_ref()
            .is_some_and(|c| c.sides & 1 << p.0 != 0)
    }

    /// Whether it is the computer's turn in a game still going.
    pub fn computer_to_move(&self) -> bool {
        self.game.ending().is_none() && self.computer_plays(self.game.to_move())
    }

    /// Plays a person's move given in notation; a refused move changes nothing.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        self.game.play_text(text)
    }

    /// Plays a person's move; it must be legal.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.game.play(m)
    }

    /// Takes back the last move a person made and the computer's moves after it, so
    /// that the person is to move again; nothing when no person has moved (a computer
    /// that moved first keeps its move, or it would never move again). How many moves
    /// were taken back.
    pub fn undo(&mut self) -> usize {
        let mut back = self.game.clone();
        let mut n = 0;
        while back.undo() {
            n += 1;
            if !self.computer_plays(back.to_move()) {
                self.game = back;
                return n;
            }
        }
        0
    }

    /// The computer's move when it is its turn: searched, played and returned. None
    /// only when it is not its turn or it has no legal move: whatever cut the search
    /// short, a legal move is played.
    pub fn computer_move(&mut self) -> Option<ComputerMove> {
        if !self.computer_to_move() {
            return None;
        }
        let c = self.computer.as_mut()?;
        let thought = think_in_game(&mut c.searcher, &self.game, &c.limits);
        let legal = self.game.legal_moves();
        let played = thought
            .best
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied())?;
        self.game.play(played).ok()?;
        Some(ComputerMove { played, thought })
    }

    /// The computer's moves until a person is to move or the game ends.
    pub fn computer_replies(&mut self) -> Vec<ComputerMove> {
        let mut out = vec![];
        while let Some(m) = self.computer_move() {
            out.push(m);
        }
        out
    }

    /// Searches the current position for whoever is to move, without playing; with the
    /// computer's searcher when there is one, so it learns from this too.
    pub fn think(&mut self, limits: &Limits) -> Thought {
        match self.computer.as_mut() {
            Some(c) => think_in_game(&mut c.searcher, &self.game, limits),
            None => {
                let mut s = Searcher::new(self.game.rules().clone(), TABLE_BITS);
                think_in_game(&mut s, &self.game, limits)
            }
        }
    }

    /// Replaces the game (a loaded one, say); the computer forgets the old one.
    pub fn replace_game(&mut self, game: Game) {
        let same = std::sync::Arc::ptr_eq(game.rules(), self.game.rules());
        self.game = game;
        if let Some(c) = self.computer.as_mut() {
            if same {
                c.searcher.clear();
            } else {
                c.searcher = Searcher::new(self.game.rules().clone(), TABLE_BITS);
            }
        }
    }
}
