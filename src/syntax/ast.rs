//! The syntax tree of a variant file. Every node keeps its span; equality ignores spans.

pub use super::end::{Condition, EndRule, Event, Kinds, Outcome, Owner, Place, Who};
pub use super::node::*;

#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    pub statements: Vec<Statement>,
    /// Stretches of text skipped after syntax errors: the statements they hold are
    /// not in `statements`.
    pub skipped: Vec<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Name(Name),
    Inventor(Name),
    Description(Name),
    Board(Spanned<BoardShape>),
    Coordinates(Spanned<CoordinatesDecl>),
    /// Each a cell, or the first and last cells of a line of them (`a1 to a4`).
    Holes(Vec<(Name, Option<Name>)>),
    /// `extra cells w1 SW of a0`: each a new cell's name, a direction, and the cell
    /// it lies one step beyond.
    Extra(Vec<(Name, Name, Name)>),
    Player(PlayerDecl),
    Option(OptionDecl),
    Tag(TagDecl),
    Piece(PieceDecl),
    Setup(SetupDecl),
    End(Vec<EndRule>),
    Zone(ZoneDecl),
    Castling(CastlingDecl),
    /// `captured pieces go to hand`, and how.
    Hand(Spanned<HandDecl>),
    /// `position strings as in FEN`.
    Fen(Spanned<()>),
    /// `position strings as in SFEN`.
    Sfen(Spanned<()>),
    /// `position strings as in PDN`.
    Pdn(Spanned<()>),
    /// `captures are compulsory`, `checks are forbidden`.
    Obligation(Spanned<ObligationDecl>),
    /// `drops are compulsory`, `drops keep ... on different colours`, `drops on castling
    /// starts give castling rights`.
    Drops(Spanned<DropsDecl>),
    /// `pieces in hand enter [only] through gates on ZONE`: the zone, and `only`.
    Gates(Name, bool),
    /// `position strings count plies since a capture or KIND move`: the kinds.
    /// The kinds whose moves restart the clock, and whether drops do.
    /// Each kind comes with whether only its forward moves count (`forward Pawn move`).
    Clock(Spanned<Vec<(Name, bool)>>, bool),
    /// `players may pass`, with whether `, except in check` follows, and whether
    /// `, only when they cannot move` does.
    Pass(Spanned<bool>, bool),
    /// `pieces drawn as SET`: the set's name.
    Drawing(Name),
    /// `pieces are worth points: ...`: kinds and their points.
    Worth(Vec<(Name, Spanned<Points>)>),
    /// `players start with points: ...`: players and their points.
    Bonus(Vec<(Name, Spanned<Points>)>),
    /// `captures explode`, with the kinds spared.
    Explode(Spanned<Vec<Spared>>),
    /// `after a Lion is captured by another kind, the next move captures one by another
    /// kind only on that cell`: the kinds named.
    Counterstrike(Spanned<Vec<Name>>),
    /// `royal pieces are in check together` or `... only when alone`.
    Royals(Spanned<RoyalCheck>),
    /// `... change sides` or `... are captured`: what a move does to enemy pieces
    /// around where it lands.
    Flip(Spanned<FlipStmt>),
    /// `after each move, the mover moves the wall to another empty cell`.
    MovedWall(Spanned<()>),
    /// `counting { ... }`: its lines.
    Counting(Spanned<Vec<CountLine>>),
}

/// `16 moves against 2 Rook`: the moves, and the number and kind after `against`
/// (the number 1 when left out).
pub type CountLimitDecl = (Spanned<u32>, Option<(u32, Name)>);

/// A line of `counting`.
#[derive(Clone, Debug, PartialEq)]
pub struct CountLine {
    /// `only royal pieces` (rather than `more than royal pieces`).
    pub bare: bool,
    /// When counting may start.
    pub condition: Spanned<Condition>,
    pub from_pieces: bool,
    pub limits: Vec<CountLimitDecl>,
}

/// `captures are compulsory, taking the most pieces, then by a King`: the obligation,
/// and the preferences narrowing it in the order written, each with the kinds it names
/// (none for `pieces`).
#[derive(Clone, Debug, PartialEq)]
pub struct ObligationDecl {
    pub rule: crate::terms::Obligation,
    pub prefer: Vec<Spanned<(crate::terms::Preferring, Vec<Name>)>>,
}

/// A rule on every drop of the game.
#[derive(Clone, Debug, PartialEq)]
pub enum DropsDecl {
    /// `drops keep each player's KIND [and KIND] pieces on different colours`.
    Colours(Vec<Name>),
    /// `drops on castling starts give castling rights`.
    Castling,
}

/// `enclosed enemy pieces are captured, on orthogonal lines of one piece`.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipStmt {
    pub which: Flip,
    /// `are captured`, not `change sides`.
    pub captured: bool,
    pub clauses: Vec<Spanned<EnclosureClause>>,
}

/// A narrowing of enclosure (see `flip_stmt` in the grammar).
#[derive(Clone, Debug, PartialEq)]
pub enum EnclosureClause {
    /// `on orthogonal lines of one piece`: the kind of direction (`None` for any) and
    /// whether lines are one piece long.
    Lines(Option<crate::geometry::Kind>, bool),
    /// `empty cells in throne enclose too`.
    Hostile(Name),
    /// `King in castle only when enclosed on every side`.
    EverySide(Kinds, Option<Name>),
    /// `rows along the edge facing enemies too`.
    EdgeRows,
}

/// Which enemy pieces a move acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flip {
    /// `enclosed enemy pieces`: lines of them between where it landed and another own piece.
    Enclosed,
    /// `enemy pieces next to where a piece lands`.
    Next,
}

/// `except KINDS` in `captures explode`: kinds an explosion leaves; with `around`, only
/// on the cells around the destination.
#[derive(Clone, Debug, PartialEq)]
pub struct Spared {
    pub kinds: Vec<Name>,
    pub around: bool,
}

/// A number of points in tenths: `1.5` is 15.
pub type Points = u32;

/// How hands work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandDecl {
    /// Drops need a cell the piece can move from.
    pub mobile_only: bool,
    /// Promoted pieces go to hand as they stand.
    pub keep_promoted: bool,
    /// `, dropped either side up`.
    pub either_side: bool,
}

/// `zone NAME: last cell of each file` or `zone NAME { Player: cells }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDecl {
    pub name: Name,
    /// `None`: the last cell of each file (or `far` ranks), for every player.
    pub cells: Option<Vec<(Name, Vec<Name>)>>,
    /// `zone centre: e5`: the same cells for every player.
    pub shared: Option<Vec<Name>>,
    /// `far N ranks`: the last N ranks across each player's forward direction.
    pub far: Option<Spanned<u32>>,
    /// With `far`: `near N ranks`, the first N ranks instead.
    pub near: bool,
}

/// `castling Player: Piece from to and ..., empty cells, safe cells`.
#[derive(Clone, Debug)]
pub struct CastlingDecl {
    pub player: Name,
    /// (piece, from, to), the first one naming the move; `from` is left out with
    /// `anywhere`.
    pub parts: Vec<(Name, Option<Name>, Name)>,
    /// `from anywhere on their line with the B SIDE of the A`: (B, side, A).
    pub anywhere: Option<(Name, Name, Name)>,
    pub empty: Vec<Name>,
    pub safe: Vec<Name>,
    /// `lost when an enemy KIND aims at CELL`: (kind, cell).
    pub aimed: Vec<(Name, Name)>,
    pub span: Span,
}

/// The two parts of a coordinate scheme, in the order names are written.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinatesDecl {
    pub parts: Vec<Spanned<CoordinatePart>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CoordinatePart {
    /// `None` for files, `Some` for lines along a direction (ranks are `E`).
    pub along: LineFamily,
    /// Letters to skip; `None` for numbers.
    pub letters: Option<Vec<char>>,
    pub side: Name,
    pub within: bool,
    /// `starting at 0`: the first number.
    pub first: Option<Spanned<u32>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LineFamily {
    Files,
    Ranks,
    Along(Name),
}

impl Statement {
    /// The word that starts the statement.
    pub fn keyword(&self) -> &'static str {
        match self {
            Statement::Name(_) => "name",
            Statement::Inventor(_) => "inventor",
            Statement::Description(_) => "description",
            Statement::Board(_) => "board",
            Statement::Coordinates(_) => "coordinates",
            Statement::Holes(_) => "holes",
            Statement::Extra(_) => "extra cells",
            Statement::Player(_) => "player",
            Statement::Option(_) => "option",
            Statement::Tag(_) => "tag",
            Statement::Piece(_) => "piece",
            Statement::Setup(_) => "setup",
            Statement::End(_) => "game",
            Statement::Zone(_) => "zone",
            Statement::Castling(_) => "castling",
            Statement::Hand(_) => "captured",
            Statement::Fen(_) | Statement::Sfen(_) | Statement::Pdn(_) | Statement::Clock(..) => {
                "position"
            }
            Statement::Obligation(o) => match o.node.rule.kind {
                crate::terms::MoveKind::Capture => "captures",
                crate::terms::MoveKind::Drop => "drops",
                crate::terms::MoveKind::Check => "checks",
                crate::terms::MoveKind::Promotion => "promotions",
            },
            Statement::Explode(_) => "captures",
            Statement::Counterstrike(_) => "after",
            Statement::Drops(_) => "drops",
            Statement::Gates(..) => "pieces",
            Statement::Royals(_) => "royal",
            Statement::Pass(..) => "players",
            Statement::Flip(f) => match f.node.which {
                Flip::Enclosed => "enclosed",
                Flip::Next => "enemy",
            },
            Statement::Drawing(_) => "pieces",
            Statement::MovedWall(_) => "after",
            Statement::Counting(_) => "counting",
            Statement::Worth(_) => "pieces",
            Statement::Bonus(_) => "players",
        }
    }

    /// The span that best names the statement: its name, mark or value.
    pub fn name_span(&self) -> Option<Span> {
        match self {
            Statement::Name(n) | Statement::Inventor(n) | Statement::Description(n) => Some(n.span),
            Statement::Board(b) => Some(b.span),
            Statement::Coordinates(c) => Some(c.span),
            Statement::Player(p) => Some(p.name.span),
            Statement::Option(o) => Some(o.name.span),
            Statement::Tag(t) => Some(t.mark.span),
            Statement::Piece(p) => Some(p.name.span),
            Statement::Zone(z) => Some(z.name.span),
            Statement::Castling(c) => Some(c.span),
            Statement::Hand(h) => Some(h.span),
            Statement::Fen(s)
            | Statement::Sfen(s)
            | Statement::Pdn(s)
            | Statement::MovedWall(s) => Some(s.span),
            Statement::Obligation(o) => Some(o.span),
            Statement::Royals(r) => Some(r.span),
            Statement::Pass(p, _) => Some(p.span),
            Statement::Flip(f) => Some(f.span),
            Statement::Drawing(n) => Some(n.span),
            Statement::Worth(v) | Statement::Bonus(v) => v.first().map(|(n, _)| n.span),
            Statement::Explode(e) => Some(e.span),
            Statement::Counterstrike(c) => Some(c.span),
            Statement::Drops(d) => Some(d.span),
            Statement::Gates(z, _) => Some(z.span),
            Statement::Clock(c, _) => Some(c.span),
            Statement::Counting(c) => Some(c.span),
            Statement::Holes(_) | Statement::Extra(_) | Statement::Setup(_) | Statement::End(_) => {
                None
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum BoardShape {
    Square {
        width: Spanned<u32>,
        height: Spanned<u32>,
    },
    Hexagon {
        side: Spanned<u32>,
        pointy: bool,
    },
    Parallelogram {
        width: Spanned<u32>,
        height: Spanned<u32>,
        pointy: bool,
        /// The compass name the slanting sides run along.
        lean: Name,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerDecl {
    pub name: Name,
    pub forward: Option<Name>,
    pub capitals: Option<Spanned<bool>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OptionDecl {
    pub name: Name,
    pub default: bool,
    pub about: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TagDecl {
    pub mark: Spanned<char>,
    pub about: Option<String>,
    pub once_per_game: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PieceDecl {
    pub name: Name,
    pub code: Name,
    pub items: Vec<PieceItem>,
}

#[derive(Clone, Debug)]
pub struct PieceItem {
    pub guard: Option<Guard>,
    pub kind: PieceItemKind,
    pub span: Span,
}

impl PartialEq for PieceItem {
    fn eq(&self, other: &Self) -> bool {
        let PieceItem {
            guard,
            kind,
            span: _,
        } = self;
        (guard, kind) == (&other.guard, &other.kind)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum PieceItemKind {
    Move(MoveDecl),
    CapturedOnlyBy(Vec<Name>),
    /// `captured by KINDS from afar only when undefended, unless the move also captures
    /// a piece other than KINDS`.
    GuardedCapture {
        by: Vec<Name>,
        unless: Vec<Name>,
    },
    NotAttacked,
    /// `may not face enemy KIND on an open file`.
    Facing(Name),
    Royal,
    /// `in check, only captures the lone checking piece`.
    CheckBound,
    MovesAs(Vec<Name>),
    Promotion(PromotionDecl),
    NoDrop(NoDrop),
    Drawn(Drawn),
    /// What the piece's move leaves behind: a wall.
    Walling(WallingDecl),
}

/// Where a move's wall goes, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum WallingDecl {
    /// `then places a wall where it was`.
    Left,
    /// `then places a wall on any empty cell`, narrowed to the cells a piece of the kind
    /// `reach` names could move to, `except` these cells.
    Placed {
        reach: Option<Name>,
        except: Vec<Name>,
    },
    /// `turns into a wall when it captures`.
    Capturing,
}

/// How a piece is drawn: `drawn as SET "text" or ...` or `drawn from "file" or ...`.
#[derive(Clone, Debug, PartialEq)]
pub enum Drawn {
    /// A set's name (the file's set when `None`) and the texts it draws (none, one, or
    /// one per player).
    As(Option<Name>, Vec<Name>),
    /// Picture files beside the variant file: one, or one per player.
    From(Vec<Name>),
}

/// A restriction on dropping a piece from hand.
#[derive(Clone, Debug, PartialEq)]
pub enum NoDrop {
    /// Not on a file (line along forward) holding one of the player's pieces of a kind.
    /// Not on a file holding this many (1 if not given) of the player's pieces of a kind.
    FileWith(Name, Option<Spanned<u32>>),
    /// Not on a cell a piece of the player of this kind attacks.
    AttackedBy(Name),
    /// Not giving check.
    Check,
    /// Not giving checkmate.
    Checkmate,
    /// Not on a cell of the zone.
    InZone(Name),
    /// Only on cells of the zone.
    OutsideZone(Name),
    /// Only where it encloses a line of enemy pieces.
    Enclosing,
    /// On the zone while a cell of it is empty.
    FirstOn(Name),
}

/// When a move may promote: bits of [`PromotionDecl::when`].
pub mod promote_when {
    /// Starts in the zone.
    pub const FROM: u8 = 1;
    /// Ends in the zone.
    pub const INTO: u8 = 2;
    /// Passes a cell of the zone.
    pub const THROUGH: u8 = 4;
    /// Ends in the zone, not having started there.
    pub const ENTERING: u8 = 8;
    /// Only a capture (with `FROM`, `INTO`, `THROUGH` saying where).
    pub const CAPTURING: u8 = 16;
    /// A move of its own, made by a piece standing in the zone.
    pub const STANDING: u8 = 32;
}

/// `[may] promote(s) on entering ZONE to CHOICE`.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionDecl {
    pub optional: bool,
    /// Only to kinds the player has fewer of on the board than the setup gives it.
    pub lost_only: bool,
    /// `, at most N KIND`: not to the kind while the player has N of it on the board.
    pub most: Vec<(Spanned<u32>, Name)>,
    /// Forced where the piece could never move again.
    pub forced_if_stuck: bool,
    /// `, at once`, where it says so.
    pub at_once: Option<Spanned<()>>,
    /// `or anywhere as the last of its kind`.
    pub alone: bool,
    /// `, giving no check and attacking no enemy`.
    pub quiet: bool,
    /// Bits of [`promote_when`].
    pub when: u8,
    pub zone: Name,
    /// Empty: any non-royal piece.
    pub to: Vec<Name>,
    /// `for PLAYER`: that player's promotion only.
    pub player: Option<Name>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Step,
    Leap,
    Slide,
}

/// How many single steps a leg takes: `min..=max` (`max` None: no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    pub min: u32,
    pub max: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveDecl {
    pub legs: Vec<LegDecl>,
    pub clauses: Vec<Spanned<Clause>>,
}

#[derive(Clone, Debug)]
pub struct LegDecl {
    pub mode: Option<Spanned<Mode>>,
    pub count: Option<Spanned<Count>>,
    pub direct: bool,
    pub directions: Spanned<DirectionsDecl>,
    pub span: Span,
}

impl PartialEq for LegDecl {
    fn eq(&self, other: &Self) -> bool {
        let LegDecl {
            mode,
            count,
            direct,
            directions,
            span: _,
        } = self;
        (mode, count, direct, directions)
            == (&other.mode, &other.count, &other.direct, &other.directions)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DirectionsDecl {
    pub include: Vec<Spanned<DirTerm>>,
    pub except: Vec<Spanned<DirTerm>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qualifier {
    StraightForward,
    StraightBackward,
    Forward,
    Backward,
    Sideways,
    Outward,
    Left,
    Right,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DirBase {
    Orthogonal,
    Diagonal,
    Any,
    Compass(Name),
}

#[derive(Clone, Debug, PartialEq)]
pub struct DirTerm {
    pub qualifiers: Vec<Spanned<Qualifier>>,
    pub base: DirBase,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Destination {
    Empty,
    Enemy(Option<Name>),
    /// `to start`: the move ends where it started.
    Start,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Clause {
    Destination(Destination),
    Tagged(Spanned<char>),
    /// `end not [diagonally] adjacent to start`; true for diagonal adjacency.
    EndNotAdjacent(bool),
    /// `each new cell [diagonally] adjacent only to the cell just left`.
    TrailAdjacent(bool),
    NeverReversing,
    /// `from start [except cells]` (true) or `from cells` (false).
    From {
        start: bool,
        cells: Vec<Name>,
    },
    EnPassant(Vec<Name>),
    EqualLegs,
    /// `repeated`: the move made again and again along its line.
    Repeated,
    /// `from ZONE`.
    FromZone(Name),
    /// `over N pieces [except KINDS]`, `over 1 enemy`.
    Over {
        count: Spanned<u32>,
        side: Holder,
        except: Vec<Name>,
    },
    /// `capturing the piece jumped`, and whether `at once`.
    CapturingJumped {
        at_once: bool,
    },
    /// `again while it can`, and whether `, never turning back`.
    Again {
        turning_back: bool,
    },
    /// `landing right behind`.
    RightBehind,
    /// `within ZONE`.
    Within(Name),
    /// `outside castle`; with `landing`, the move may pass the zone.
    Outside(Name, bool),
    /// `leaving a copy`.
    Copy,
    /// `not from ...`: a `From` or `FromZone` clause turned round.
    NotFrom(Box<Clause>),
    /// `unless an enemy is 1 step forward orthogonal` (`present` false) or
    /// `only if ...` (true).
    Nearby {
        present: bool,
        holder: Holder,
        steps: Spanned<u32>,
        directions: Spanned<DirectionsDecl>,
    },
}

/// Whose piece a `nearby` clause looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    Enemy,
    Friend,
    Piece,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SetupDecl {
    Diagram(Spanned<String>),
    Placements(Vec<Placement>),
    Random(RandomDecl),
}

/// `setup random { Player: pieces on cells ... [mirrored] [redraw while ...] }`
#[derive(Clone, Debug, PartialEq)]
pub struct RandomDecl {
    pub pools: Vec<Pool>,
    /// `mirrored`, with its guard if any.
    pub mirrored: Option<Option<Guard>>,
    /// Conditions for drawing again.
    pub redraw: Vec<Redraw>,
}

/// A condition under which a random setup is drawn again.
#[derive(Clone, Debug, PartialEq)]
pub struct Redraw {
    /// `unless`: drawn again while the condition fails.
    pub unless: bool,
    pub condition: Spanned<super::end::Condition>,
}

#[derive(Clone, Debug)]
pub struct Pool {
    pub player: Name,
    pub pieces: Vec<(u32, Name)>,
    pub cells: Vec<Name>,
    pub span: Span,
}

impl PartialEq for CastlingDecl {
    fn eq(&self, other: &Self) -> bool {
        let CastlingDecl {
            player,
            parts,
            anywhere,
            empty,
            safe,
            aimed,
            span: _,
        } = self;
        (player, parts, anywhere, empty, safe, aimed)
            == (
                &other.player,
                &other.parts,
                &other.anywhere,
                &other.empty,
                &other.safe,
                &other.aimed,
            )
    }
}

impl PartialEq for Pool {
    fn eq(&self, other: &Self) -> bool {
        let Pool {
            player,
            pieces,
            cells,
            span: _,
        } = self;
        (player, pieces, cells) == (&other.player, &other.pieces, &other.cells)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub player: Name,
    pub pieces: Vec<(Name, Vec<Name>)>,
    /// Pieces in hand at the start: (how many, piece).
    pub hand: Vec<(Spanned<u32>, Name)>,
}

/// When a player with several royal pieces is in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoyalCheck {
    /// `together`: when every one is attacked.
    Together,
    /// `only when alone`: never while it has two or more.
    Alone,
}
