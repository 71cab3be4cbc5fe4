//! A deliberately simple reference move generator, used only by the tests to
//! cross-check the fast runtime.
//!
//! It works straight from the checked [`Variant`]: every move is found by walking
//! every path a pattern allows, one single step at a time, on lattice points. Nothing
//! is precomputed and nothing is shared with the compiler or the runtime; direction
//! sets, adjacency and angles are all re-derived here from the board's direction
//! table. It is meant to be obviously right, not fast.
//!
//! The meaning implemented (the language's definition):
//!
//! 1. A leg's directions are the union of its `include` terms minus the union of its
//!    `except` terms. A term is its base (a kind, all directions, or one compass
//!    direction) filtered by each qualifier in turn, comparing bearings with the
//!    smaller angle `a` between them: relative to the player's forward, Forward
//!    `a < 90`, Backward `a > 90`, Sideways `a == 90`, StraightForward `a == 0`,
//!    StraightBackward `a == 180`, Right `0 < a < 180` turning clockwise from forward,
//!    Left the same turning anticlockwise; Outward is relative to the last single step taken
//!    before the leg starts, `0 < a < 90`. A missing reference empties the term. The
//!    set is computed once, when the leg starts.
//! 2. Leg `i` takes `k` single steps, `min <= k <= max`; a `direct` leg keeps one
//!    direction, otherwise each step picks any direction of the set.
//! 3. A step of a non-leap leg must land on a board cell; a leap leg may leave the
//!    board, but a direct leap leg stops extending once its point has left the
//!    board's bounding box.
//! 4. `never reversing`: no step is opposite (bearing + 180) to an earlier step.
//! 5. `trail`: each new point differs from every earlier point of the path and is
//!    adjacent (by the trail's kind) to none of them but the one just left.
//! 6. The end is a board cell, not the start, and not adjacent to the start by any
//!    kind of `end_not_adjacent`.
//! 7. Landing points of non-leap steps, the final point excepted, must be empty (the
//!    mover's start cell counts as empty); one such path is enough.
//! 8. Destination contents: empty needs `to empty` or either; never an own piece; an
//!    enemy needs `to enemy` or either, a matching `target`, and the mover allowed by
//!    the victim's holding `captured only by` entries (all of them).
//! 9. Patterns and rules apply only when their guard holds.
//! 10. A once-per-game tag may not be used again by the same player and piece kind.
//! 11. A piece with a holding `not attacked` may not end where, after the move, an
//!     enemy piece could capture it (by 1-10).
//! 12. Moves are (from, to, tag), each counted once; players alternate in order.
//! 13. The game ends by the first holding end rule whose whole condition holds after
//!     a move. Single conditions: a capture of the named kind (by the named kind);
//!     the next side without a legal move (with a royal piece attacked for
//!     checkmate, none for stalemate); `in check`, a royal piece of the next side
//!     attacked (as for checkmate). `A and B` holds when each part holds, `A or B`
//!     when one does, `not A` when A does not. Repetitions, quiet moves and counts
//!     are not tracked here: those single conditions never hold (so `not` of one
//!     always does). A capture by enclosure is a capture too (70).
//!
//! The chess family's rules:
//!
//! 14. A pattern with initial cells applies only from them: the listed cells, or the
//!     cells where the setup places the mover's own pieces of this kind, less the
//!     exceptions.
//! 15. `legs of equal length`: every leg of the path takes the same number of steps.
//! 16. A move of a pattern with `en passant by` kinds records the cells its path
//!     passed (the landing points of its steps before the end) and where it ended.
//!     On the very next move only, a piece of those kinds whose `to enemy` pattern
//!     reaches one of these cells, empty, captures the piece that passed them.
//! 17. A piece's promotions in force are its holding ones naming its player, or,
//!     where there are none, its holding ones naming no player. A move promotes when
//!     one of them applies to it: from outside its player's zone to inside it, the
//!     move becomes one move per kind it may become (the list, or every kind that is
//!     not royal and not its own), plus the plain move when optional. Every one of
//!     them offers the same, so what is offered is taken from any that applies.
//!     (The shogi family generalises 17: see 20.)
//! 18. A castling move is possible while its right holds, its pieces stand on their
//!     start cells, its `empty` cells hold nothing but its own pieces, and with its
//!     first piece set on each `safe` cell in turn no enemy move reaches that cell.
//!     Its right is lost once a move starts or ends on any of its start cells
//!     (and see 54, 57 and 60).
//! 19. No move may end with a royal piece of the mover where an enemy move (by 1-10
//!     and 14-15) could capture it; a piece that promotes counts as its new kind.
//!
//! The shogi family's rules:
//!
//! 20. A promotion applies, by its `when` bits, to a move that starts in the zone
//!     (from), ends in it (into), has a cell strictly between its ends on the straight
//!     line joining them in the zone (through; leaps pass nothing), or ends in it
//!     without starting there (entering); with `capturing`, only a move that captures
//!     (on its end, or in passing). An optional promotion with `forced where it
//!     could never move again` is forced when the piece, alone on the board at its
//!     destination, would have no move.
//! 21. With hands, a captured piece goes to the captor's hand as the piece whose code
//!     is its own without a leading `+` (or as itself). A drop is a move (cell, cell,
//!     no tag, the kind): any kind in the mover's hand onto any empty cell, except:
//!     where it would have no move alone on the board (with `never dropped where they
//!     could never move`); on a file (the cells reached stepping straight forward or
//!     backward) holding the mover's piece of a `file with own` kind (with `with N own`,
//!     N such pieces); on a cell one of
//!     the mover's pieces of an `own ... attacks` kind could capture an enemy on; where
//!     it attacks an enemy royal piece (`giving check`), or does so leaving the enemy
//!     no legal move (`giving checkmate`); and where the mover's royal piece stays
//!     attacked.
//!
//! The xiangqi family's rules:
//!
//! 22. A pattern with a hurdle: its passed cells (rule 7's landing points, the start
//!     excepted) need not be empty; exactly `count` of them hold a piece, none of an
//!     `except` kind; with `right_behind` the one holding a piece is the last of them.
//! 23. `within ZONE`: the start, every passed cell and the end are cells of the
//!     mover's zone. `from ZONE` (an initial zone): the start is.
//! 24. No move, drop or castling may end with a piece of a holding `facing` rule and an
//!     enemy piece of the kind named on one file of the first piece's owner (rule 21's
//!     file), every cell between them empty.
//! 25. With `players may pass`, passing is a move (cell, cell, no tag, no kind) on the
//!     cell of the mover's lowest-numbered royal piece (or lowest-numbered piece),
//!     not while a royal piece of the mover is attacked when `except in check`. Once
//!     every player has passed in a row, nobody has a move; `every player passed`
//!     matches then.
//!
//! Obligations and ends about a player:
//!
//! 26. Obligations: first every move of a kind written `KIND are forbidden` is
//!     refused; then, for each kind written `KIND are compulsory`, in the order
//!     written, when some legal move left is of the kind, only such moves stay. A
//!     move is a capture when it takes a piece (standing on its end, or in passing),
//!     a drop when it brings a piece from hand, a check when after it a royal piece
//!     of another player could be captured (by 19 or 34), a promotion when it
//!     names a kind to become and is not a drop.
//! 27. An end event about a player is asked of the player who just moved, then of
//!     the others in turn; the first for whom it holds is the player it names (the
//!     outcome's `that player`): `A or B extinct` holds when the player has, on the
//!     board and in hand, no piece of one of the kinds; `a player has ...` when the player has from the least to the most
//!     number of pieces of the kinds (`pieces`: every kind; `royal pieces`: royal
//!     under the options; `non-royal pieces`: the others; or the kinds named) in the
//!     place (on the board and in hand; `on the board`; `in hand`; `in ZONE`: on
//!     the cells of the zone listed for that player; `on one colour` and `between
//!     two KIND`: 36; `connected to ZONE`: 72; `in a fort on ZONE`: 86), and with
//!     `only` none of another kind there: `a player has no pieces` (none at all), `a
//!     player has only royal pieces` (one or more, and no other), `a player has fewer
//!     than 3 King` (0 to 2); with a state (37), only the
//!     pieces in it are there; written with a player's name (`White has ...`), it is
//!     asked of that player only, with `the player to move` of that player only, and
//!     with `every player` it holds when it holds for each player and names the
//!     player who just moved; `can` (41) holds only for the player to move; `checks
//!     given` when the player's count (28) is at least the number. In a condition,
//!     `not A` names no player, `A and B` the first player named by its parts, `A
//!     or B` the one named by its first part that holds. Such events, `board full`
//!     and `in check` hold or not from the position alone, so a rule made only of
//!     them ends the game in such a position whatever the last move was, and
//!     [`perft`] counts nothing below it.
//! 28. In a game with a `checks given` condition, each move after which the next
//!     player has a royal piece attacked counts one check for the player who made it.
//!
//! Hands, drops and promotion marks:
//!
//! 29. Hands also hold the setup's `in hand` pieces at the start; drops are open then
//!     even when captures do not go to hand. A drop is also refused on a cell of the
//!     mover's part of a `no drop on` zone, and off the mover's part of a `drop only
//!     on` zone.
//! 30. When captures go to hand (without `promoted ones unchanged`), a piece a move
//!     promotes to a kind whose code has no `+` (and which is not its own unpromoted
//!     form, turned back) is marked; the mark moves with it, and
//!     captured, a marked piece goes to hand as the first declared kind one of whose
//!     promotions in force for the piece's player (17) can make it.
//!
//! Standoffs and points:
//!
//! 31. A holding end rule `A facing enemy B on an open file` makes a standoff of a
//!     position where a piece of kind A and an enemy piece of kind B stand on one
//!     file of A's owner (rule 21's file) with every cell between them empty. In a
//!     standoff the player to move may pass even in check (with `players may pass`),
//!     and no other move may leave a standoff of that rule; when the last move was a
//!     pass and the position is a standoff, nobody has a move and the rule matches.
//! 32. `more points win`: each player's points are the sum over its pieces, on the
//!     board and in hand, of their kind's worth, plus the player's own points; the
//!     one player with the most wins, and equal most points draw. `fewer points win`:
//!     the one player with the fewest wins, and equal fewest points draw.
//!
//! Explosions:
//!
//! 33. With `captures explode`, a move that captures (on its end, or in passing)
//!     also removes the capturing piece, unless the kind it ends as is spared, and
//!     every piece on the cells one step from the move's end in any of the board's
//!     directions, unless its kind is spared (`except KINDS`) or spared around
//!     (`except KINDS around`). Removed pieces go to no hand; a castling whose start
//!     cell loses its piece so is lost.
//! 34. With explosions, rule 19 reads: a move may not remove a royal piece of the
//!     mover; a move that removes a royal piece of another player is legal; else no
//!     royal piece of the mover may be left where an enemy move could capture it,
//!     not counting a capture that would remove (by 33) a royal piece of the
//!     capturer's own player. A castling's `safe` cell next to an enemy royal piece
//!     is not tested.
//!
//! Checks, colours, lines and states:
//!
//! 35. `checks are forbidden` is an obligation of 26.
//! 36. `on one colour` counts the player's board pieces on the cells of each colour
//!     of the board apart (two on squares, three on hexagons) and holds when the
//!     count of some one colour fits (with `only`, none of another kind on it);
//!     `between two KIND` counts the player's board pieces that lie strictly between
//!     two of the player's pieces of KIND on a straight line of the plane (collinear
//!     lattice points, one on either side).
//! 37. A board piece is `attacked` when a piece of another player could capture it
//!     (by 1-10), `defended` when another piece of its own player could capture (by
//!     1-10) on its cell were a piece of its kind of another player there;
//!     `unattacked` and `undefended` are their opposites. A piece in hand is neither
//!     attacked nor defended.
//!
//! Repeated moves:
//!
//! 38. A `repeated` pattern's path, once accepted, is made again from its end with the
//!     same steps, again and again, while the making before ended on an empty cell:
//!     each new end is a destination (by 6-8), the ends before it counting as passed
//!     cells; a making whose step leg leaves the board, or whose end could not end the
//!     move by 6, stops the repetition.
//!
//! Checks answered by capture:
//!
//! 39. A piece that is `in check, only captures the lone checking piece` (holding),
//!     while a royal piece of its player is attacked, has as legal moves only those
//!     that end on the one cell from which enemy pieces attack the royal pieces; none
//!     when pieces on several cells attack them.
//!
//! Promotion to lost kinds:
//!
//! 40. A promotion with `only to kinds the player has lost` makes its piece only a
//!     kind of which the mover has fewer pieces on the board than the setup (fixed
//!     and drawn) gives it; with no such kind a forced promotion leaves no move.
//! 41. `P can capture a STATE KINDS` holds when P is the player to move and one of
//!     its legal moves captures, on its end or in passing, a piece of the
//!     kinds in the state (37) before the move; `P can move a STATE KINDS into ZONE`
//!     when one of its legal moves leaves a piece of the mover's of the kinds (its
//!     kind after any promotion) on a cell of the mover's part of the zone that the
//!     move brought it to: the move's end, a castling piece's end, or a gate's cell
//!     (rule 61); its state, on which the language is silent, is judged before the
//!     move, where it stood (a piece from hand: 37). Without `into`, anywhere on the
//!     board.
//! 42. A promotion's `at most N KIND` leaves out that kind while the mover has N
//!     pieces of it on the board.
//! 43. With `royal pieces are in check together`, rule 19 (and 34, 35) asks whether
//!     every royal piece of the player could be captured, not any one: a move may
//!     leave some of them attacked. With `royal pieces are in check only when
//!     alone`, rule 19 holds only for a player with one royal piece before the move
//!     (a promotion to a second one does not lift it).
//!
//! Placing and flipping:
//!
//! 44. A pattern with `leaving a copy` makes no move of its piece: its destinations
//!     (by 1-10) are copies, one move per destination cell and kind however many
//!     pieces reach it, listed as a drop of the kind there; a copy puts a new piece
//!     of the mover's on the cell (capturing what stands there) and takes nothing
//!     from a hand.
//! 45. With `enclosed enemy pieces change sides`, after a move or drop, along each
//!     direction from the cell where the piece landed, an unbroken line of pieces of
//!     one enemy followed by a piece of the mover becomes the mover's. With `enemy
//!     pieces next to where a piece lands change sides`, every enemy piece one step
//!     from that cell becomes the mover's. A pass changes nothing. Only the piece
//!     that landed encloses (see 70 for captures and narrowings).
//! 46. `drop only where it encloses enemy pieces` refuses a drop that would turn no
//!     line by 45's first rule (as 70 narrows it); `drop first on ZONE` refuses a
//!     drop off the mover's part of the zone while a cell of it is empty, and while it
//!     is, the enclosing rule does not apply.
//! 47. With `players may pass, only when they cannot move`, the pass is a legal move
//!     only when the player has no other.
//! 48. `board full` matches when every cell holds a piece; `more pieces win` counts
//!     each player's pieces on the board, the one player with the most winning and
//!     equal most drawing.
//!
//! Walls:
//!
//! 49. A wall is a cell that blocks every path as a piece does, on which no move ends
//!     and no piece is dropped, for the rest of the game. A move of a piece whose
//!     first holding wall rule says so becomes one move per cell its wall may go to,
//!     judged on the board as the move left it (none: the move is not made):
//!     `then places a wall where it was` the cell the piece left; `then places a wall
//!     on any empty cell` every empty cell but the listed ones; with `it reaches
//!     moving as KIND`, only those of them that a KIND of the mover's standing on the
//!     piece's new cell reaches by a holding pattern allowing an empty end (rule 7 on
//!     that board, rule 14 from that cell). A pass leaves no wall.
//! 50. `after each move, the mover moves the wall to another empty cell` gives every
//!     piece that wall rule: its wall may go to every cell empty on the board as the
//!     move left it, the old wall still standing; once it is placed, the old wall
//!     is gone.
//! 51. `turns into a wall when it captures`: a move of that piece that takes a piece
//!     (fewer enemy pieces on the board after it) ends with the piece gone and a wall
//!     on its destination; its other moves leave no wall.
//!
//! Mates judged by their checks:
//!
//! 52. A check by a kind: a piece of that kind, of another player, could capture a
//!     royal piece of the player in check (by 1-10). `checkmate given only by KINDS`
//!     is a checkmate (13) in which every check is by one of the kinds.
//! 53. A player's run is the list of its moves in a row, the last one first, each of
//!     which left the next player in check; a move that leaves the next player out of
//!     check empties it. At the start the player before the first to move has a run
//!     of the one check standing, if the first to move is in check. `checkmate without
//!     a check by KINDS in its run` is a checkmate (13) where no check of the mover's
//!     run was by one of the kinds.
//!
//! Castlings and drops:
//!
//! 54. A castling `lost when an enemy KIND aims at CELL` is also lost when another
//!     player's piece of that kind stands, after a move, on the move's destination,
//!     and from there, alone on the board with a piece of the castling's player on
//!     CELL, could capture it.
//! 55. `captured pieces go to hand, dropped either side up`: a piece in hand may also
//!     be dropped as any kind whose unpromoted form it is, with that kind's drop rules.
//!
//! Counts of moves to a draw (two players; pieces counted on the board only):
//!
//! 56. A `counting` line holds for a player when: with `only royal pieces` the player
//!     has pieces, all royal, otherwise one that is not; its condition after `once`
//!     holds of the board (by 27, `that player` being the player); the other player
//!     has a piece that is not
//!     royal; and one of its limits applies (the first: `against N KIND` when the
//!     other player has at least N pieces of the kind, or no `against`), giving twice
//!     its moves in plies. The count is none or (limit, plies counted). After a move:
//!     a running count goes on one ply; if an `only royal` line `from the pieces`
//!     holds for the mover and did not before the move, the first such starts,
//!     counting twice the pieces on the board less one; then, if no count runs, or an
//!     `only royal` line holds for the player to move and did not before the move,
//!     the first line holding for the player to move starts, counting none (twice
//!     the pieces on the board, `from the pieces`). `count ran out` holds once more
//!     plies are counted than the limit. The caller carries the count
//!     ([`next_count`]); [`play`] ignores it.
//!
//! Castling from wherever the pieces start:
//!
//! 57. A castling `from anywhere on their line` does not use its `empty` and `safe`
//!     lists. A piece's path is the cells after its start on the straight line of
//!     the castling's direction (single steps, either way) up to its destination,
//!     that included (none for a piece already there); its `empty` cells are both
//!     pieces' paths, its `safe` cells the first piece's start and path. Its move is
//!     written as the first piece's start and the second's. Instead of 18's loss, it
//!     is lost once a piece of its player and of the first piece's kind makes any
//!     move (this castling too), and once a move starts or ends on the second piece's
//!     start cell (or, by 33, that cell loses its piece).
//!
//! Rules on every drop:
//!
//! 58. `drops are compulsory` is an obligation of 26, asked of the moves of 1-57.
//! 59. With `drops keep each player's KINDS pieces on different colours`, a drop is
//!     refused when, after it, the mover's pieces of those kinds could not end with
//!     at most `ceil(n / colours)` on cells of each colour (`n` their count on the
//!     board and in hand, `colours` the board's: two on squares, three on hexagons),
//!     those on the board staying where they stand and each in hand going to its own
//!     empty cell that its kind's zone rules (29) and `never dropped where they could
//!     never move` (21) leave open.
//! 60. With `drops on castling starts give castling rights`, the setup gives a
//!     castling its right only when its pieces all stand on their start cells, and
//!     after a drop each castling whose pieces all stand on their start cells, one of
//!     them the cell dropped on, gains its right (lost again by 18 and 57).
//!
//! Gates:
//!
//! 61. With `pieces in hand enter through gates on ZONE`, a player's open gates are
//!     cells of its part of the zone still holding the piece they held at the start
//!     (the position carries them; at the start, every such cell holding a piece of
//!     that player in the setup). Each legal move (by 1-60) that is neither a drop
//!     nor a pass and starts on an open gate of the mover is also made once for each
//!     kind in the mover's hand whose zone rules (29) allow a drop on its start: after
//!     the move, a piece of that kind leaves the hand for the start cell. A castling
//!     is so made for each of its pieces' start cells that is an open gate and that
//!     no piece of it ends on. Whether the move is legal is judged without the piece
//!     brought in. A move whose wall (49) goes on the gate's cell brings nothing.
//! 62. A gate closes once a move starts on it, ends on it or empties it (a castling:
//!     its pieces' start cells). Where captured pieces do not go to hand, all of a
//!     player's gates close once its hand is empty, at the start too.
//! 63. With `only`, pieces in hand are never dropped (21) otherwise.
//!
//! Promotion as a move of its own:
//!
//! 64. A promotion `on standing in ZONE` (in force, by 17) is a move of its own: a
//!     piece of the mover standing on a cell of its player's part of the zone becomes
//!     one of the kinds 17 names (less those 40 and 42 leave out), either where it
//!     stands, the move (cell, cell, no tag, the kind), or by a move of the new kind,
//!     standing on that cell, to an empty cell it reaches (by 1-10 and 14): (cell, to,
//!     the pattern's tag, the kind). None of the piece's other moves promotes (17 and
//!     20 do not apply). Such a move is legal by 11, 19, 24 and 31 judged on the board
//!     it leaves (the new kind on its cell), and it is not a drop (58).
//! 65. With `or anywhere as the last of its kind`, 64 also holds for a piece standing
//!     anywhere while the mover has no other piece of its kind on the board.
//! 66. A promotion (of any trigger) with `giving no check and attacking no enemy` is
//!     refused where, after the move, a piece of the mover could capture (by 1-10) a
//!     royal piece of another player, or the new piece could capture, from its cell,
//!     a piece of another player; a forced promotion so left with no kind is no move.
//! 67. `only promotions left` matches when the player to move has no royal piece
//!     attacked, has legal moves, and each of them promotes a piece: it names a kind
//!     and starts on a piece of the mover (drops and copies start on none). [`perft`]
//!     ignores it.
//!
//! Cells near the start and initial rules turned round:
//!
//! 68. A pattern with a nearby condition applies only when, of the cells exactly
//!     `steps` straight steps from the start along each of its directions (resolved
//!     as a first leg's are, by 1, with no previous step), none (`unless`) or at
//!     least one (`only if`) holds a piece of the holder's side: another player's
//!     (`an enemy`), the mover's (`a friend`), anyone's (`a piece`). A point off the
//!     board holds nothing, nor does a wall; the cells in between do not matter.
//! 69. `not from ...`: a pattern applies only from the cells from which its inner
//!     initial rule (14, 23) would not let it.
//!
//! Captures by enclosure (tafl) and moves that keep out of a zone:
//!
//! 70. With `... are captured` instead of `... change sides`, the pieces 45 acts on are
//!     taken off the board instead of turned; in a game with hands each goes to the
//!     mover's hand as a piece captured on a move's end does (21, 30). Clauses narrow
//!     45's first rule (turned or taken alike): `on KIND lines`, only the directions of
//!     that kind are looked along; `of one piece`, only lines of exactly one piece
//!     count; `empty cells in ZONE enclose too`, an empty cell of the mover's part of
//!     the zone closes a line as a piece of the mover does; `KINDS [in ZONE] only when
//!     enclosed on every side`, a guarded piece (of those kinds, and with a zone on its
//!     owner's part of it) keeps any line holding it from being acted on, and is itself
//!     acted on when it stands one step from the landing cell along one of those
//!     directions and every cell one step from it along each of them is on the board
//!     and holds a piece of the mover or is such an empty cell; `rows along the edge
//!     facing enemies too` adds rows along the board's edge (85). Everything is judged on
//!     the board as the landing left it (a wall standing before the move breaks a line;
//!     the move's own wall, by 49, comes after), and done at once. What a move
//!     captures, for `KIND captured (by KIND)` (13, `by` naming the kind that moved or
//!     was dropped) and for `N plies without capture`, is the piece on its end (or
//!     taken in passing) and every piece taken so; turned pieces are not captured. The
//!     reference does not count plies itself: [`captures`] tells the caller whether a
//!     move captured. Whether a move or drop may be made (11, 19, 21, 24, 31, 34, 44,
//!     64, 66) is judged on the board it leaves, its enclosure done (after its
//!     explosion, by 33); whether a piece is attacked still asks only whether an enemy
//!     could capture it on a move's end.
//! 71. `outside ZONE`: every passed cell (7, 22) and the end are off the mover's part
//!     of the zone; the start may be on it. `landing outside ZONE`: the end is.
//!
//! Surrounded pieces:
//!
//! 72. `connected to ZONE` (a place of 27) holds the player's board pieces from which
//!     a path of cells, each one orthogonal step (a direction of the board's
//!     orthogonal kind) from the one before, none holding another player's piece or a
//!     wall, reaches a cell of the player's part of the zone; the player's own pieces
//!     do not block it, and a piece standing on such a cell is there. Pieces in hand
//!     never are. (`in a fort on ZONE`, a place walled in by the player's own pieces:
//!     86.)
//!
//! Captures by jumping (draughts):
//!
//! 73. A hurdle's side (22): the pieces on the passed cells are all another player's
//!     (`over N enemy`; a wall is no one's), all the mover's (`friend`), or anyone's
//!     (`piece`). With `capturing the piece jumped` the move ends only on an empty
//!     cell and takes the pieces jumped, which must be another player's whatever the
//!     side (friends are never captured so) and each allowed by its holding `captured
//!     only by` (as in 8): one move per end and set of pieces jumped. Such a move is a
//!     capture (13, 26, 41), and in a game with hands each piece taken goes to hand as
//!     in 70; with explosions it blows up round its end (33).
//! 74. `again while it can`: after a capture by jumping of a pattern with `again`, the
//!     same piece goes on from where it landed with one of its own holding patterns
//!     with `again`, as long as one can be made; the whole chain is one move, from its
//!     start to its end, taking at most 32 pieces (a capture that would take more is
//!     not made). During the chain its start cell is empty and the pieces jumped stay
//!     on the board, blocking, and none may be jumped again; they go when the move
//!     ends (but see 76). A promotion (17, 20) is judged on the whole chain as one
//!     move, from its start to its end, whatever it crossed on the way (but see 78),
//!     and the chain's tag is its last capture's. Chains with the same start, end
//!     and set of pieces taken are one move (one per kind made, and see 87), whose
//!     tag is the least of theirs (none first): the language leaves it open.
//! 75. `captures are compulsory, taking the most pieces`: once 26 has kept only the
//!     captures, only those taking the most pieces stay: a capture by jumping takes
//!     as many as it jumped, any other capture one. (One preference of 87.)
//! 76. `capturing the piece jumped at once`: the pieces a link of a chain jumps leave
//!     the board as soon as it lands, not when the move ends; later links may pass
//!     over and land on their cells.
//! 77. `again while it can, never turning back`: the link after one made by such a
//!     pattern may not go straight opposite to it (antiparallel), a link's direction
//!     being the vector from the cell it left to the cell it landed on; any other
//!     turn is allowed.
//! 78. A promotion `, at once` (forced, to one kind): when, after a link, the first
//!     promotion in force (17) that applies (20) to a capture from the chain's start
//!     to the cell just landed on is one at once, the piece becomes its kind there and
//!     goes on with the new kind's patterns with `again`; the whole move then makes
//!     the kind the piece ends as.
//! 79. Of the links a piece may make from one cell over the same set of pieces (a
//!     flying king's landings), when some let the chain go on (another link can be
//!     made after it, by 74-78), only those are made; else any of them ends it.
//!
//! Moves in two steps (the Lion):
//!
//! 80. `to start` (6 turned round): the path's end is the start cell, which counts as
//!     empty (the piece has left it). Without a capture by jumping the move takes
//!     nothing: the piece's pass, which is no pass of 25 (a pass of `players may
//!     pass` it is only where the variant has one). With `capturing the piece
//!     jumped` it takes the pieces jumped and the piece stays.
//! 81. A capture by jumping with `to enemy` ends on another player's piece, one the
//!     mover may capture (8: `target`, `captured only by`), and takes it too; without
//!     `to enemy` (or `to start`) it ends on an empty cell.
//! 82. Moves with the same start, end, tag, pieces taken and kind made are one move
//!     (12 and 74): a Lion's pass is one move through whichever empty cell.
//! 83. `captured by KINDS from afar only when undefended` (holding, in the victim's
//!     piece): a move by a piece of KINDS that takes this piece standing on a cell
//!     not one step (in any direction of the board) from the move's start is refused
//!     when, on the board after the move (the mover, as the kind it moved as, standing
//!     on the victim's cell), a piece of the victim's owner could capture on that cell
//!     by 1-10 (a capture by jumping is no attack, as for check: the language calls
//!     a piece defended or attacked by such moves only): one on the board, or one of
//!     the other pieces the move took, put back alone on its cell. `, unless the move also captures a piece other than KINDS2`
//!     lifts it for a move that also takes another piece of a kind not in KINDS2.
//! 84. `after a K is captured by another kind, the next move captures one by another
//!     kind only on that cell`: a move by a piece (its kind before the move) not of
//!     the kinds, that takes pieces of the kinds of another player (on its end, on
//!     its way, in passing), leaves the cell of that capture struck (of two or more,
//!     the cell the move ends on); any other move leaves none. While a cell is
//!     struck, no piece not of the kinds may take a piece of the kinds on another
//!     cell. The position carries the struck cell (SFEN's third field).
//!
//! Shield walls and forts (Copenhagen Hnefatafl):
//!
//! 85. `rows along the edge facing enemies too` (a clause of 70): after a move or
//!     drop lands on cell `at`, for each direction `d` of the lines, the edge `d`
//!     runs along is one direction `e`: of the directions of the lines other than `d`
//!     and its opposite that lead off the board from `at` (a hole is off it too), the
//!     one standing most nearly square to `d`, with the smallest absolute dot product
//!     with `d` in the plane (on squares `dx*dx' + dy*dy'`; on hexagons the doubled
//!     lattice's axes weighted back as `Board::along` says: `3*dx*dx' + dy*dy'` for
//!     flat-topped cells, `dx*dx' + 3*dy*dy'` for pointy-topped ones), the first in
//!     the board's order of directions where two stand as square (with diagonal lines
//!     on a square board, south rather than south-east below a row along the first
//!     rank). With no such direction there is no row along `d`. The row is the longest
//!     run of pieces of one enemy on `at + d`, `at + 2d`, ..., each on a cell from
//!     which `e` leads off the board too. It is acted on when it holds two or more
//!     pieces, each with a piece of the mover on its cell `- e` (its front, straight
//!     away from the edge: only that one cell, never another cell away from the edge),
//!     and the cell just past it along `d` is on the board, has `e` leading off the
//!     board too and closes it as 70 says (a piece of the mover, or an empty cell of
//!     the `enclose too` zone). Its guarded pieces (70's `only when enclosed on every
//!     side`) stay and the others are acted on; a row of guarded pieces only is not
//!     acted on. These rows add to 45's lines (narrowed by 70), all done at once.
//! 86. `in a fort on ZONE` (a place of 27) holds the player's board pieces on the
//!     player's part of the zone that are in a fort: the piece on cell `c` has an empty
//!     cell one orthogonal step (as in 72) away, and, the wall being at first every
//!     cell holding another piece of the player's and the inside the cells reached
//!     from `c` (itself included) by orthogonal steps through no cell of the wall and
//!     no wall (49), round after round every piece of the wall that could be captured
//!     leaves it at once and the inside is found again, until none could; then no
//!     piece of another player stands inside. A wall piece could be captured when,
//!     along some line of the enclosure statement (one of its directions and the
//!     opposite one, each kept once), both cells next to it are on the board, and
//!     neither is inside, in the wall or a wall (49). With no enclosure statement that
//!     captures, none could.
//!
//! Preferences among compulsory captures (Italian, Spanish and Czech draughts):
//!
//! 87. `captures are compulsory, PREFERENCE, then PREFERENCE ...`: once 26 has kept
//!     only the captures (and only then), each preference in turn keeps, of the
//!     captures left, those it ranks best. The pieces a capture takes, in the order it
//!     takes them: a capture by jumping's, link after link (the pieces one link jumps
//!     nearest its start first; as in 75, not the piece a capture of 81 lands on); any
//!     other capture takes one, the piece on its end or the one it takes in passing (a
//!     capture by enclosure alone takes none of any kind). A piece's kind is the one it
//!     has when the move starts. `taking the most pieces` is 75. `taking the most
//!     KINDS`: the most pieces of the kinds taken. `by a KINDS`: when some capture is
//!     made by a piece of the kinds (the mover's kind when the move starts; a drop's,
//!     the kind dropped), only those. `taking KINDS earliest`: each capture's order
//!     becomes a row of yes and no (a piece of the kinds taken at that place or not),
//!     the shorter rows filled out with no; the captures with the greatest row, yes
//!     above no, first place first, stay. Chains of 74 with the same start, end, set of
//!     pieces taken and kind made, whose orders give different rows for some `earliest`
//!     preference of the game's compulsory captures, are different moves (each with the
//!     least tag of its own); chains whose rows are all the same are one.
#![allow(dead_code)]

use std::collections::BTreeSet;

use variantlab::variant::{
    Board, Cell, Count, Dest, DirBase, DirExpr, DirTerm, Event, Holder, Initial, Kind, NoDrop,
    Pattern, PieceId, PlayerId, Promotion, TagId, Variant, Walling, holds,
};

/// What stands on each cell.
type Cells = [Option<(PlayerId, PieceId)>];

use variantlab::variant::{
    Condition, Kinds, MoveKind, Outcome, Owner, Place, Qualifier, RoyalCheck,
};

/// A lattice point, possibly off the board.
type Point = (i32, i32);

/// A move: from, to, the tag of the pattern that made it, and the kind the piece
/// becomes. A castling move is its first piece's move.
pub type Move = (Cell, Cell, Option<TagId>, Option<PieceId>);

/// The cells of the pieces a capture by jumping takes, sorted (rule 73); empty for
/// any other move.
pub type Jumped = Vec<Cell>;

/// The piece a move brings in through a gate (rule 61): its kind and the cell.
pub type Gate = Option<(PieceId, Cell)>;

/// What stands on a wall's cell while moves are walked: it blocks, it is no one's.
const WALL: Option<(PlayerId, PieceId)> = Some((NO_ONE, PieceId(0)));

/// The owner of a wall's cell: no player.
const NO_ONE: PlayerId = PlayerId(u8::MAX);

/// Cells just passed, the cell of the piece that passed them, and who may take it.
pub type Passing = (Vec<Cell>, Cell, Vec<PieceId>);

/// A position: what stands on each cell, who moves, which once-per-game tags each
/// player has used with which piece kind, the castling moves still allowed, and what
/// may be taken in passing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simple {
    pub cells: Vec<Option<(PlayerId, PieceId)>>,
    pub to_move: PlayerId,
    pub used: Vec<(PlayerId, PieceId, TagId)>,
    pub castling: Vec<usize>,
    pub passing: Option<Passing>,
    /// Pieces in hand, one entry each, sorted.
    pub hands: Vec<(PlayerId, PieceId)>,
    /// How many of the last moves in a row were passes.
    pub passes: u8,
    /// Checks given, by player (rule 28; missing entries: none).
    pub checks: Vec<u8>,
    /// Cells of marked (promoted) pieces, sorted.
    pub promoted: Vec<Cell>,
    /// Walled-off cells, sorted (rule 49).
    pub walls: Vec<Cell>,
    /// By player: the kinds that checked in its run (rule 53; missing entries: none).
    pub runs: Vec<BTreeSet<PieceId>>,
    /// Open gates, sorted, each the gate of the player whose piece stands on it
    /// (rule 61).
    pub gates: Vec<Cell>,
    /// The cell where the last move, by a piece of another kind, captured a piece of
    /// the counter-strike rule's kinds (rule 84).
    pub struck: Option<Cell>,
}

impl Simple {
    /// Pieces on cells, `to_move` to move, and nothing else: no hands, rights, walls,
    /// passes, checks or marks.
    pub fn bare(cells: Vec<Option<(PlayerId, PieceId)>>, to_move: PlayerId) -> Simple {
        Simple {
            cells,
            to_move,
            used: vec![],
            castling: vec![],
            passing: None,
            hands: vec![],
            passes: 0,
            checks: vec![],
            promoted: vec![],
            walls: vec![],
            runs: vec![],
            gates: vec![],
            struck: None,
        }
    }
}

/// The setup position, the first player to move.
pub fn start(v: &Variant) -> Simple {
    let mut cells = vec![None; v.board.len()];
    for p in &v.setup {
        cells[p.cell.index()] = Some((p.player, p.piece));
    }
    // Rule 60: with rights gained by drops, only castlings in place start with one.
    let castling = (0..v.castlings.len())
        .filter(|&i| !v.drops.castling || in_place(&cells, &v.castlings[i]))
        .collect();
    let mut pos = Simple {
        cells,
        to_move: PlayerId(0),
        used: Vec::new(),
        castling,
        passing: None,
        hands: {
            let mut h = v.start_hands.clone();
            h.sort();
            h
        },
        passes: 0,
        checks: Vec::new(),
        promoted: Vec::new(),
        walls: Vec::new(),
        runs: Vec::new(),
        gates: Vec::new(),
        struck: None,
    };
    // Rule 61.
    if let Some(g) = v.gates {
        pos.gates = v
            .board
            .cells()
            .filter(|c| {
                pos.cells[c.index()]
                    .is_some_and(|(p, _)| v.zones[g.zone].cells[p.0 as usize].contains(c))
            })
            .collect();
    }
    close_empty_handed(v, &mut pos);
    pos
}

/// Rule 62: where captured pieces do not go to hand, the gates of a player with an
/// empty hand are closed.
fn close_empty_handed(v: &Variant, pos: &mut Simple) {
    if v.hand.is_some() {
        return;
    }
    let cells = &pos.cells;
    let hands = &pos.hands;
    pos.gates
        .retain(|c| cells[c.index()].is_some_and(|(p, _)| hands.iter().any(|(q, _)| *q == p)));
}

/// Rule 19: whether a royal piece of the player to move could be captured.
pub fn in_check(v: &Variant, options: &[bool], pos: &Simple) -> bool {
    royal_attacked(v, options, &pos.cells, &pos.used, pos.to_move)
}

/// Rule 53: `start` with the run of the check standing in it, for the player before
/// the first to move.
pub fn start_runs(v: &Variant, options: &[bool], pos: &Simple) -> Simple {
    let mut pos = pos.clone();
    let n = v.players.len();
    pos.runs = vec![BTreeSet::new(); n];
    let before = (pos.to_move.0 as usize + n - 1) % n;
    pos.runs[before] = checking_kinds(v, options, &pos.cells, &pos.used, pos.to_move);
    pos
}

/// Rule 52: the kinds of the pieces giving check to `player`.
fn checking_kinds(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    player: PlayerId,
) -> BTreeSet<PieceId> {
    let mut kinds = BTreeSet::new();
    for r in v.board.cells() {
        if !matches!(cells[r.index()], Some((p, k)) if p == player && royal(v, options, k)) {
            continue;
        }
        for a in v.board.cells() {
            if let Some((q, k)) = cells[a.index()]
                && q != player
                && q != NO_ONE
                && piece_moves(v, options, cells, used, a)
                    .iter()
                    .any(|(to, _)| *to == r)
            {
                kinds.insert(k);
            }
        }
    }
    kinds
}

/// Rule 53: after `mover`'s move, its run grows by the move's check or empties.
fn extend_run(v: &Variant, options: &[bool], next: &mut Simple, mover: PlayerId) {
    let keeps = v
        .end_rules
        .iter()
        .flat_map(|r| r.condition.events())
        .any(|e| matches!(e, Event::CheckmateRunWithout(_)));
    if !keeps {
        return;
    }
    next.runs.resize(v.players.len(), BTreeSet::new());
    let kinds = checking_kinds(v, options, &next.cells, &next.used, next.to_move);
    if royal_attacked(v, options, &next.cells, &next.used, next.to_move) {
        next.runs[mover.0 as usize].extend(kinds);
    } else {
        next.runs[mover.0 as usize].clear();
    }
}

/// Every legal move of the side to move, sorted, each once, with the pieces it takes
/// by jumping (rule 73) and the wall it leaves (rule 49).
pub fn walled_moves(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
) -> Vec<(Move, Jumped, Option<Cell>)> {
    let mut blocked = pos.clone();
    for w in &pos.walls {
        blocked.cells[w.index()] = WALL;
    }
    let mut out = Vec::new();
    for (mv, jumped) in unwalled_moves(v, options, &blocked) {
        let (from, to, _, promotion) = mv;
        if pos.walls.contains(&to) {
            continue;
        }
        // A chain of captures may end where it started (rule 74).
        let in_place = from == to && jumped.is_empty();
        let pass = in_place && promotion.is_none();
        let kind = match pos.cells[from.index()] {
            _ if in_place => promotion,
            Some((_, k)) => Some(k),
            None => None,
        };
        let rule = kind.and_then(|k| {
            v.piece(k)
                .walling
                .iter()
                .find(|(g, _)| holds(*g, options))
                .map(|(_, w)| w.clone())
        });
        let Some(rule) = rule.filter(|_| !pass) else {
            out.push((mv, jumped, None));
            continue;
        };
        let mut after = play_judged(v, options, pos, mv, &jumped, None, None, Judge::Not).0;
        for w in &pos.walls {
            after.cells[w.index()] = WALL;
        }
        let empty = |c: &Cell| after.cells[c.index()].is_none();
        let enemies = |cells: &[Option<(PlayerId, PieceId)>]| {
            let mine = |p: PlayerId| p == pos.to_move || p == NO_ONE;
            cells.iter().flatten().filter(|(p, _)| !mine(*p)).count()
        };
        if rule == Walling::Capturing && enemies(&after.cells) == enemies(&pos.cells) {
            out.push((mv, jumped, None));
            continue;
        }
        let walls: BTreeSet<Cell> = match rule {
            Walling::Left => [from]
                .into_iter()
                .filter(|c| *c != to && empty(c))
                .collect(),
            Walling::Placed {
                reach: None,
                except,
            } => v
                .board
                .cells()
                .filter(|c| empty(c) && !except.contains(c))
                .collect(),
            Walling::Moved => v.board.cells().filter(empty).collect(),
            Walling::Capturing => [to].into_iter().collect(),
            Walling::Placed {
                reach: Some(k),
                except,
            } => v
                .piece(k)
                .moves
                .iter()
                .filter(|p| {
                    holds(p.guard, options)
                        && p.dest != Dest::Enemy
                        && starts_here(v, p, pos.to_move, k, to)
                })
                .flat_map(|p| reach(v, p, pos.to_move, &after.cells, to))
                .filter(|c| empty(c) && !except.contains(c))
                .collect(),
        };
        out.extend(walls.into_iter().map(|w| (mv, jumped.clone(), Some(w))));
    }
    out
}

/// Every legal move of the side to move, with the wall it leaves (rule 49) and the
/// piece it brings in (rule 61); moves that differ only in the pieces they take by
/// jumping are listed once for each ([`jumping_moves`] tells them apart).
pub fn gated_moves(v: &Variant, options: &[bool], pos: &Simple) -> Vec<(Move, Option<Cell>, Gate)> {
    jumping_moves(v, options, pos)
        .into_iter()
        .map(|(mv, _, wall, gate)| (mv, wall, gate))
        .collect()
}

/// Every legal move of the side to move, each once, with the pieces it takes by
/// jumping (rule 73), the wall it leaves (rule 49) and the piece it brings in (rule 61).
pub fn jumping_moves(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
) -> Vec<(Move, Jumped, Option<Cell>, Gate)> {
    let me = pos.to_move;
    let kinds = held_kinds(pos, me);
    let mut out = Vec::new();
    for (mv, jumped, wall) in walled_moves(v, options, pos) {
        out.push((mv, jumped.clone(), wall, None));
        let (from, to, _, _) = mv;
        if v.gates.is_none() || (from == to && jumped.is_empty()) {
            continue;
        }
        let starts: Vec<Cell> = match castling_of(v, pos, mv) {
            Some(i) => {
                let c = &v.castlings[i];
                c.parts
                    .iter()
                    .map(|(_, f, _)| *f)
                    .filter(|f| !c.parts.iter().any(|(_, _, t)| t == f))
                    .collect()
            }
            None => vec![from],
        };
        for cell in starts {
            if !pos.gates.contains(&cell) || wall == Some(cell) {
                continue;
            }
            for &k in &kinds {
                if zones_allow(v, options, me, k, cell) {
                    out.push((mv, jumped.clone(), wall, Some((k, cell))));
                }
            }
        }
    }
    out
}

/// Rule 29: whether `kind`'s `no drop on` and `drop only on` zones let `me` drop it
/// on `cell`.
fn zones_allow(v: &Variant, options: &[bool], me: PlayerId, kind: PieceId, cell: Cell) -> bool {
    v.piece(kind)
        .no_drop
        .iter()
        .filter(|(g, _)| holds(*g, options))
        .all(|(_, r)| match *r {
            NoDrop::InZone(z) => !v.zones[z].cells[me.0 as usize].contains(&cell),
            NoDrop::OutsideZone(z) => v.zones[z].cells[me.0 as usize].contains(&cell),
            _ => true,
        })
}

/// The castling a move of the side to move makes, if any (its right held, its first
/// piece moving as the castling is written).
fn castling_of(v: &Variant, pos: &Simple, (from, to, _, _): Move) -> Option<usize> {
    let (player, kind) = pos.cells[from.index()]?;
    pos.castling.iter().copied().find(|&i| {
        let c = &v.castlings[i];
        c.player == player && c.parts[0].0 == kind && castle_written(c) == (from, to)
    })
}

/// Every legal move of the side to move, sorted, each once, whatever wall it leaves
/// and whatever piece it brings in.
pub fn legal_moves(v: &Variant, options: &[bool], pos: &Simple) -> Vec<Move> {
    let mut moves: Vec<Move> = walled_moves(v, options, pos)
        .into_iter()
        .map(|(m, _, _)| m)
        .collect();
    moves.dedup();
    moves
}

/// Rules 1-40 (and 73-75, 87) on a position whose walls stand on its cells as
/// [`WALL`].
fn unwalled_moves(v: &Variant, options: &[bool], pos: &Simple) -> Vec<(Move, Jumped)> {
    // Until the preferences are applied (rule 87), a capture by jumping carries the
    // pieces it takes in the order it takes them, once for each order.
    let mut all: BTreeSet<(Move, Jumped)> = BTreeSet::new();
    if pos.passes as usize >= v.players.len() {
        return vec![];
    }
    let standoff = standoff(v, options, &pos.cells);
    if standoff && pos.passes > 0 {
        return vec![];
    }
    let mut pass = None;
    if let Some(except_in_check) = v.pass
        && !(except_in_check
            && !standoff
            && royal_attacked(v, options, &pos.cells, &pos.used, pos.to_move))
    {
        let mine = |royal_only: bool| {
            v.board.cells().find(|c| {
                matches!(pos.cells[c.index()], Some((p, k)) if p == pos.to_move
                    && (!royal_only || royal(v, options, k)))
            })
        };
        if let Some(c) = mine(true).or_else(|| mine(false)) {
            pass = Some((c, c, None, None));
        }
    }
    if let Some(m) = pass.filter(|_| !v.pass_if_stuck) {
        all.insert((m, vec![]));
    }
    for from in v.board.cells() {
        let Some((player, kind)) = pos.cells[from.index()] else {
            continue;
        };
        if player != pos.to_move {
            continue;
        }
        let must_not_be_attacked = v
            .piece(kind)
            .not_attacked
            .iter()
            .any(|g| holds(*g, options));
        let plain: Vec<(Cell, Option<TagId>)> =
            moves_of(v, options, &pos.cells, &pos.used, from, |p| !p.copy);
        // Rule 44.
        for (to, _) in moves_of(v, options, &pos.cells, &pos.used, from, |p| p.copy) {
            let mut after = pos.cells.clone();
            after[to.index()] = Some((player, kind));
            let after = enclosed_board(v, options, &after, player, to);
            if !royal_attacked(v, options, &after, &pos.used, player) && !faces(v, options, &after)
            {
                all.insert(((to, to, None, Some(kind)), vec![]));
            }
        }
        let victim = pos.passing.as_ref().map(|(_, c, _)| *c);
        // Each way to an end: the cells it takes besides the end (by jumping: in the
        // order taken), whether it takes them by jumping, and the kind a chain made at
        // once (rule 78).
        type Way = (Cell, Option<TagId>, Vec<Cell>, bool, Option<PieceId>);
        // A move a plain pattern also makes is played as that one, taking nothing in
        // passing.
        let passing: Vec<Way> = in_passing(v, options, pos, from)
            .into_iter()
            .filter(|m| !plain.contains(m))
            .map(|(to, tag)| (to, tag, victim.into_iter().collect(), false, None))
            .collect();
        let jumping = chains(v, options, &pos.cells, &pos.used, from)
            .into_iter()
            .map(|(to, tag, taken, _, made)| (to, tag, taken, true, made));
        let plain = plain
            .into_iter()
            .map(|(to, tag)| (to, tag, vec![], false, None));
        for (to, tag, taken, by_jumping, made) in plain.chain(passing).chain(jumping) {
            let jumped: Jumped = if by_jumping { taken.clone() } else { vec![] };
            let moved = after_move(&pos.cells, from, to, &taken);
            // Rule 70: judged on the board the move leaves, its enclosure done.
            let after = enclosed_board(v, options, &moved, player, to);
            if must_not_be_attacked && attacked(v, options, &after, &pos.used, to, player) {
                continue;
            }
            // The pieces the move takes, where they stand: those on its way, then the
            // one on its end (none when it ends on its start: rule 80).
            let victims: Vec<(Cell, PieceId)> = taken
                .iter()
                .copied()
                .chain((to != from).then_some(to))
                .filter_map(|c| match pos.cells[c.index()] {
                    Some((p, k)) if p != player && p != NO_ONE => Some((c, k)),
                    _ => None,
                })
                .collect();
            // Rules 83 and 84.
            if !struck_allows(v, pos, kind, &victims)
                || !guards_allow(v, options, pos, from, kind, &after, &victims)
            {
                continue;
            }
            let takes = !victims.is_empty();
            // Rules 74 and 78: a chain promotes as one move from its start to its end,
            // or to the kind it made at once.
            let ends: Vec<Option<PieceId>> = match made {
                Some(k) => vec![Some(k)],
                None => promotions(v, options, &pos.cells, player, kind, from, to, takes),
            };
            if v.explosion.is_some() && takes {
                // Rule 34, for every kind it may become.
                for promotion in ends {
                    let mut a = moved.clone();
                    if let Some(k) = promotion {
                        a[to.index()] = Some((player, k));
                    }
                    if takes {
                        blast(v, &mut a, to);
                    }
                    // As a move is played: the explosion, then the enclosure.
                    let a = enclosed_board(v, options, &a, player, to);
                    // Rule 66.
                    let loud =
                        promotion.is_some() && loud(v, options, player, kind, &a, &pos.used, to);
                    if !exposed_exploding(v, options, &pos.cells, &a, &pos.used, player)
                        && !faces(v, options, &a)
                        && !loud
                    {
                        all.insert(((from, to, tag, promotion), jumped.clone()));
                    }
                }
                continue;
            }
            for promotion in ends {
                // Rule 19 judges the board with the new kind: a piece promoted to a
                // royal kind may not stand attacked.
                let mut a = after.clone();
                if let Some(k) = promotion {
                    a[to.index()] = Some((player, k));
                }
                if left_attacked(v, options, &pos.cells, &a, &pos.used, player)
                    || faces(v, options, &a)
                    || standoff && self::standoff(v, options, &a)
                {
                    continue;
                }
                if promotion.is_some() && loud(v, options, player, kind, &a, &pos.used, to) {
                    continue;
                }
                all.insert(((from, to, tag, promotion), jumped.clone()));
            }
        }
        // Rule 64.
        for (to, tag, k) in standing(v, options, pos, from) {
            let mut after = pos.cells.clone();
            after[from.index()] = None;
            after[to.index()] = Some((player, k));
            let after = enclosed_board(v, options, &after, player, to);
            let guarded = v.piece(k).not_attacked.iter().any(|g| holds(*g, options));
            if (guarded && attacked(v, options, &after, &pos.used, to, player))
                || left_attacked(v, options, &pos.cells, &after, &pos.used, player)
                || faces(v, options, &after)
                || (standoff && self::standoff(v, options, &after))
                || loud(v, options, player, kind, &after, &pos.used, to)
            {
                continue;
            }
            all.insert(((from, to, tag, Some(k)), vec![]));
        }
    }
    for i in castlings_open(v, options, pos) {
        let (from, to) = castle_written(&v.castlings[i]);
        all.insert(((from, to, None, None), vec![]));
    }
    let dropped: BTreeSet<Move> = drops(v, options, pos)
        .into_iter()
        .map(|(cell, kind)| (cell, cell, None, Some(kind)))
        .collect();
    all.extend(dropped.iter().map(|m| (*m, vec![])));
    let bound = |k: PieceId| {
        v.pieces[k.0 as usize]
            .check_bound
            .iter()
            .any(|g| holds(*g, options))
    };
    if v.pieces
        .iter()
        .enumerate()
        .any(|(k, _)| bound(PieceId(k as u8)))
    {
        // Rule 39.
        let checkers: BTreeSet<Cell> = v
            .board
            .cells()
            .filter(|&a| {
                matches!(pos.cells[a.index()], Some((p, _)) if p != pos.to_move)
                    && piece_moves(v, options, &pos.cells, &pos.used, a)
                        .iter()
                        .any(|(to, _)| {
                            matches!(pos.cells[to.index()], Some((p, k))
                                if p == pos.to_move && royal(v, options, k))
                        })
            })
            .collect();
        if !checkers.is_empty() {
            all.retain(|&((from, to, _, _), _)| {
                let Some((_, k)) = pos.cells[from.index()] else {
                    return true;
                };
                !bound(k) || (checkers.len() == 1 && checkers.contains(&to))
            });
        }
    }
    // Rule 26.
    let of = |(m, jumped): &(Move, Jumped), kind: MoveKind| match kind {
        // Rules 70 and 73: captures by enclosure and by jumping are captures.
        MoveKind::Capture => {
            !jumped.is_empty()
                || takes(v, options, pos, *m)
                || v.enclosure.as_ref().is_some_and(|e| e.captures)
                    && captures(v, options, pos, *m, None, None)
        }
        MoveKind::Drop => dropped.contains(m),
        MoveKind::Promotion => m.3.is_some() && !dropped.contains(m),
        MoveKind::Check => {
            let (next, _) = play_judged(v, options, pos, *m, jumped, None, None, Judge::Not);
            (0..v.players.len())
                .map(|q| PlayerId(q as u8))
                .any(|q| q != pos.to_move && royal_attacked(v, options, &next.cells, &next.used, q))
        }
    };
    for o in v.obligations.iter().filter(|o| !o.compulsory) {
        all.retain(|m| !of(m, o.kind));
    }
    for o in v.obligations.iter().filter(|o| o.compulsory) {
        if all.iter().any(|m| of(m, o.kind)) {
            all.retain(|m| of(m, o.kind));
            // Rule 87.
            for p in o.prefer.iter().map(|p| preference(p.how, p.kinds)) {
                prefer(v, options, pos, &mut all, p);
            }
        }
    }
    if all.is_empty()
        && let Some(m) = pass
    {
        // Rule 47.
        all.insert((m, vec![]));
    }
    // Each move once, its pieces jumped sorted, whatever order it takes them in.
    let all: BTreeSet<(Move, Jumped)> = all
        .into_iter()
        .map(|(m, mut jumped)| {
            jumped.sort();
            (m, jumped)
        })
        .collect();
    all.into_iter().collect()
}

/// A preference among compulsory captures (rule 87), with the kinds it names as a bit
/// per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Preferred {
    /// `taking the most pieces` (every kind: rule 75) or `taking the most KINDS`.
    Most(u64),
    /// `by a KINDS`.
    By(u64),
    /// `taking KINDS earliest`.
    Earliest(u64),
}

/// Rule 87: a preference as the model gives it.
fn preference(how: variantlab::variant::Preferring, kinds: u64) -> Preferred {
    use variantlab::variant::Preferring;
    match how {
        Preferring::Most => Preferred::Most(kinds),
        Preferring::By => Preferred::By(kinds),
        Preferring::Earliest => Preferred::Earliest(kinds),
    }
}

/// Rule 87: whether `kind` is one of `kinds` (a bit per kind).
fn among(kinds: u64, kind: PieceId) -> bool {
    kind.0 < 64 && kinds >> kind.0 & 1 == 1
}

/// Rule 87: the kinds of each `taking KINDS earliest` preference of the compulsory
/// captures.
fn earliest_kinds(v: &Variant) -> Vec<u64> {
    v.obligations
        .iter()
        .filter(|o| o.compulsory && o.kind == MoveKind::Capture)
        .flat_map(|o| &o.prefer)
        .filter_map(|p| match preference(p.how, p.kinds) {
            Preferred::Earliest(kinds) => Some(kinds),
            _ => None,
        })
        .collect()
}

/// Rule 87: for each place of `order` (cells of pieces taken, on `cells` as the move
/// starts), whether the piece there is of `kinds`.
fn places(cells: &Cells, order: &[Cell], kinds: u64) -> Vec<bool> {
    order
        .iter()
        .map(|c| cells[c.index()].is_some_and(|(_, k)| among(kinds, k)))
        .collect()
}

/// Rule 87: the cells of the pieces a capture takes, in the order it takes them:
/// those it jumps, as [`unwalled_moves`] carries them, else the piece on its end or
/// the one it takes in passing (none for a capture by enclosure alone).
fn taken_in_order(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    (m, jumped): &(Move, Jumped),
) -> Vec<Cell> {
    if !jumped.is_empty() {
        return jumped.clone();
    }
    let (from, to, tag, _) = *m;
    if from == to {
        return vec![];
    }
    if pos.cells[to.index()].is_some_and(|(p, _)| p != pos.to_move && p != NO_ONE) {
        return vec![to];
    }
    match &pos.passing {
        Some((_, victim, _)) if in_passing(v, options, pos, from).contains(&(to, tag)) => {
            vec![*victim]
        }
        _ => vec![],
    }
}

/// Rule 87: keeps, of the captures in `all` (each capture by jumping with its pieces
/// in the order taken), those `p` ranks best.
fn prefer(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    all: &mut BTreeSet<(Move, Jumped)>,
    p: Preferred,
) {
    let kinds_taken = |m: &(Move, Jumped)| -> Vec<PieceId> {
        taken_in_order(v, options, pos, m)
            .into_iter()
            .filter_map(|c| pos.cells[c.index()].map(|(_, k)| k))
            .collect()
    };
    match p {
        // Rule 75.
        Preferred::Most(u64::MAX) => {
            let taking = |(_, jumped): &(Move, Jumped)| jumped.len().max(1);
            let most = all.iter().map(taking).max().unwrap_or(0);
            all.retain(|m| taking(m) == most);
        }
        Preferred::Most(kinds) => {
            let taking = |m: &(Move, Jumped)| {
                let taken = kinds_taken(m);
                taken.iter().filter(|k| among(kinds, **k)).count()
            };
            let most = all.iter().map(taking).max().unwrap_or(0);
            all.retain(|m| taking(m) == most);
        }
        Preferred::By(kinds) => {
            // The mover's kind as the move starts; a drop's, the kind dropped.
            let by = |((from, _, _, made), _): &(Move, Jumped)| {
                pos.cells[from.index()]
                    .map(|(_, k)| k)
                    .or(*made)
                    .is_some_and(|k| among(kinds, k))
            };
            if all.iter().any(by) {
                all.retain(by);
            }
        }
        Preferred::Earliest(kinds) => {
            let row = |m: &(Move, Jumped)| -> Vec<bool> {
                kinds_taken(m).iter().map(|k| among(kinds, *k)).collect()
            };
            let longest = all.iter().map(|m| row(m).len()).max().unwrap_or(0);
            let filled = |m: &(Move, Jumped)| {
                let mut r = row(m);
                r.resize(longest, false);
                r
            };
            let best = all.iter().map(filled).max().unwrap_or_default();
            all.retain(|m| filled(m) == best);
        }
    }
}

/// Rule 84: whether a move by a piece of `kind`, taking `victims`, may be made after
/// the last move struck a piece of the counter-strike kinds on `pos.struck`.
fn struck_allows(v: &Variant, pos: &Simple, kind: PieceId, victims: &[(Cell, PieceId)]) -> bool {
    let of_set = |k: PieceId| v.counterstrike & (1u64 << k.0) != 0;
    let Some(struck) = pos.struck else {
        return true;
    };
    of_set(kind) || victims.iter().all(|(c, k)| !of_set(*k) || *c == struck)
}

/// Rule 84: the cell the counter-strike rule holds after a move by a piece of `kind`
/// that turned the board `before` into `after`, ending on `to`.
fn struck_after(
    v: &Variant,
    before: &Cells,
    after: &Cells,
    mover: PlayerId,
    kind: PieceId,
    to: Cell,
) -> Option<Cell> {
    let of_set = |k: PieceId| v.counterstrike & (1u64 << k.0) != 0;
    if v.counterstrike == 0 || of_set(kind) {
        return None;
    }
    // A piece of the kinds another player had, gone from its cell or replaced there
    // by the piece that moved.
    let hit: Vec<Cell> = v
        .board
        .cells()
        .filter(|c| {
            matches!(before[c.index()], Some((p, k)) if p != mover && p != NO_ONE && of_set(k))
                && (after[c.index()].is_none() || *c == to)
        })
        .collect();
    match hit[..] {
        [] => None,
        [c] => Some(c),
        _ => Some(to),
    }
}

/// Rule 83: whether the piece on `from`, of `kind`, may take `victims`, leaving the
/// board `after`: none of them is held by a `captured by ... from afar only when
/// undefended` rule that forbids it.
fn guards_allow(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    from: Cell,
    kind: PieceId,
    after: &Cells,
    victims: &[(Cell, PieceId)],
) -> bool {
    let a = v.board.point(from);
    victims.iter().all(|&(at, victim)| {
        let near = at == from || adjacent_any(&v.board, a, v.board.point(at));
        let held = v.piece(victim).guarded.iter().any(|g| {
            holds(g.guard, options)
                && g.by.contains(&kind)
                && !near
                && !g.other_than.as_ref().is_some_and(|spared| {
                    // A bridge: another piece taken, of a kind not spared.
                    victims
                        .iter()
                        .any(|&(c, k)| c != at && !spared.contains(&k))
                })
        });
        !held || !defended_after(v, options, pos, from, kind, after, victims, at)
    })
}

/// Whether two points are one step apart in some direction of the board.
fn adjacent_any(board: &Board, a: Point, b: Point) -> bool {
    board
        .directions()
        .iter()
        .any(|d| (a.0 + d.dx, a.1 + d.dy) == b)
}

/// Rule 83: whether, on the board `after` a move by the piece on `from` (of `kind`)
/// taking `victims`, a piece of the owner of the one taken on `at` could capture on
/// `at`, the mover standing there: a piece on the board, or one of the others the move
/// took, as if it stood on its cell again (alone: the board is otherwise `after`).
#[allow(clippy::too_many_arguments)]
fn defended_after(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    from: Cell,
    kind: PieceId,
    after: &Cells,
    victims: &[(Cell, PieceId)],
    at: Cell,
) -> bool {
    let (mover, _) = pos.cells[from.index()].expect("a piece moves");
    let (owner, _) = pos.cells[at.index()].expect("a piece is taken");
    let mut probe = after.to_vec();
    probe[at.index()] = Some((mover, kind));
    let on_board = v.board.cells().any(|c| {
        matches!(probe[c.index()], Some((p, _)) if p == owner)
            && captures_on(v, options, &probe, &pos.used, c, at)
    });
    on_board
        || victims.iter().any(|&(c, k)| {
            if c == at || pos.cells[c.index()].map(|(p, _)| p) != Some(owner) {
                return false;
            }
            let mut back = probe.clone();
            back[c.index()] = Some((owner, k));
            captures_on(v, options, &back, &pos.used, c, at)
        })
}

/// Whether the piece on `from` could capture what stands on `target` (rules 1-10: a
/// capture by jumping takes where it does not land, which no attack sees, as check
/// does not: section 16g).
fn captures_on(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    from: Cell,
    target: Cell,
) -> bool {
    piece_moves(v, options, cells, used, from)
        .iter()
        .any(|(to, _)| *to == target)
}

/// Rule 26: whether a legal move captures: an enemy stands on its end, or it is a
/// capture in passing of the piece that passed its end.
fn takes(v: &Variant, options: &[bool], pos: &Simple, (from, to, tag, _): Move) -> bool {
    if from == to {
        return false;
    }
    if pos.cells[to.index()].is_some_and(|(p, _)| p != pos.to_move) {
        return true;
    }
    pos.passing.is_some() && in_passing(v, options, pos, from).contains(&(to, tag))
}

/// Rule 28: in a game with a `checks given` rule, a move after which the next player's
/// royal piece is attacked counts one check for its player.
fn count_check(v: &Variant, options: &[bool], next: &mut Simple, mover: PlayerId) {
    let counts = v
        .end_rules
        .iter()
        .flat_map(|r| r.condition.events())
        .any(|e| matches!(e, Event::ChecksGiven(_)));
    if counts && royal_attacked(v, options, &next.cells, &next.used, next.to_move) {
        next.checks.resize(v.players.len(), 0);
        next.checks[mover.0 as usize] += 1;
    }
}

/// Rule 27: the player an end event about a player happens to, if any.
fn happens_to(v: &Variant, options: &[bool], next: &Simple, event: Event) -> Option<PlayerId> {
    let n = v.players.len();
    let mover = PlayerId(((next.to_move.0 as usize + n - 1) % n) as u8);
    let mut order = (0..n).map(|i| PlayerId(((mover.0 as usize + i) % n) as u8));
    let holds = |p: PlayerId| holds_for(v, options, next, event, p);
    let owner = match event {
        Event::Has { owner, .. } | Event::Can { owner, .. } => owner,
        _ => Owner::AnyPlayer,
    };
    match owner {
        Owner::AnyPlayer => order.find(|&p| holds(p)),
        Owner::Player(q) => holds(q).then_some(q),
        Owner::ToMove => holds(next.to_move).then_some(next.to_move),
        Owner::Every => order.all(holds).then_some(mover),
        Owner::That => None,
    }
}

/// Rule 27: whether an end event about a player holds for `p`.
fn holds_for(v: &Variant, options: &[bool], next: &Simple, event: Event, p: PlayerId) -> bool {
    // The player's pieces, on the board and in hand.
    let owned: Vec<PieceId> = next
        .cells
        .iter()
        .flatten()
        .chain(&next.hands)
        .filter(|(q, _)| *q == p)
        .map(|(_, k)| *k)
        .collect();
    match event {
        Event::Extinct(kinds) => (0..v.pieces.len())
            .any(|k| kinds & (1 << k) != 0 && !owned.iter().any(|j| j.0 as usize == k)),
        Event::Has {
            kinds,
            least,
            most,
            only,
            place,
            state,
            ..
        } => {
            let state = state.map(|s| stand(&s));
            let cells = walled(next);
            // The player's board pieces on the cells `keep` picks.
            let on = |keep: &dyn Fn(Cell) -> bool| -> Vec<(Option<Cell>, PieceId)> {
                v.board
                    .cells()
                    .filter(|c| keep(*c))
                    .filter_map(|c| match next.cells[c.index()] {
                        Some((q, k)) if q == p => Some((Some(c), k)),
                        _ => None,
                    })
                    .collect()
            };
            let in_hand = || -> Vec<(Option<Cell>, PieceId)> {
                next.hands
                    .iter()
                    .filter(|(q, _)| *q == p)
                    .map(|(_, k)| (None, *k))
                    .collect()
            };
            // Rule 36: `on one colour` judges each colour's cells apart.
            let groups: Vec<Vec<(Option<Cell>, PieceId)>> = match place {
                Place::Owned => vec![[on(&|_| true), in_hand()].concat()],
                Place::Board => vec![on(&|_| true)],
                Place::Hand => vec![in_hand()],
                Place::Zone(z) => {
                    let zone = &v.zones[z].cells[p.0 as usize];
                    vec![on(&|c| zone.contains(&c))]
                }
                Place::OneColour => (0..v.board.colours())
                    .map(|colour| on(&|c| v.board.colour(c) == colour))
                    .collect(),
                Place::Between(end) => vec![on(&|c| flanked(v, &next.cells, p, end, c))],
                // Rule 72.
                Place::Connected(z) => {
                    let reached = connected(v, &cells, p, z);
                    vec![on(&|c| reached.contains(&c))]
                }
                // Rule 86.
                Place::Fort(z) => {
                    let zone = &v.zones[z].cells[p.0 as usize];
                    let mine = |c: Cell| cells[c.index()].is_some_and(|(q, _)| q == p);
                    vec![on(&|c| {
                        zone.contains(&c) && mine(c) && in_fort(v, &cells, p, c)
                    })]
                }
            };
            groups.iter().any(|there| {
                // Rule 37: pieces in another state are not there.
                let there: Vec<PieceId> = there
                    .iter()
                    .filter(|(c, k)| {
                        state.is_none_or(|s| in_state(v, options, &cells, &next.used, *c, p, *k, s))
                    })
                    .map(|(_, k)| *k)
                    .collect();
                let counted = |k: &PieceId| of_kinds(v, options, kinds, *k);
                let count = there.iter().filter(|k| counted(k)).count() as u64;
                (least as u64..=most as u64).contains(&count)
                    && !(only && there.iter().any(|k| !counted(k)))
            })
        }
        Event::Can {
            capture,
            kinds,
            state,
            into,
            ..
        } => {
            let state = state.map(|s| stand(&s));
            p == next.to_move && can(v, options, next, capture, kinds, state, into)
        }
        Event::ChecksGiven(n) => next
            .checks
            .get(p.0 as usize)
            .is_some_and(|c| *c as u32 >= n),
        _ => false,
    }
}

/// Whether `kind` is one of `kinds`.
fn of_kinds(v: &Variant, options: &[bool], kinds: Kinds, kind: PieceId) -> bool {
    match kinds {
        Kinds::All => true,
        Kinds::Royal => royal(v, options, kind),
        Kinds::NonRoyal => !royal(v, options, kind),
        Kinds::Named(bits) => bits & (1 << kind.0) != 0,
    }
}

/// The position's cells with its walls standing on them as [`WALL`].
fn walled(pos: &Simple) -> Vec<Option<(PlayerId, PieceId)>> {
    let mut cells = pos.cells.clone();
    for w in &pos.walls {
        cells[w.index()] = WALL;
    }
    cells
}

/// A piece's state (rule 37).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Attacked,
    Unattacked,
    Defended,
    Undefended,
}

/// The model's state as [`State`]: the library names no type for it, and its words are
/// the language's.
fn stand(state: &impl std::fmt::Debug) -> State {
    match format!("{state:?}").as_str() {
        "Attacked" => State::Attacked,
        "Unattacked" => State::Unattacked,
        "Defended" => State::Defended,
        "Undefended" => State::Undefended,
        other => panic!("an unknown state {other}"),
    }
}

/// Rule 36: whether `cell` lies strictly between two of `p`'s pieces of kind `end` on
/// one straight line.
fn flanked(v: &Variant, cells: &Cells, p: PlayerId, end: PieceId, cell: Cell) -> bool {
    let m = v.board.point(cell);
    // Lattice points are an affine image of the plane: lines and order along them keep.
    let ends: Vec<Point> = v
        .board
        .cells()
        .filter(|c| cells[c.index()] == Some((p, end)))
        .map(|c| {
            let (x, y) = v.board.point(c);
            (x - m.0, y - m.1)
        })
        .collect();
    ends.iter().any(|a| {
        ends.iter().any(|b| {
            *a != (0, 0) && *b != (0, 0) && a.0 * b.1 == a.1 * b.0 && a.0 * b.0 + a.1 * b.1 < 0
        })
    })
}

/// Rule 72: the cells from which a path of orthogonal steps over cells holding no piece
/// of another player than `p` and no wall (`cells` shows the walls) reaches a cell of
/// `p`'s part of zone `z`; the path's cells, its ends included, are such cells.
fn connected(v: &Variant, cells: &Cells, p: PlayerId, z: usize) -> BTreeSet<Cell> {
    use variantlab::variant::Dir;
    let b = &v.board;
    let open = |c: Cell| cells[c.index()].is_none_or(|(q, _)| q == p);
    // Walk back from the zone: every open cell of it, then every open cell one
    // orthogonal step from a cell found, until nothing new is found.
    let mut found: BTreeSet<Cell> = v.zones[z].cells[p.0 as usize]
        .iter()
        .copied()
        .filter(|c| open(*c))
        .collect();
    let mut todo: Vec<Cell> = found.iter().copied().collect();
    while let Some(c) = todo.pop() {
        for d in 0..b.directions().len() {
            if b.directions()[d].kind != Kind::Orthogonal {
                continue;
            }
            if let Some(n) = b.at(b.shift(b.point(c), Dir(d as u8)))
                && open(n)
                && found.insert(n)
            {
                todo.push(n);
            }
        }
    }
    found
}

/// Rule 86: whether `p`'s piece on `at` is in a fort (`cells` shows the walls).
fn in_fort(v: &Variant, cells: &Cells, p: PlayerId, at: Cell) -> bool {
    let b = &v.board;
    let vector = |d: &variantlab::variant::Direction| (d.dx, d.dy);
    let step = |c: Cell, (dx, dy): Point| {
        let q = b.point(c);
        b.at((q.0 + dx, q.1 + dy))
    };
    let beside: Vec<Point> = b
        .directions()
        .iter()
        .filter(|d| d.kind == Kind::Orthogonal)
        .map(vector)
        .collect();
    // An empty cell beside it.
    if !beside
        .iter()
        .any(|&d| step(at, d).is_some_and(|n| cells[n.index()].is_none()))
    {
        return false;
    }
    // The lines along which a wall piece could be captured: each pair of opposite
    // directions of the enclosure statement's lines, once.
    let lines: Vec<Point> = match v.enclosure.as_ref().filter(|e| e.captures) {
        None => vec![],
        Some(e) => b
            .directions()
            .iter()
            .filter(|d| e.lines.is_none_or(|k| d.kind == k))
            .map(vector)
            .filter(|&(dx, dy)| (dx, dy) > (-dx, -dy))
            .collect(),
    };
    let mut wall: BTreeSet<Cell> = b
        .cells()
        .filter(|&c| c != at && cells[c.index()].is_some_and(|(q, _)| q == p))
        .collect();
    loop {
        // The inside: from `at`, orthogonal steps through no wall piece and no wall.
        let mut inside = BTreeSet::from([at]);
        let mut todo = vec![at];
        while let Some(c) = todo.pop() {
            for &d in &beside {
                if let Some(n) = step(c, d)
                    && !wall.contains(&n)
                    && cells[n.index()] != WALL
                    && inside.insert(n)
                {
                    todo.push(n);
                }
            }
        }
        // A cell on the board that protects a wall piece on neither side.
        let open = |c: Option<Cell>| {
            c.is_some_and(|c| {
                !inside.contains(&c) && !wall.contains(&c) && cells[c.index()] != WALL
            })
        };
        let weak: Vec<Cell> = wall
            .iter()
            .copied()
            .filter(|&w| {
                lines
                    .iter()
                    .any(|&(dx, dy)| open(step(w, (dx, dy))) && open(step(w, (-dx, -dy))))
            })
            .collect();
        if weak.is_empty() {
            return !inside
                .iter()
                .any(|c| cells[c.index()].is_some_and(|(q, _)| q != p && q != NO_ONE));
        }
        for w in weak {
            wall.remove(&w);
        }
    }
}

/// Rule 37: whether `owner`'s piece of `kind` at `cell` (`None`: in hand) is in the
/// state; `cells` shows the walls.
#[allow(clippy::too_many_arguments)]
fn in_state(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    cell: Option<Cell>,
    owner: PlayerId,
    kind: PieceId,
    state: State,
) -> bool {
    let Some(cell) = cell else {
        return matches!(state, State::Unattacked | State::Undefended);
    };
    match state {
        State::Attacked => attacked(v, options, cells, used, cell, owner),
        State::Unattacked => !attacked(v, options, cells, used, cell, owner),
        State::Defended => defended(v, options, cells, used, cell, owner, kind),
        State::Undefended => !defended(v, options, cells, used, cell, owner, kind),
    }
}

/// Rule 37: whether another piece of `owner`'s could capture on `cell` were a piece of
/// `kind` of another player there.
fn defended(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    cell: Cell,
    owner: PlayerId,
    kind: PieceId,
) -> bool {
    (0..v.players.len())
        .map(|q| PlayerId(q as u8))
        .filter(|&q| q != owner)
        .any(|enemy| {
            let mut there = cells.to_vec();
            there[cell.index()] = Some((enemy, kind));
            v.board.cells().any(|c| {
                matches!(there[c.index()], Some((q, _)) if q == owner)
                    && piece_moves(v, options, &there, used, c)
                        .iter()
                        .any(|(to, _)| *to == cell)
            })
        })
}

/// Rule 41: whether the player to move has a legal move that captures a piece of the
/// kinds in the state, or (`capture` false) brings one onto its part of the zone.
fn can(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    capture: bool,
    kinds: Kinds,
    state: Option<State>,
    into: Option<usize>,
) -> bool {
    let me = pos.to_move;
    let cells = walled(pos);
    let fits = |at: Option<Cell>, owner: PlayerId, k: PieceId| {
        of_kinds(v, options, kinds, k)
            && state.is_none_or(|s| in_state(v, options, &cells, &pos.used, at, owner, k, s))
    };
    let in_zone = |c: Cell| into.is_none_or(|z| v.zones[z].cells[me.0 as usize].contains(&c));
    let enemy = |c: Cell| pos.cells[c.index()].filter(|(q, _)| *q != me && *q != NO_ONE);
    jumping_moves(v, options, pos)
        .into_iter()
        .any(|(mv, jumped, wall, gate)| {
            let (from, to, _, _) = mv;
            let (next, _) = play_judged(v, options, pos, mv, &jumped, wall, gate, Judge::Not);
            // Rule 73: the pieces jumped, judged before the move.
            let jumped_fits = jumped.iter().any(|&c| {
                enemy(c).is_some_and(|(owner, k)| in_zone(to) && fits(Some(c), owner, k))
            });
            if capture && jumped_fits {
                return true;
            }
            if capture {
                // On its end, or in passing: the passed piece's cell emptied.
                let victim = match enemy(to) {
                    Some(_) => Some(to),
                    None => pos
                        .passing
                        .as_ref()
                        .map(|(_, c, _)| *c)
                        .filter(|c| enemy(*c).is_some() && next.cells[c.index()].is_none()),
                };
                return victim.is_some_and(|c| {
                    let (owner, k) = enemy(c).expect("an enemy piece");
                    in_zone(to) && fits(Some(c), owner, k)
                });
            }
            // Each piece the move brought to a cell, and where it stood before.
            let mut brought: Vec<(Cell, Option<Cell>)> = match castling_of(v, pos, mv) {
                Some(i) if from != to => v.castlings[i]
                    .parts
                    .iter()
                    .map(|(_, f, t)| (*t, Some(*f)))
                    .collect(),
                // A pass or a promotion in place brings nothing; a drop or copy comes
                // from no cell.
                _ if from == to && pos.cells[from.index()].is_some_and(|(q, _)| q == me) => {
                    vec![]
                }
                _ if from == to => vec![(to, None)],
                _ => vec![(to, Some(from))],
            };
            brought.extend(gate.map(|(_, c)| (c, None)));
            brought.into_iter().any(|(t, stood)| {
                let before = stood.and_then(|c| pos.cells[c.index()]).map(|(_, k)| k);
                Some(t) != stood
                    && in_zone(t)
                    && next.cells[t.index()].is_some_and(|(q, k)| {
                        q == me
                            && of_kinds(v, options, kinds, k)
                            && state.is_none_or(|s| {
                                in_state(
                                    v,
                                    options,
                                    &cells,
                                    &pos.used,
                                    stood,
                                    me,
                                    before.unwrap_or(k),
                                    s,
                                )
                            })
                    })
            })
        })
}

/// Rule 21: the drops open now, as (cell, kind).
fn drops(v: &Variant, options: &[bool], pos: &Simple) -> Vec<(Cell, PieceId)> {
    if v.hand.is_none() && v.start_hands.is_empty() {
        return vec![];
    }
    if v.gates.is_some_and(|g| g.only) {
        // Rule 63.
        return vec![];
    }
    let mobile_only = v.hand.is_some_and(|h| h.mobile_only);
    let me = pos.to_move;
    let kinds = held_kinds(pos, me);
    // Rule 55: dropped either side up, a piece may land as a kind whose unpromoted
    // form it is.
    let either = v.hand.is_some_and(|h| h.either_side);
    let landings: Vec<(PieceId, PieceId)> = kinds
        .iter()
        .flat_map(|&held| {
            std::iter::once((held, held)).chain(
                (0..v.pieces.len())
                    .map(|j| PieceId(j as u8))
                    .filter(move |&j| either && j != held && v.piece(j).demotes_to == Some(held))
                    .map(move |j| (held, j)),
            )
        })
        .collect();
    let mut out = Vec::new();
    for (held, kind) in landings {
        let rules: Vec<NoDrop> = v
            .piece(kind)
            .no_drop
            .iter()
            .filter(|(g, _)| holds(*g, options))
            .map(|(_, r)| *r)
            .collect();
        for cell in v.board.cells() {
            if pos.cells[cell.index()].is_some() {
                continue;
            }
            if mobile_only && alone_stuck(v, options, me, kind, cell) {
                continue;
            }
            let mut after = pos.cells.clone();
            after[cell.index()] = Some((me, kind));
            // Rule 70: judged on the board the drop leaves, its enclosure done.
            let landed = enclosed_board(v, options, &after, me, cell);
            if royal_attacked(v, options, &landed, &pos.used, me) || faces(v, options, &landed) {
                continue;
            }
            let mut next = pos.clone();
            next.cells = landed.clone();
            next.passing = None;
            next.to_move = PlayerId(((me.0 as usize + 1) % v.players.len()) as u8);
            let forbidden = rules.iter().any(|r| match *r {
                NoDrop::FileWith(k, n) => {
                    file(v, me, cell)
                        .iter()
                        .filter(|c| pos.cells[c.index()] == Some((me, k)))
                        .count()
                        >= n as usize
                }
                NoDrop::AttackedBy(k) => v.board.cells().any(|c| {
                    if pos.cells[c.index()] != Some((me, k)) {
                        return false;
                    }
                    // An enemy piece of the dropped kind stands in for any victim.
                    let mut probe = pos.cells.clone();
                    probe[cell.index()] = Some((next.to_move, kind));
                    piece_moves(v, options, &probe, &pos.used, c)
                        .iter()
                        .any(|(t, _)| *t == cell)
                }),
                NoDrop::Check => royal_attacked(v, options, &landed, &pos.used, next.to_move),
                NoDrop::InZone(z) => v.zones[z].cells[me.0 as usize].contains(&cell),
                NoDrop::OutsideZone(z) => !v.zones[z].cells[me.0 as usize].contains(&cell),
                NoDrop::FirstOn(z) => {
                    opening(v, &pos.cells, me, z)
                        && !v.zones[z].cells[me.0 as usize].contains(&cell)
                }
                NoDrop::Enclosing => {
                    !rules
                        .iter()
                        .any(|r| matches!(*r, NoDrop::FirstOn(z) if opening(v, &pos.cells, me, z)))
                        && enclosed_lines(v, options, &after, me, cell).is_empty()
                }
                NoDrop::Checkmate => {
                    royal_attacked(v, options, &landed, &pos.used, next.to_move) && {
                        let mut n = next.clone();
                        let at = n.hands.iter().position(|h| *h == (me, held)).unwrap();
                        n.hands.remove(at);
                        legal_moves(v, options, &n).is_empty()
                    }
                }
            });
            if forbidden {
                continue;
            }
            if v.drops.spread != 0 {
                // Rule 59.
                let mut hands = pos.hands.clone();
                let at = hands.iter().position(|h| *h == (me, held)).unwrap();
                hands.remove(at);
                if !spread_open(v, options, &after, &hands, me) {
                    continue;
                }
            }
            out.push((cell, kind));
        }
    }
    out
}

/// Rule 59: whether `me`'s pieces of the spread kinds can still end at most an even
/// share (rounded up) on each colour, those in hand dropped where their kinds may go.
fn spread_open(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    hands: &[(PlayerId, PieceId)],
    me: PlayerId,
) -> bool {
    let spread = |k: PieceId| v.drops.spread & (1 << k.0) != 0;
    let mut on = vec![0usize; v.board.colours() as usize];
    for c in v.board.cells() {
        if matches!(cells[c.index()], Some((p, k)) if p == me && spread(k)) {
            on[v.board.colour(c) as usize] += 1;
        }
    }
    let held: Vec<PieceId> = hands
        .iter()
        .filter(|(p, k)| *p == me && spread(*k))
        .map(|(_, k)| *k)
        .collect();
    let share = (on.iter().sum::<usize>() + held.len()).div_ceil(on.len());
    on.iter().all(|n| *n <= share) && spread_fits(v, options, cells, me, &held, &mut on, share)
}

/// Rule 59: tries every empty cell open to each held piece in turn.
fn spread_fits(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    me: PlayerId,
    held: &[PieceId],
    on: &mut [usize],
    share: usize,
) -> bool {
    let Some((&kind, rest)) = held.split_first() else {
        return true;
    };
    let mobile_only = v.hand.is_some_and(|h| h.mobile_only);
    for cell in v.board.cells() {
        let colour = v.board.colour(cell) as usize;
        if cells[cell.index()].is_some()
            || on[colour] >= share
            || !zones_allow(v, options, me, kind, cell)
            || (mobile_only && alone_stuck(v, options, me, kind, cell))
        {
            continue;
        }
        let mut placed = cells.to_vec();
        placed[cell.index()] = Some((me, kind));
        on[colour] += 1;
        let fits = spread_fits(v, options, &placed, me, rest, on, share);
        on[colour] -= 1;
        if fits {
            return true;
        }
    }
    false
}

/// Whether a cell of `me`'s part of zone `z` is empty (`drop first on`).
fn opening(v: &Variant, cells: &Cells, me: PlayerId, z: usize) -> bool {
    v.zones[z].cells[me.0 as usize]
        .iter()
        .any(|c| cells[c.index()].is_none())
}

/// Rules 45 and 70: the enemy pieces a piece of `me` on `at` encloses: along each
/// direction (of the lines' kind), a line of pieces of one enemy closed by a piece of
/// `me` or an empty hostile cell, holding no guarded piece (and of one piece, with
/// `of one piece`); and each guarded enemy piece one step away that is enclosed on
/// every side.
fn enclosed_lines(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    me: PlayerId,
    at: Cell,
) -> Vec<Cell> {
    use variantlab::variant::{Dir, Flip};
    let b = &v.board;
    // The clauses of an `enclosed enemy pieces ...` statement, if the game has one.
    let rule = v.enclosure.as_ref().filter(|e| e.which == Flip::Enclosed);
    let lines = rule.and_then(|e| e.lines);
    let single = rule.is_some_and(|e| e.single);
    let hostile = rule.and_then(|e| e.hostile);
    let every_side = rule.and_then(|e| e.every_side);
    let directions: Vec<Dir> = (0..b.directions().len())
        .filter(|&d| lines.is_none_or(|k| b.directions()[d].kind == k))
        .map(|d| Dir(d as u8))
        .collect();
    // Rule 70: a cell that closes a line for `me`: its piece, or an empty hostile cell.
    let closes = |c: Cell| match cells[c.index()] {
        Some((p, _)) => p == me,
        None => hostile.is_some_and(|z| v.zones[z].cells[me.0 as usize].contains(&c)),
    };
    // Rule 70: a piece taken only when enclosed on every side.
    let guarded = |c: Cell| match (cells[c.index()], every_side) {
        (Some((owner, kind)), Some((kinds, zone))) => {
            of_kinds(v, options, kinds, kind)
                && zone.is_none_or(|z| v.zones[z].cells[owner.0 as usize].contains(&c))
        }
        _ => false,
    };
    // A wall (rule 49) is no one's piece: it breaks a line and is never taken.
    let enemy = |c: Cell| cells[c.index()].is_some_and(|(p, _)| p != me && p != NO_ONE);
    let mut out = vec![];
    for &d in &directions {
        let mut line = vec![];
        let mut p = b.point(at);
        let mut owner = None;
        loop {
            p = b.shift(p, d);
            let Some(c) = b.at(p) else { break };
            if closes(c) {
                let counts = !line.is_empty()
                    && (!single || line.len() == 1)
                    && !line.iter().any(|c| guarded(*c));
                if counts {
                    out.extend(line.iter().copied());
                }
                break;
            }
            match cells[c.index()] {
                Some((pl, _)) if enemy(c) && owner.is_none_or(|o| o == pl) => {
                    owner = Some(pl);
                    line.push(c);
                }
                _ => break,
            }
        }
        // Rule 70: a guarded enemy next to `at`, every neighbour along the lines
        // closing (the one on `at` among them).
        if let Some(c) = b.at(b.shift(b.point(at), d))
            && enemy(c)
            && guarded(c)
            && directions
                .iter()
                .all(|&e| b.at(b.shift(b.point(c), e)).is_some_and(closes))
        {
            out.push(c);
        }
    }
    // Rule 85: rows along the edge, faced on every piece.
    if rule.is_some_and(|e| e.edge_rows) {
        out.extend(edge_rows(
            v,
            cells,
            me,
            at,
            &directions,
            &closes,
            &guarded,
            &enemy,
        ));
    }
    out.sort();
    out.dedup();
    out
}

/// Rule 85: the enemy pieces taken (or turned) in rows along the edge by `me`'s
/// piece landing on `at`: `directions` are the lines', `closes`, `guarded` and `enemy`
/// rule 70's tests of a cell.
#[allow(clippy::too_many_arguments)]
fn edge_rows(
    v: &Variant,
    cells: &Cells,
    me: PlayerId,
    at: Cell,
    directions: &[variantlab::variant::Dir],
    closes: &dyn Fn(Cell) -> bool,
    guarded: &dyn Fn(Cell) -> bool,
    enemy: &dyn Fn(Cell) -> bool,
) -> Vec<Cell> {
    let b = &v.board;
    let vector = |d: &variantlab::variant::Dir| {
        let d = b.direction(*d);
        (d.dx, d.dy)
    };
    // The cell `k` steps of `(dx, dy)` from `c`, if on the board.
    let away = |c: Cell, (dx, dy): Point, k: i32| {
        let p = b.point(c);
        b.at((p.0 + k * dx, p.1 + k * dy))
    };
    let off = |c: Cell, e: Point| away(c, e, 1).is_none();
    // The plane's weights of the lattice's axes (the docs of `Board::along`): one and
    // one on squares; hexagon lattices are doubled, flat-topped cells along y (their
    // north step, (0, -2), crosses a side), pointy-topped ones along x.
    let (wx, wy) = match b.shape {
        variantlab::variant::Shape::Square { .. } => (1, 1),
        _ if b
            .directions()
            .iter()
            .any(|d| d.dx == 0 && d.kind == variantlab::variant::Kind::Orthogonal) =>
        {
            (3, 1)
        }
        _ => (1, 3),
    };
    let dot = |(ax, ay): Point, (bx, by): Point| wx * ax * bx + wy * ay * by;
    let mut out = vec![];
    for d in directions.iter().map(vector) {
        // The edge `d` runs along: of the lines' directions other than `d` and its
        // opposite that lead off the board from `at`, the one most nearly square to
        // `d`, the first in the board's order where two stand as square.
        let Some(e) = directions
            .iter()
            .map(vector)
            .filter(|&e| e != d && e != (-d.0, -d.1) && off(at, e))
            .min_by_key(|&e| dot(e, d).abs())
        else {
            continue;
        };
        // The run of one enemy's pieces along `d`, on that edge.
        let mut row: Vec<Cell> = vec![];
        let mut past = away(at, d, 1);
        while let Some(c) = past
            && off(c, e)
            && enemy(c)
            && row
                .first()
                .is_none_or(|f| cells[f.index()].map(|p| p.0) == cells[c.index()].map(|p| p.0))
        {
            row.push(c);
            past = away(c, d, 1);
        }
        // Each piece faced straight away from the edge, on its cell `- e` alone.
        let faced = row.iter().all(|&c| {
            away(c, e, -1).is_some_and(|f| cells[f.index()].is_some_and(|(p, _)| p == me))
        });
        let closed = past.is_some_and(|c| off(c, e) && closes(c));
        let taken: Vec<Cell> = row.iter().copied().filter(|&c| !guarded(c)).collect();
        if row.len() >= 2 && faced && closed && !taken.is_empty() {
            out.extend(taken);
        }
    }
    out
}

/// Rule 24: whether two pieces that may not face each other do.
fn faces(v: &Variant, options: &[bool], cells: &Cells) -> bool {
    facing_pair(v, cells, |kind| {
        v.piece(kind)
            .facing
            .iter()
            .filter(|(g, _)| holds(*g, options))
            .map(|(_, enemy)| *enemy)
            .collect()
    })
}

/// Rule 31: whether two pieces of a holding `facing` end rule face each other.
fn standoff(v: &Variant, options: &[bool], cells: &Cells) -> bool {
    facing_pair(v, cells, |kind| {
        v.end_rules
            .iter()
            .filter(|r| holds(r.guard, options))
            .flat_map(|r| r.condition.events())
            .filter_map(|e| match e {
                Event::Facing { piece, enemy } if piece == kind => Some(enemy),
                _ => None,
            })
            .collect()
    })
}

/// Rule 32: the points of each player, in tenths.
pub fn points(v: &Variant, pos: &Simple) -> Vec<u64> {
    let Some(points) = &v.points else {
        return vec![];
    };
    (0..v.players.len())
        .map(|p| {
            let on_board = pos
                .cells
                .iter()
                .flatten()
                .filter(|(o, _)| o.0 as usize == p)
                .map(|(_, k)| points.worth[k.0 as usize] as u64);
            let in_hand = pos
                .hands
                .iter()
                .filter(|(o, _)| o.0 as usize == p)
                .map(|(_, k)| points.worth[k.0 as usize] as u64);
            on_board.chain(in_hand).sum::<u64>() + points.bonus[p] as u64
        })
        .collect()
}

/// Whether a piece and an enemy piece of a kind `enemies(its kind)` names stand on
/// one file of the first piece's owner, every cell between them empty.
fn facing_pair(v: &Variant, cells: &Cells, enemies: impl Fn(PieceId) -> Vec<PieceId>) -> bool {
    v.board.cells().any(|c| {
        let Some((owner, kind)) = cells[c.index()].filter(|_| cells[c.index()] != WALL) else {
            return false;
        };
        let Some(f) = v.player(owner).forward else {
            return false;
        };
        let d = &v.board.directions()[f.0 as usize];
        enemies(kind).iter().any(|enemy| {
            [1, -1].into_iter().any(|sign| {
                let mut p = v.board.point(c);
                loop {
                    p = (p.0 + sign * d.dx, p.1 + sign * d.dy);
                    if !v.board.within_bounds(p) {
                        return false;
                    }
                    let Some(n) = v.board.at(p) else { continue };
                    match cells[n.index()] {
                        None => continue,
                        Some((o, k)) => return o != owner && k == *enemy,
                    }
                }
            })
        })
    })
}

/// The cells reached from `cell` stepping straight forward or backward for `player`.
fn file(v: &Variant, player: PlayerId, cell: Cell) -> Vec<Cell> {
    let Some(f) = v.player(player).forward else {
        return vec![];
    };
    let d = &v.board.directions()[f.0 as usize];
    let mut out = Vec::new();
    for sign in [1, -1] {
        let mut p = v.board.point(cell);
        loop {
            p = (p.0 + sign * d.dx, p.1 + sign * d.dy);
            if !v.board.within_bounds(p) {
                break;
            }
            if let Some(c) = v.board.at(p) {
                out.push(c);
            }
        }
    }
    out
}

/// Whether `player`'s `kind`, alone on the board at `cell`, would have no move.
fn alone_stuck(v: &Variant, options: &[bool], player: PlayerId, kind: PieceId, cell: Cell) -> bool {
    let mut cells = vec![None; v.board.len()];
    cells[cell.index()] = Some((player, kind));
    piece_moves(v, options, &cells, &[], cell).is_empty()
}

/// Rule 30: whether a move promoting to `kind` marks the piece.
fn marks(v: &Variant, kind: PieceId) -> bool {
    v.hand.is_some_and(|h| !h.keep_promoted) && !v.piece(kind).code.starts_with('+')
}

/// Rule 30: what `player`'s marked piece of `kind` goes to hand as.
fn promoted_from(v: &Variant, options: &[bool], player: PlayerId, kind: PieceId) -> PieceId {
    let royal = |k: usize| v.is_royal(PieceId(k as u8), options);
    (0..v.pieces.len())
        .find(|&b| {
            in_force(v, options, player, PieceId(b as u8))
                .iter()
                .any(|p| {
                    p.to.contains(&kind)
                        || (p.to.is_empty() && b != kind.0 as usize && !royal(kind.0 as usize))
                })
        })
        .map_or(kind, |b| PieceId(b as u8))
}

/// Rule 21: what a captured piece becomes in hand.
fn unpromoted(v: &Variant, kind: PieceId) -> PieceId {
    match v.piece(kind).code.strip_prefix('+') {
        Some(base) => v.find_piece(base).unwrap_or(kind),
        None => kind,
    }
}

/// The cells after the piece on `from` goes to `to`, also taking what stands on
/// `taken` (a capture in passing, or the pieces jumped: rule 73).
fn after_move(
    cells: &[Option<(PlayerId, PieceId)>],
    from: Cell,
    to: Cell,
    taken: &[Cell],
) -> Vec<Option<(PlayerId, PieceId)>> {
    let mut after = cells.to_vec();
    for t in taken {
        after[t.index()] = None;
    }
    after[to.index()] = after[from.index()].take();
    after
}

/// Captures in passing by the piece on `from` (rule 16).
fn in_passing(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    from: Cell,
) -> Vec<(Cell, Option<TagId>)> {
    let Some((passed, victim, by)) = &pos.passing else {
        return vec![];
    };
    let Some((player, kind)) = pos.cells[from.index()] else {
        return vec![];
    };
    let Some((owner, victim_kind)) = pos.cells[victim.index()] else {
        return vec![];
    };
    if owner == player || !by.contains(&kind) || !may_capture(v, options, kind, victim_kind) {
        return vec![];
    }
    let mut out = Vec::new();
    for pattern in &v.piece(kind).moves {
        if !holds(pattern.guard, options)
            || pattern.dest != Dest::Enemy
            || pattern.target.is_some_and(|t| t != victim_kind)
            || !starts_here(v, pattern, player, kind, from)
        {
            continue;
        }
        for to in reach(v, pattern, player, &pos.cells, from) {
            if passed.contains(&to) && pos.cells[to.index()].is_none() {
                out.push((to, pattern.tag));
            }
        }
    }
    out
}

/// Rule 14.
fn starts_here(
    v: &Variant,
    pattern: &Pattern,
    player: PlayerId,
    kind: PieceId,
    from: Cell,
) -> bool {
    pattern
        .initial
        .as_ref()
        .is_none_or(|i| initial_allows(v, i, player, kind, from))
}

/// Rules 14, 23 and 69: whether an initial rule lets `player`'s `kind` start on `from`.
fn initial_allows(
    v: &Variant,
    initial: &Initial,
    player: PlayerId,
    kind: PieceId,
    from: Cell,
) -> bool {
    match initial {
        Initial::Cells(cells) => cells.contains(&from),
        Initial::Zone(z) => v.zones[*z].cells[player.0 as usize].contains(&from),
        Initial::StartExcept(except) => {
            !except.contains(&from)
                && v.setup
                    .iter()
                    .any(|p| p.cell == from && p.player == player && p.piece == kind)
        }
        Initial::Not(inner) => !initial_allows(v, inner, player, kind, from),
    }
}

/// Rule 68: whether the cells near `from` let `player`'s pattern apply.
fn nearby_allows(
    v: &Variant,
    pattern: &Pattern,
    player: PlayerId,
    cells: &Cells,
    from: Cell,
) -> bool {
    let Some(n) = &pattern.nearby else {
        return true;
    };
    let b = &v.board;
    let forward = v
        .player(player)
        .forward
        .map(|d| b.directions()[d.0 as usize].bearing);
    let holds_one = leg_directions(b, &n.directions, forward, None)
        .into_iter()
        .filter_map(|d| {
            let dir = &b.directions()[d];
            let (x, y) = b.point(from);
            let k = n.steps as i32;
            b.at((x + k * dir.dx, y + k * dir.dy))
        })
        .any(|c| match cells[c.index()] {
            None => false,
            Some((owner, _)) if owner == NO_ONE => false,
            Some((owner, _)) => match n.holder {
                Holder::Enemy => owner != player,
                Holder::Friend => owner == player,
                Holder::Piece => true,
            },
        });
    holds_one == n.present
}

fn royal(v: &Variant, options: &[bool], kind: PieceId) -> bool {
    v.piece(kind).royal.iter().any(|g| holds(*g, options))
}

/// Rule 19: whether some royal piece of `player` could be captured (with
/// explosions, by a capture that spares the capturer's own royal pieces: rule 34).
fn royal_attacked(
    v: &Variant,
    options: &[bool],
    cells: &[Option<(PlayerId, PieceId)>],
    used: &[(PlayerId, PieceId, TagId)],
    player: PlayerId,
) -> bool {
    // Rule 43: with royal pieces in check together, every one must be attacked; in
    // check only when alone, a player with two or more is never in check.
    let mine =
        |c: &Cell| matches!(cells[c.index()], Some((p, k)) if p == player && royal(v, options, k));
    if v.royal_check == RoyalCheck::Alone && v.board.cells().filter(mine).count() > 1 {
        return false;
    }
    if v.royal_check == RoyalCheck::Together {
        let mut own = v.board.cells().filter(mine).peekable();
        return own.peek().is_some()
            && own.all(|c| royal_attacked_at(v, options, cells, used, player, c));
    }
    v.board
        .cells()
        .filter(mine)
        .any(|c| royal_attacked_at(v, options, cells, used, player, c))
}

/// Rule 19 for a move from `before` to `after`; in check only when alone, counted
/// before the move (rule 43).
fn left_attacked(
    v: &Variant,
    options: &[bool],
    before: &Cells,
    after: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    player: PlayerId,
) -> bool {
    if v.royal_check != RoyalCheck::Alone {
        return royal_attacked(v, options, after, used, player);
    }
    let mine = |cells: &Cells, c: &Cell| matches!(cells[c.index()], Some((p, k)) if p == player && royal(v, options, k));
    v.board.cells().filter(|c| mine(before, c)).count() <= 1
        && v.board
            .cells()
            .filter(|c| mine(after, c))
            .any(|c| royal_attacked_at(v, options, after, used, player, c))
}

/// Whether the royal piece of `player` on `c` could be captured (rules 19, 34).
fn royal_attacked_at(
    v: &Variant,
    options: &[bool],
    cells: &[Option<(PlayerId, PieceId)>],
    used: &[(PlayerId, PieceId, TagId)],
    player: PlayerId,
    c: Cell,
) -> bool {
    {
        if v.explosion.is_none() {
            return attacked(v, options, cells, used, c, player);
        }
        v.board.cells().any(|a| {
            let Some((q, _)) = cells[a.index()] else {
                return false;
            };
            if q == player
                || !piece_moves(v, options, cells, used, a)
                    .iter()
                    .any(|(to, _)| *to == c)
            {
                return false;
            }
            let mut after = after_move(cells, a, c, &[]);
            blast(v, &mut after, c);
            count_royals(v, options, &after, q) == count_royals(v, options, cells, q)
        })
    }
}

/// The royal pieces of `player` on the board.
fn count_royals(v: &Variant, options: &[bool], cells: &Cells, player: PlayerId) -> usize {
    cells
        .iter()
        .flatten()
        .filter(|(p, k)| *p == player && royal(v, options, *k))
        .count()
}

/// Rule 33: removes what a capture ending on `to` blows up; `cells` already shows
/// the capturing piece on `to`.
fn blast(v: &Variant, cells: &mut [Option<(PlayerId, PieceId)>], to: Cell) {
    let Some(x) = v.explosion else { return };
    let spared = |k: PieceId, mask: u64| mask & (1 << k.0) != 0;
    let p = v.board.point(to);
    for d in v.board.directions() {
        let Some(c) = v.board.at((p.0 + d.dx, p.1 + d.dy)) else {
            continue;
        };
        if let Some((_, k)) = cells[c.index()]
            && !spared(k, x.spared | x.spared_around)
        {
            cells[c.index()] = None;
        }
    }
    if let Some((_, k)) = cells[to.index()]
        && !spared(k, x.spared)
    {
        cells[to.index()] = None;
    }
}

/// Rule 34: whether the move from `before` to `after` is refused.
fn exposed_exploding(
    v: &Variant,
    options: &[bool],
    before: &Cells,
    after: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    me: PlayerId,
) -> bool {
    if count_royals(v, options, after, me) < count_royals(v, options, before, me) {
        return true;
    }
    let others_lost = (0..v.players.len())
        .map(|q| PlayerId(q as u8))
        .filter(|q| *q != me)
        .any(|q| count_royals(v, options, after, q) < count_royals(v, options, before, q));
    !others_lost && royal_attacked(v, options, after, used, me)
}

/// Rule 17: the promotions in force for `player`'s pieces of `kind`.
fn in_force<'a>(
    v: &'a Variant,
    options: &[bool],
    player: PlayerId,
    kind: PieceId,
) -> Vec<&'a Promotion> {
    let holding = || {
        v.piece(kind)
            .promotion
            .iter()
            .filter(|p| holds(p.guard, options))
    };
    let own: Vec<&Promotion> = holding().filter(|p| p.player == Some(player)).collect();
    if own.is_empty() {
        holding().filter(|p| p.player.is_none()).collect()
    } else {
        own
    }
}

/// Rules 64 and 65: the promotions of their own open to the piece on `from`, as
/// (to, tag, kind), before the legality rules.
fn standing(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    from: Cell,
) -> Vec<(Cell, Option<TagId>, PieceId)> {
    let Some((player, kind)) = pos.cells[from.index()] else {
        return vec![];
    };
    // Rule 65.
    let last = || {
        pos.cells
            .iter()
            .filter(|c| **c == Some((player, kind)))
            .count()
            == 1
    };
    let open = |p: &&Promotion| {
        p.when.standing
            && (v.zones[p.zone].cells[player.0 as usize].contains(&from) || (p.alone && last()))
    };
    let Some(p) = in_force(v, options, player, kind).into_iter().find(open) else {
        return vec![];
    };
    let mut out = Vec::new();
    for k in promotion_kinds(v, options, &pos.cells, player, kind, p) {
        out.push((from, None, k));
        let mut probe = pos.cells.clone();
        probe[from.index()] = Some((player, k));
        for (to, tag) in moves_of(v, options, &probe, &pos.used, from, |p| !p.copy) {
            if probe[to.index()].is_none() {
                out.push((to, tag, k));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Rule 66: whether a promotion of `me`'s `kind` piece, leaving `cells` with the new
/// piece on `at`, is refused for giving check or attacking an enemy piece.
fn loud(
    v: &Variant,
    options: &[bool],
    me: PlayerId,
    kind: PieceId,
    cells: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    at: Cell,
) -> bool {
    let quiet = in_force(v, options, me, kind).iter().any(|p| p.quiet);
    if !quiet {
        return false;
    }
    let enemy = |c: Cell| cells[c.index()].is_some_and(|(p, _)| p != me && p != NO_ONE);
    // With explosions the new piece may be gone.
    let attacks = cells[at.index()].is_some_and(|(p, _)| p == me)
        && piece_moves(v, options, cells, used, at)
            .iter()
            .any(|(to, _)| enemy(*to));
    let checks = v.board.cells().any(|r| {
        enemy(r)
            && cells[r.index()].is_some_and(|(_, k)| royal(v, options, k))
            && v.board.cells().any(|a| {
                cells[a.index()].is_some_and(|(p, _)| p == me)
                    && piece_moves(v, options, cells, used, a)
                        .iter()
                        .any(|(to, _)| *to == r)
            })
    });
    attacks || checks
}

/// Rules 17, 40 and 42: the kinds a promotion may make of `player`'s `kind` piece.
fn promotion_kinds(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    player: PlayerId,
    kind: PieceId,
    p: &Promotion,
) -> Vec<PieceId> {
    let mut out: Vec<PieceId> = if p.to.is_empty() {
        (0..v.pieces.len())
            .map(|k| PieceId(k as u8))
            .filter(|k| *k != kind && !royal(v, options, *k))
            .collect()
    } else {
        p.to.clone()
    };
    if p.lost_only {
        // Rule 40: only kinds of which the board holds fewer of the player's pieces
        // than the setup gives it.
        out.retain(|&k| {
            let given = v
                .setup
                .iter()
                .filter(|s| s.player == player && s.piece == k)
                .count()
                + v.random
                    .iter()
                    .flat_map(|r| &r.pools)
                    .filter(|pool| pool.player == player)
                    .flat_map(|pool| &pool.pieces)
                    .filter(|q| **q == k)
                    .count();
            cells.iter().filter(|c| **c == Some((player, k))).count() < given
        });
    }
    // Rule 42: `at most N KIND`.
    out.retain(|&k| {
        p.most.iter().all(|(m, n)| {
            *m != k || cells.iter().filter(|c| **c == Some((player, *m))).count() < *n as usize
        })
    });
    out
}

/// Rules 17 and 20: the kinds a move makes its piece (`None`: it stays itself);
/// `takes`: the move captures, on its end or in passing.
#[allow(clippy::too_many_arguments)]
fn promotions(
    v: &Variant,
    options: &[bool],
    cells: &[Option<(PlayerId, PieceId)>],
    player: PlayerId,
    kind: PieceId,
    from: Cell,
    to: Cell,
    takes: bool,
) -> Vec<Option<PieceId>> {
    let Some(p) = applying(v, options, player, kind, from, to, takes) else {
        return vec![None];
    };
    let mut out: Vec<Option<PieceId>> = promotion_kinds(v, options, cells, player, kind, p)
        .into_iter()
        .map(Some)
        .collect();
    if p.optional && !(p.forced_if_stuck && alone_stuck(v, options, player, kind, to)) {
        out.push(None);
    }
    out
}

/// Rules 17 and 20: the promotion in force that a move from `from` to `to` makes
/// (`takes`: it captures), if any; none while one promotes as a move of its own (64).
fn applying<'a>(
    v: &'a Variant,
    options: &[bool],
    player: PlayerId,
    kind: PieceId,
    from: Cell,
    to: Cell,
    takes: bool,
) -> Option<&'a Promotion> {
    let ways = in_force(v, options, player, kind);
    if ways.iter().any(|p| p.when.standing) {
        // Rule 64: only a move of its own promotes.
        return None;
    }
    let applies = |p: &&Promotion| {
        let zone = &v.zones[p.zone].cells[player.0 as usize];
        let touches = (p.when.from && zone.contains(&from))
            || (p.when.into && zone.contains(&to))
            || (p.when.through && between(v, from, to).iter().any(|c| zone.contains(c)))
            || (p.when.entering && zone.contains(&to) && !zone.contains(&from));
        touches && (takes || !p.when.capturing)
    };
    ways.into_iter().find(applies)
}

/// Rule 20: the cells strictly between two cells on the straight line of one
/// direction joining them (none when no direction does, or for a single step).
fn between(v: &Variant, from: Cell, to: Cell) -> Vec<Cell> {
    let (a, b) = (v.board.point(from), v.board.point(to));
    for d in v.board.directions() {
        let mut p = a;
        let mut passed = Vec::new();
        for _ in 0..64 {
            p = (p.0 + d.dx, p.1 + d.dy);
            if p == b {
                return passed;
            }
            match v.board.at(p) {
                Some(c) => passed.push(c),
                None => break,
            }
        }
    }
    vec![]
}

/// Rule 54: whether the piece `a` names, alone on the board at `at`, could capture a
/// piece of the castling's player on the cell it names.
fn aims(
    v: &Variant,
    options: &[bool],
    a: &variantlab::variant::Aimed,
    at: Cell,
    c: &variantlab::variant::Castling,
) -> bool {
    let mut cells = vec![None; v.board.len()];
    cells[at.index()] = Some((a.player, a.piece));
    cells[a.target.index()] = Some((c.player, c.parts[0].0));
    piece_moves(v, options, &cells, &[], at)
        .iter()
        .any(|(t, _)| *t == a.target)
}

/// Rules 18 and 57: the cells a castling's move names.
fn castle_written(c: &variantlab::variant::Castling) -> (Cell, Cell) {
    let (_, from, to) = c.parts[0];
    match c.anywhere {
        Some(_) => (from, c.parts[1].1),
        None => (from, to),
    }
}

/// Rule 57: the cells after `from` on the straight line of `dir` (either way) up
/// to `to`, that included; none when `to` is not on it.
fn line_path(
    v: &Variant,
    dir: variantlab::variant::Dir,
    from: Cell,
    to: Cell,
) -> Option<Vec<Cell>> {
    if from == to {
        return Some(vec![]);
    }
    let d = v.board.direction(dir);
    let (a, b) = (v.board.point(from), v.board.point(to));
    for (dx, dy) in [(d.dx, d.dy), (-d.dx, -d.dy)] {
        let mut p = (a.0 + dx, a.1 + dy);
        let mut path = Vec::new();
        while let Some(c) = v.board.at(p) {
            path.push(c);
            if p == b {
                return Some(path);
            }
            p = (p.0 + dx, p.1 + dy);
        }
    }
    None
}

/// Rules 18 and 57: a castling's `empty` and `safe` cells (none: never open).
fn castle_cells(v: &Variant, c: &variantlab::variant::Castling) -> Option<(Vec<Cell>, Vec<Cell>)> {
    let Some(dir) = c.anywhere else {
        return Some((c.empty.clone(), c.safe.clone()));
    };
    let mut empty = Vec::new();
    let mut safe = vec![c.parts[0].1];
    for (n, (_, f, t)) in c.parts.iter().enumerate() {
        let path = line_path(v, dir, *f, *t)?;
        if n == 0 {
            safe.extend(&path);
        }
        empty.extend(path);
    }
    Some((empty, safe))
}

/// Rule 18: the castling moves open now (the royal rule included).
fn castlings_open(v: &Variant, options: &[bool], pos: &Simple) -> Vec<usize> {
    let mut out = Vec::new();
    for &i in &pos.castling {
        let c = &v.castlings[i];
        if c.player != pos.to_move
            || c.parts
                .iter()
                .any(|(k, f, _)| pos.cells[f.index()] != Some((c.player, *k)))
        {
            continue;
        }
        let Some((empty, safe)) = castle_cells(v, c) else {
            continue;
        };
        let own: Vec<Cell> = c.parts.iter().map(|(_, f, _)| *f).collect();
        if empty
            .iter()
            .any(|e| pos.cells[e.index()].is_some() && !own.contains(e))
        {
            continue;
        }
        let (_, first_from, _) = c.parts[0];
        let next_to_enemy_royal = |s: Cell| {
            let p = v.board.point(s);
            v.explosion.is_some()
                && v.board.directions().iter().any(|d| {
                    v.board.at((p.0 + d.dx, p.1 + d.dy)).is_some_and(|a| {
                        matches!(pos.cells[a.index()], Some((q, k)) if q != c.player && royal(v, options, k))
                    })
                })
        };
        let unsafe_cell = safe.iter().filter(|s| !next_to_enemy_royal(**s)).any(|s| {
            let mut cells = pos.cells.clone();
            let piece = cells[first_from.index()].take();
            cells[s.index()] = piece;
            attacked(v, options, &cells, &pos.used, *s, c.player)
        });
        if unsafe_cell {
            continue;
        }
        let after = castled(&pos.cells, c);
        if royal_attacked(v, options, &after, &pos.used, c.player) || faces(v, options, &after) {
            continue;
        }
        out.push(i);
    }
    out
}

/// Whether each of a castling's pieces stands on its start cell.
fn in_place(cells: &Cells, c: &variantlab::variant::Castling) -> bool {
    c.parts
        .iter()
        .all(|(k, f, _)| cells[f.index()] == Some((c.player, *k)))
}

fn castled(
    cells: &[Option<(PlayerId, PieceId)>],
    c: &variantlab::variant::Castling,
) -> Vec<Option<(PlayerId, PieceId)>> {
    let mut after = cells.to_vec();
    for (_, f, _) in &c.parts {
        after[f.index()] = None;
    }
    for (k, _, t) in &c.parts {
        after[t.index()] = Some((c.player, *k));
    }
    after
}

/// How a game ended: the outcome, and the player the deciding rule names (rule 27).
pub type Ended = (Outcome, Option<PlayerId>);

/// Makes a move (assumed legal) and says whether it ends the game.
pub fn play(v: &Variant, options: &[bool], pos: &Simple, mv: Move) -> (Simple, Option<Outcome>) {
    let (next, ended) = play_judged(v, options, pos, mv, &[], None, None, Judge::Fully);
    (next, ended.map(|e| e.0))
}

/// [`play`], leaving a wall (rule 49) and bringing a piece in (rule 61).
pub fn play_gated(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    wall: Option<Cell>,
    gate: Gate,
) -> (Simple, Option<Outcome>) {
    let (next, ended) = play_judged(v, options, pos, mv, &[], wall, gate, Judge::Fully);
    (next, ended.map(|e| e.0))
}

/// [`play`], leaving a wall (rule 49).
pub fn play_walled(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    wall: Option<Cell>,
) -> (Simple, Option<Outcome>) {
    play_gated(v, options, pos, mv, wall, None)
}

/// [`play_gated`], also naming the player the deciding rule names.
pub fn play_named(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    wall: Option<Cell>,
    gate: Gate,
) -> (Simple, Option<Ended>) {
    play_judged(v, options, pos, mv, &[], wall, gate, Judge::Fully)
}

/// [`play_named`] for a move taking the pieces on `jumped` by jumping (rule 73).
pub fn play_jumping(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    jumped: &[Cell],
) -> (Simple, Option<Ended>) {
    play_judged(v, options, pos, mv, jumped, None, None, Judge::Fully)
}

/// Rule 13: whether a condition made of single conditions that hold or not from the
/// position alone (rule 27) holds in `pos`, and if so the player it names, if any.
pub fn condition_holds(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    condition: &Condition,
) -> Option<Option<PlayerId>> {
    let after = After {
        next: pos,
        captured: &[],
        kind: PieceId(0),
        judge: Judge::Fully,
    };
    satisfied(v, options, &after, condition)
}

/// Rule 27: how a game in `pos` is over from the position alone, whatever the last
/// move was: the first holding rule each of whose single conditions holds or not from
/// the position alone, if its whole condition holds.
pub fn verdict(v: &Variant, options: &[bool], pos: &Simple) -> Option<Ended> {
    v.end_rules
        .iter()
        .filter(|r| holds(r.guard, options) && r.condition.every(&|e| e.in_place()))
        .find_map(|rule| {
            let named = condition_holds(v, options, pos, &rule.condition)?;
            Some((decided(v, pos, rule), named))
        })
}

/// Whether a move is asked if it ends the game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Judge {
    Not,
    /// As [`perft`] does (rule 67).
    Counting,
    Fully,
}

/// The position after a move (assumed legal), and, when judged, whether it ends the
/// game.
#[allow(clippy::too_many_arguments)]
fn play_judged(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    jumped: &[Cell],
    wall: Option<Cell>,
    gate: Gate,
    judge: Judge,
) -> (Simple, Option<Ended>) {
    let (next, ended, _) = play_taking(v, options, pos, mv, jumped, wall, gate, judge);
    (next, ended)
}

/// Rule 70: whether a move (assumed legal) captures: takes a piece on its end, in
/// passing or by enclosure. The caller counts `N plies without capture` with it.
pub fn captures(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    wall: Option<Cell>,
    gate: Gate,
) -> bool {
    !play_taking(v, options, pos, mv, &[], wall, gate, Judge::Not)
        .2
        .is_empty()
}

/// [`play_judged`], also giving the kinds of the pieces the move captured (rules 70
/// and 73).
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn play_taking(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    mv: Move,
    jumped: &[Cell],
    wall: Option<Cell>,
    gate: Gate,
    judge: Judge,
) -> (Simple, Option<Ended>, Vec<PieceId>) {
    let (from, to, tag, promotion) = mv;
    // Rule 70: the move encloses with the walls standing before it; its own wall (49)
    // comes after.
    let old_walls = pos.walls.clone();
    let mut pos = pos.clone();
    if let Some(w) = wall {
        let moved = v.pieces.iter().flat_map(|p| &p.walling);
        if moved.into_iter().any(|(_, r)| *r == Walling::Moved) {
            pos.walls.clear();
        }
        pos.walls.push(w);
        pos.walls.sort();
    }
    let pos = &pos;
    // A chain of captures may end where it started (rule 74).
    let in_place = from == to && jumped.is_empty();
    if in_place && promotion.is_none() {
        let mut next = pos.clone();
        next.passing = None;
        next.struck = None;
        // Rule 80: a piece's move out and back is not a pass of `players may pass`.
        next.passes = if v.pass.is_some() { pos.passes + 1 } else { 0 };
        next.to_move = PlayerId(((pos.to_move.0 as usize + 1) % v.players.len()) as u8);
        extend_run(v, options, &mut next, pos.to_move);
        let kind = pos.cells[from.index()].map_or(PieceId(0), |(_, k)| k);
        let outcome = (judge != Judge::Not)
            .then(|| ending(v, options, &next, &[], kind, judge))
            .flatten();
        return (next, outcome, vec![]);
    }
    // Rule 64: a promotion of its own (in place, from == to, on the mover's piece).
    let standing = promotion.is_some()
        && pos.cells[from.index()].is_some_and(|(p, k)| {
            p == pos.to_move && in_force(v, options, p, k).iter().any(|r| r.when.standing)
        });
    // Rule 80: a move of a piece in place, promoting, is no drop.
    let own = pos.cells[from.index()].is_some_and(|(p, _)| p == pos.to_move);
    if in_place && !standing && !own {
        return drop_piece(
            v,
            options,
            pos,
            &old_walls,
            to,
            promotion.expect("a drop names its kind"),
            judge,
        );
    }
    let (player, kind) = pos.cells[from.index()].expect("a piece stands on the start cell");
    assert_eq!(player, pos.to_move, "the piece belongs to the side to move");
    let castle = castling_of(v, pos, mv).filter(|_| !standing);
    // A move to an empty passed cell that only a capture in passing reaches takes the
    // piece that passed it.
    let taken = match (&pos.passing, pos.cells[to.index()]) {
        (Some((_, victim, _)), None)
            if castle.is_none()
                && !standing
                && jumped.is_empty()
                && in_passing(v, options, pos, from)
                    .iter()
                    .any(|(t, g)| *t == to && *g == tag)
                && !piece_moves(v, options, &pos.cells, &pos.used, from).contains(&(to, tag)) =>
        {
            Some(*victim)
        }
        _ => None,
    };
    let captured = match castle {
        // Rule 64: never a capture (in place, the piece's own cell); nor a move that
        // ends where it started (80).
        _ if standing || from == to => None,
        Some(_) => None,
        None => pos.cells[taken.unwrap_or(to).index()].map(|(_, k)| k),
    };

    let mut next = pos.clone();
    next.passing = None;
    next.passes = 0;
    let taken_at = taken.unwrap_or(to);
    if let Some(k) = captured
        && v.hand.is_some()
    {
        let back = if pos.promoted.contains(&taken_at) {
            let owner = pos.cells[taken_at.index()].map_or(player, |(q, _)| q);
            promoted_from(v, options, owner, k)
        } else {
            unpromoted(v, k)
        };
        next.hands.push((player, back));
        next.hands.sort();
    }
    let was_marked = pos.promoted.contains(&from);
    next.promoted.retain(|c| *c != from && *c != taken_at);
    // Rule 73: the pieces jumped go as those taken by enclosure do.
    let jumped_pieces: Vec<(Cell, (PlayerId, PieceId))> = jumped
        .iter()
        .map(|c| (*c, pos.cells[c.index()].expect("a piece jumped")))
        .collect();
    take_to_hand(v, options, &mut next, player, &jumped_pieces);
    let mut enclosed = vec![];
    match castle {
        Some(i) => next.cells = castled(&pos.cells, &v.castlings[i]),
        None => {
            let gone: Vec<Cell> = taken.into_iter().chain(jumped.iter().copied()).collect();
            next.cells = after_move(&pos.cells, from, to, &gone);
            if let Some(k) = promotion {
                next.cells[to.index()] = Some((player, k));
            }
            // Turning back to its unpromoted side marks nothing.
            let back = |k: PieceId| v.piece(kind).demotes_to == Some(k);
            if was_marked || promotion.is_some_and(|k| marks(v, k) && !back(k)) {
                next.promoted.push(to);
                next.promoted.sort();
            }
            if !standing {
                next.passing = passing_of(v, options, pos, from, to, kind);
            }
            if captured.is_some() || !jumped.is_empty() {
                blast(v, &mut next.cells, to);
            }
            // Rules 45 and 70.
            enclosed = flip(v, options, &mut next.cells, &old_walls, player, to);
            take_to_hand(v, options, &mut next, player, &enclosed);
            if wall == Some(to) {
                next.cells[to.index()] = None;
            }
        }
    }
    let emptied: Vec<Cell> = v
        .board
        .cells()
        .filter(|c| pos.cells[c.index()].is_some() && next.cells[c.index()].is_none())
        .collect();
    if let Some((k, at)) = gate {
        // Rule 61.
        next.cells[at.index()] = Some((player, k));
        let held = next
            .hands
            .iter()
            .position(|h| *h == (player, k))
            .expect("the piece brought in is in hand");
        next.hands.remove(held);
    }
    if v.gates.is_some() {
        // Rule 62.
        let left: Vec<Cell> = match castle {
            Some(i) => v.castlings[i].parts.iter().map(|(_, f, _)| *f).collect(),
            None => vec![from],
        };
        next.gates
            .retain(|c| !left.contains(c) && *c != to && !emptied.contains(c));
        close_empty_handed(v, &mut next);
    }
    next.promoted.retain(|c| next.cells[c.index()].is_some());
    let landed = next.cells[to.index()];
    next.castling.retain(|&i| {
        let c = &v.castlings[i];
        let touched = |f: &Cell| *f == from || *f == to || emptied.contains(f);
        let lost = match c.anywhere {
            // Rule 57.
            Some(_) => {
                (player, kind) == (c.player, c.parts[0].0)
                    || c.parts[1..].iter().any(|(_, f, _)| touched(f))
                    || emptied.contains(&c.parts[0].1)
            }
            None => c.parts.iter().any(|(_, f, _)| touched(f)),
        };
        !lost
            && !c
                .aimed
                .iter()
                .any(|a| landed == Some((a.player, a.piece)) && aims(v, options, a, to, c))
    });
    // Rule 64: a promotion's step is a move of the new kind.
    let by = promotion.filter(|_| standing).unwrap_or(kind);
    if let Some(t) = tag
        && v.tag(t).once_per_game
        && !next.used.contains(&(player, by, t))
    {
        next.used.push((player, by, t));
    }
    // Rule 84.
    next.struck = struck_after(v, &pos.cells, &next.cells, player, kind, to);
    next.to_move = PlayerId(((player.0 as usize + 1) % v.players.len()) as u8);
    count_check(v, options, &mut next, player);
    extend_run(v, options, &mut next, player);
    // Rules 70 and 73: what the move captured, on its end, by jumping and by enclosure.
    let all: Vec<PieceId> = captured
        .into_iter()
        .chain(jumped_pieces.iter().map(|(_, (_, k))| *k))
        .chain(enclosed.iter().map(|(_, (_, k))| *k))
        .collect();
    let outcome = (judge != Judge::Not)
        .then(|| ending(v, options, &next, &all, kind, judge))
        .flatten();
    (next, outcome, all)
}

/// Rule 21: puts a piece from the mover's hand on `cell`, `walls` standing before the
/// drop.
fn drop_piece(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    walls: &[Cell],
    cell: Cell,
    kind: PieceId,
    judge: Judge,
) -> (Simple, Option<Ended>, Vec<PieceId>) {
    let me = pos.to_move;
    let mut next = pos.clone();
    // Not in hand: dropped face up (rule 55), or a copy (rule 44).
    let face_down = v
        .piece(kind)
        .demotes_to
        .filter(|_| v.hand.is_some_and(|h| h.either_side));
    if let Some(at) = next.hands.iter().position(|h| *h == (me, kind)) {
        next.hands.remove(at);
    } else if let Some(at) = next
        .hands
        .iter()
        .position(|h| Some(h.1) == face_down && h.0 == me)
    {
        next.hands.remove(at);
    }
    let captured = next.cells[cell.index()].map(|(_, k)| k);
    next.cells[cell.index()] = Some((me, kind));
    next.promoted.retain(|c| *c != cell);
    // Rule 62: a copy may capture on a gate; a drop may empty the hand.
    next.gates.retain(|c| *c != cell);
    // Rules 45 and 70.
    let enclosed = flip(v, options, &mut next.cells, walls, me, cell);
    take_to_hand(v, options, &mut next, me, &enclosed);
    close_empty_handed(v, &mut next);
    if v.drops.castling {
        // Rule 60.
        for (i, c) in v.castlings.iter().enumerate() {
            let starts_here = c.parts.iter().any(|(_, f, _)| *f == cell);
            if starts_here && in_place(&next.cells, c) && !next.castling.contains(&i) {
                next.castling.push(i);
            }
        }
        next.castling.sort();
    }
    next.passing = None;
    next.passes = 0;
    // Rule 84.
    next.struck = struck_after(v, &pos.cells, &next.cells, me, kind, cell);
    next.to_move = PlayerId(((me.0 as usize + 1) % v.players.len()) as u8);
    count_check(v, options, &mut next, me);
    extend_run(v, options, &mut next, me);
    // Rule 70: what the drop (or copy) captured, on its cell and by enclosure.
    let all: Vec<PieceId> = captured
        .into_iter()
        .chain(enclosed.iter().map(|(_, (_, k))| *k))
        .collect();
    let outcome = (judge != Judge::Not)
        .then(|| ending(v, options, &next, &all, kind, judge))
        .flatten();
    (next, outcome, all)
}

/// Rules 45 and 70: turns to `me`, or takes off the board, the enemy pieces the
/// landing on `at` wins, `walls` standing (rule 49); returns the cells and pieces
/// taken.
fn flip(
    v: &Variant,
    options: &[bool],
    cells: &mut [Option<(PlayerId, PieceId)>],
    walls: &[Cell],
    me: PlayerId,
    at: Cell,
) -> Vec<(Cell, (PlayerId, PieceId))> {
    let Some(rule) = &v.enclosure else {
        return vec![];
    };
    let mut board = cells.to_vec();
    for w in walls {
        board[w.index()] = WALL;
    }
    let won: Vec<Cell> = match rule.which {
        variantlab::variant::Flip::Enclosed => enclosed_lines(v, options, &board, me, at),
        variantlab::variant::Flip::Next => {
            let b = &v.board;
            (0..b.directions().len())
                .filter(|&d| rule.lines.is_none_or(|k| b.directions()[d].kind == k))
                .filter_map(|d| b.at(b.shift(b.point(at), variantlab::variant::Dir(d as u8))))
                .filter(|c| board[c.index()].is_some_and(|(p, _)| p != me && p != NO_ONE))
                .collect()
        }
    };
    let mut taken = vec![];
    for c in won {
        if let Some((owner, k)) = cells[c.index()] {
            if rule.captures {
                cells[c.index()] = None;
                taken.push((c, (owner, k)));
            } else {
                cells[c.index()] = Some((me, k));
            }
        }
    }
    taken
}

/// Rule 70: the cells after `me`'s piece landed on `at`, once its enclosure is done
/// (walls standing on the cells as [`WALL`]).
fn enclosed_board(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    me: PlayerId,
    at: Cell,
) -> Vec<Option<(PlayerId, PieceId)>> {
    let mut after = cells.to_vec();
    flip(v, options, &mut after, &[], me, at);
    after
}

/// Rules 21, 30 and 70: the pieces a move took by enclosure go to the mover's hand, in
/// a game with hands, each as a piece captured on a move's end does; their marks go.
fn take_to_hand(
    v: &Variant,
    options: &[bool],
    next: &mut Simple,
    me: PlayerId,
    taken: &[(Cell, (PlayerId, PieceId))],
) {
    for &(c, (owner, k)) in taken {
        if v.hand.is_some() {
            let back = if next.promoted.contains(&c) {
                promoted_from(v, options, owner, k)
            } else {
                unpromoted(v, k)
            };
            next.hands.push((me, back));
        }
        next.promoted.retain(|p| *p != c);
    }
    next.hands.sort();
}

/// Rule 13: the outcome of the first end rule that matches after a move, and the
/// player it names.
fn ending(
    v: &Variant,
    options: &[bool],
    next: &Simple,
    captured: &[PieceId],
    kind: PieceId,
    judge: Judge,
) -> Option<Ended> {
    let after = After {
        next,
        captured,
        kind,
        judge,
    };
    v.end_rules
        .iter()
        .filter(|r| holds(r.guard, options))
        .find_map(|rule| {
            let named = satisfied(v, options, &after, &rule.condition)?;
            Some((decided(v, next, rule), named))
        })
}

/// The outcome of a rule whose condition holds in `next` (rules 32 and 48 for points).
fn decided(v: &Variant, next: &Simple, rule: &variantlab::variant::EndRule) -> Outcome {
    if !rule.by_points {
        return rule.outcome;
    }
    let points: Vec<u64> = if rule.by_pieces {
        (0..v.players.len())
            .map(|p| {
                next.cells
                    .iter()
                    .flatten()
                    .filter(|(o, _)| o.0 as usize == p)
                    .count() as u64
            })
            .collect()
    } else {
        points(v, next)
    };
    let best = if rule.fewest {
        points.iter().min().copied()
    } else {
        points.iter().max().copied()
    };
    let top: Vec<usize> = (0..points.len())
        .filter(|&p| Some(points[p]) == best)
        .collect();
    match top[..] {
        [p] => Outcome::wins(variantlab::Who::Player(PlayerId(p as u8))),
        _ => Outcome::Draw,
    }
}

/// What an end rule's condition is judged on: the position after a move, what the
/// move captured (on its end, in passing and by enclosure: rule 70), the kind it ended
/// as, and how fully it is judged.
struct After<'a> {
    next: &'a Simple,
    captured: &'a [PieceId],
    kind: PieceId,
    judge: Judge,
}

/// Rule 13: whether a condition holds after a move, and if so the player it names
/// (rule 27), if any.
fn satisfied(
    v: &Variant,
    options: &[bool],
    after: &After,
    condition: &Condition,
) -> Option<Option<PlayerId>> {
    match condition {
        Condition::Is(e) => happens(v, options, after, *e),
        Condition::Not(c) => match satisfied(v, options, after, c) {
            Some(_) => None,
            None => Some(None),
        },
        Condition::All(cs) => {
            let mut named = None;
            for c in cs {
                named = named.or(satisfied(v, options, after, c)?);
            }
            Some(named)
        }
        Condition::Any(cs) => cs.iter().find_map(|c| satisfied(v, options, after, c)),
    }
}

/// Rule 13: whether a single condition holds after a move, and if so the player it
/// names (rule 27), if any.
fn happens(v: &Variant, options: &[bool], after: &After, event: Event) -> Option<Option<PlayerId>> {
    let After {
        next,
        captured,
        kind,
        judge,
    } = *after;
    let mated = || {
        legal_moves(v, options, next).is_empty()
            && royal_attacked(v, options, &next.cells, &next.used, next.to_move)
    };
    let held = match event {
        e if e.names_a_player() => return happens_to(v, options, next, e).map(Some),
        Event::Captured { piece, by } => captured.contains(&piece) && by.is_none_or(|b| b == kind),
        Event::NoLegalMove => legal_moves(v, options, next).is_empty(),
        Event::Checkmate => mated(),
        Event::Stalemate => {
            legal_moves(v, options, next).is_empty()
                && !royal_attacked(v, options, &next.cells, &next.used, next.to_move)
        }
        Event::InCheck => royal_attacked(v, options, &next.cells, &next.used, next.to_move),
        Event::CheckmateOnlyBy(kinds) => {
            let by = checking_kinds(v, options, &next.cells, &next.used, next.to_move);
            mated() && by.iter().all(|k| kinds & (1 << k.0) != 0)
        }
        Event::CheckmateRunWithout(kinds) => {
            let n = v.players.len();
            let mover = (next.to_move.0 as usize + n - 1) % n;
            mated()
                && next
                    .runs
                    .get(mover)
                    .is_none_or(|run| run.iter().all(|k| kinds & (1 << k.0) == 0))
        }
        Event::OnlyPromotions => {
            // Rule 67.
            let me = next.to_move;
            let promotes = |(from, _, _, k): &Move| {
                k.is_some() && next.cells[from.index()].is_some_and(|(p, _)| p == me)
            };
            judge != Judge::Counting
                && !royal_attacked(v, options, &next.cells, &next.used, me)
                && {
                    let moves = legal_moves(v, options, next);
                    !moves.is_empty() && moves.iter().all(promotes)
                }
        }
        Event::AllPassed => next.passes as usize >= v.players.len(),
        Event::BoardFull => next.cells.iter().all(|c| c.is_some()),
        Event::Facing { .. } => next.passes > 0 && standoff(v, options, &next.cells),
        // Repetitions, quiet moves and counts are not tracked here (the events about
        // a player were asked above).
        _ => false,
    };
    held.then_some(None)
}

/// Rule 56: the count after `mover`'s move, from the cells before and after it and
/// the count before it.
pub fn next_count(
    v: &Variant,
    before: &Cells,
    after: &Cells,
    mover: PlayerId,
    count: Option<(u32, u32)>,
) -> Option<(u32, u32)> {
    let to_move = PlayerId(1 - mover.0);
    let pieces = after.iter().flatten().count() as u32;
    let newly = |line: &Count, player: PlayerId| {
        count_limit(v, line, after, player).is_some()
            && count_limit(v, line, before, player).is_none()
    };
    let mut count = count.map(|(limit, plies)| (limit, plies + 1));
    if let Some(line) = v
        .counts
        .iter()
        .find(|line| line.bare && line.from_pieces && newly(line, mover))
    {
        let limit = count_limit(v, line, after, mover).expect("it holds");
        count = Some((limit, 2 * pieces - 1));
    }
    if (count.is_none()
        || v.counts
            .iter()
            .any(|line| line.bare && newly(line, to_move)))
        && let Some((line, limit)) = v
            .counts
            .iter()
            .find_map(|line| count_limit(v, line, after, to_move).map(|l| (line, l)))
    {
        count = Some((limit, if line.from_pieces { 2 * pieces } else { 0 }));
    }
    count
}

/// Rule 56: the limit in plies a counting line gives `player` on these cells, if the
/// line holds for it.
fn count_limit(v: &Variant, line: &Count, cells: &Cells, player: PlayerId) -> Option<u32> {
    let options = v.default_options();
    let plain = |k: &PieceId| !royal(v, &options, *k);
    let mine: Vec<PieceId> = cells
        .iter()
        .flatten()
        .filter(|(p, _)| *p == player)
        .map(|(_, k)| *k)
        .collect();
    let theirs: Vec<PieceId> = cells
        .iter()
        .flatten()
        .filter(|(p, _)| *p != player)
        .map(|(_, k)| *k)
        .collect();
    let kind_holds = if line.bare {
        !mine.is_empty() && !mine.iter().any(plain)
    } else {
        mine.iter().any(plain)
    };
    let pos = Simple::bare(cells.to_vec(), player);
    let opens = count_opens(v, &options, &pos, &line.condition, player);
    if !(kind_holds && opens && theirs.iter().any(plain)) {
        return None;
    }
    line.limits
        .iter()
        .find(|l| {
            l.against
                .is_none_or(|(n, kind)| theirs.iter().filter(|k| **k == kind).count() as u32 >= n)
        })
        .map(|l| 2 * l.moves)
}

/// Rule 56: whether a counting line's condition holds in `pos`, `that player` being
/// `that`.
fn count_opens(v: &Variant, options: &[bool], pos: &Simple, c: &Condition, that: PlayerId) -> bool {
    match c {
        Condition::Is(
            e @ Event::Has {
                owner: Owner::That, ..
            },
        ) => holds_for(v, options, pos, *e, that),
        Condition::Is(_) => condition_holds(v, options, pos, c).is_some(),
        Condition::Not(c) => !count_opens(v, options, pos, c, that),
        Condition::All(cs) => cs.iter().all(|c| count_opens(v, options, pos, c, that)),
        Condition::Any(cs) => cs.iter().any(|c| count_opens(v, options, pos, c, that)),
    }
}

/// The number of move sequences of exactly `depth` moves; a game that is over has no
/// moves.
pub fn perft(v: &Variant, options: &[bool], pos: &Simple, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = jumping_moves(v, options, pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for (mv, jumped, wall, gate) in moves {
        let (next, over) = play_judged(v, options, pos, mv, &jumped, wall, gate, Judge::Counting);
        if over.is_none() {
            total += perft(v, options, &next, depth - 1);
        }
    }
    total
}

/// Rule 16: what a move of `kind` from `from` to `to` leaves open to capture in
/// passing: the steps' landing points before the end, on one empty path of a pattern
/// with `en passant` kinds.
fn passing_of(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    from: Cell,
    to: Cell,
    kind: PieceId,
) -> Option<Passing> {
    let (player, _) = pos.cells[from.index()]?;
    let forward = v
        .player(player)
        .forward
        .map(|d| v.board.directions()[d.0 as usize].bearing);
    for pattern in &v.piece(kind).moves {
        if pattern.en_passant.is_empty()
            || !holds(pattern.guard, options)
            || !starts_here(v, pattern, player, kind, from)
            || !nearby_allows(v, pattern, player, &pos.cells, from)
            || pos.cells[to.index()].is_some()
        {
            continue;
        }
        let mut w = Walk::new(&v.board, pattern, forward, &pos.cells, from);
        w.record_paths = true;
        // Rules 23 and 71: only a path the move may take.
        w.zone = pattern
            .within
            .map(|z| v.zones[z].cells[player.0 as usize].clone());
        w.outside = pattern
            .outside
            .map(|(z, crossing)| (v.zones[z].cells[player.0 as usize].clone(), crossing));
        w.run();
        if let Some(cells) = w.paths.iter().find(|(end, _)| *end == to).map(|(_, c)| c) {
            return Some((cells.clone(), to, pattern.en_passant.clone()));
        }
    }
    None
}

/// Destinations (with tags) the piece on `from` reaches by rules 1-10, without the
/// `not attacked` rule.
fn piece_moves(
    v: &Variant,
    options: &[bool],
    cells: &[Option<(PlayerId, PieceId)>],
    used: &[(PlayerId, PieceId, TagId)],
    from: Cell,
) -> Vec<(Cell, Option<TagId>)> {
    moves_of(v, options, cells, used, from, |_| true)
}

/// [`piece_moves`] by the patterns `which` picks.
fn moves_of(
    v: &Variant,
    options: &[bool],
    cells: &[Option<(PlayerId, PieceId)>],
    used: &[(PlayerId, PieceId, TagId)],
    from: Cell,
    which: impl Fn(&variantlab::variant::Pattern) -> bool,
) -> Vec<(Cell, Option<TagId>)> {
    let (player, kind) = cells[from.index()].expect("a piece stands there");
    let mut out = Vec::new();
    for pattern in &v.piece(kind).moves {
        // Rule 73: a capture by jumping takes nothing on its end; [`chains`] makes it.
        if !which(pattern) || jumps(pattern) {
            continue;
        }
        if !holds(pattern.guard, options) || !starts_here(v, pattern, player, kind, from) {
            continue;
        }
        if let Some(t) = pattern.tag
            && v.tag(t).once_per_game
            && used.contains(&(player, kind, t))
        {
            continue;
        }
        for to in reach(v, pattern, player, cells, from) {
            let allowed = match cells[to.index()] {
                // Rule 80: the start is empty once the piece has left it.
                _ if pattern.to_start => true,
                None => matches!(pattern.dest, Dest::Empty | Dest::Either),
                Some((owner, _)) if owner == player => false,
                Some((_, victim)) => {
                    matches!(pattern.dest, Dest::Enemy | Dest::Either)
                        && pattern.target.is_none_or(|t| t == victim)
                        && may_capture(v, options, kind, victim)
                }
            };
            if allowed {
                out.push((to, pattern.tag));
            }
        }
    }
    out
}

/// Whether a piece of kind `attacker` may capture one of kind `victim`.
fn may_capture(v: &Variant, options: &[bool], attacker: PieceId, victim: PieceId) -> bool {
    v.piece(victim)
        .captured_only_by
        .iter()
        .filter(|(guard, _)| holds(*guard, options))
        .all(|(_, kinds)| kinds.contains(&attacker))
}

/// Whether a piece of another player than `owner` could capture what stands on `cell`.
fn attacked(
    v: &Variant,
    options: &[bool],
    cells: &[Option<(PlayerId, PieceId)>],
    used: &[(PlayerId, PieceId, TagId)],
    cell: Cell,
    owner: PlayerId,
) -> bool {
    v.board.cells().any(|c| {
        matches!(cells[c.index()], Some((p, _)) if p != owner && p != NO_ONE)
            && piece_moves(v, options, cells, used, c)
                .iter()
                .any(|(to, _)| *to == cell)
    })
}

/// Whether bearing `b` lies less than half a turn clockwise of bearing `a`.
fn clockwise(a: u16, b: u16) -> bool {
    let (a, b) = (a as i32, b as i32);
    let mut d = b - a;
    while d < 0 {
        d += 360;
    }
    d > 0 && d < 180
}

/// The smaller angle between two bearings, 0..=180.
fn angle(a: u16, b: u16) -> u16 {
    let d = (a as i32 - b as i32).rem_euclid(360);
    d.min(360 - d) as u16
}

/// Whether `b - a` is a direction vector of the given kind.
fn adjacent(board: &Board, a: Point, b: Point, kind: Kind) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    board
        .directions()
        .iter()
        .any(|d| d.kind == kind && d.dx == dx && d.dy == dy)
}

/// Indices (into the board's direction table) a term allows.
fn term_directions(
    board: &Board,
    term: &DirTerm,
    forward: Option<u16>,
    prev: Option<u16>,
) -> BTreeSet<usize> {
    let dirs = board.directions();
    let mut set: BTreeSet<usize> = match term.base {
        DirBase::Kind(k) => (0..dirs.len()).filter(|&i| dirs[i].kind == k).collect(),
        DirBase::Any => (0..dirs.len()).collect(),
        DirBase::Compass(d) => [d.0 as usize].into_iter().collect(),
    };
    for q in &term.qualifiers {
        let reference = if *q == Qualifier::Outward {
            prev
        } else {
            forward
        };
        let Some(r) = reference else {
            return BTreeSet::new();
        };
        set.retain(|&i| {
            let a = angle(dirs[i].bearing, r);
            match q {
                Qualifier::Forward => a < 90,
                Qualifier::Backward => a > 90,
                Qualifier::Sideways => a == 90,
                Qualifier::StraightForward => a == 0,
                Qualifier::StraightBackward => a == 180,
                Qualifier::Outward => a > 0 && a < 90,
                // The player's right turns clockwise from forward.
                Qualifier::Right => a > 0 && a < 180 && clockwise(r, dirs[i].bearing),
                Qualifier::Left => a > 0 && a < 180 && !clockwise(r, dirs[i].bearing),
            }
        });
    }
    set
}

/// Indices a leg's directions allow: included terms less excepted terms.
fn leg_directions(
    board: &Board,
    expr: &DirExpr,
    forward: Option<u16>,
    prev: Option<u16>,
) -> Vec<usize> {
    let mut include = BTreeSet::new();
    for t in &expr.include {
        include.extend(term_directions(board, t, forward, prev));
    }
    let mut except = BTreeSet::new();
    for t in &expr.except {
        except.extend(term_directions(board, t, forward, prev));
    }
    include.difference(&except).copied().collect()
}

/// Every cell a pattern reaches from `from` by some path whose intermediate landing
/// cells are empty (rules 1-7, 15); what stands on the destination is not looked at.
fn reach(
    v: &Variant,
    pattern: &Pattern,
    player: PlayerId,
    cells: &[Option<(PlayerId, PieceId)>],
    from: Cell,
) -> BTreeSet<Cell> {
    walked(v, pattern, player, cells, from, &[]).map_or_else(BTreeSet::new, |w| w.found)
}

/// The walk of every path of a pattern from `from` (rules 1-7, 15, 22, 23, 68, 71,
/// 73), none jumping a piece of `taken`; `None` when rule 68 forbids the pattern.
fn walked<'a>(
    v: &'a Variant,
    pattern: &'a Pattern,
    player: PlayerId,
    cells: &'a [Option<(PlayerId, PieceId)>],
    from: Cell,
    taken: &[Cell],
) -> Option<Walk<'a>> {
    let forward = v
        .player(player)
        .forward
        .map(|d| v.board.directions()[d.0 as usize].bearing);
    if !nearby_allows(v, pattern, player, cells, from) {
        return None;
    }
    let mut w = Walk::new(&v.board, pattern, forward, cells, from);
    w.zone = pattern
        .within
        .map(|z| v.zones[z].cells[player.0 as usize].clone());
    // Rule 71.
    w.outside = pattern
        .outside
        .map(|(z, crossing)| (v.zones[z].cells[player.0 as usize].clone(), crossing));
    w.taken = taken.to_vec();
    w.run();
    Some(w)
}

/// Rule 73: whether a pattern captures the pieces it jumps.
fn jumps(pattern: &Pattern) -> bool {
    pattern.hurdle.as_ref().is_some_and(|h| h.captures)
}

/// A chain of captures by jumping (rule 74): its end, its tag, the pieces taken (in
/// the order taken: rule 87), the cells landed on before the end, and the kind it made
/// at once (78).
type Chain = (Cell, Option<TagId>, Vec<Cell>, Vec<Cell>, Option<PieceId>);

/// Rules 73, 74 and 76-79: every chain of captures by jumping of the piece on `from`.
fn chains(
    v: &Variant,
    options: &[bool],
    cells: &Cells,
    used: &[(PlayerId, PieceId, TagId)],
    from: Cell,
) -> BTreeSet<Chain> {
    let (player, kind) = cells[from.index()].expect("a piece stands there");
    let mut chaining = Chaining {
        v,
        options,
        used,
        player,
        start: from,
        kind,
        board: cells.to_vec(),
        taken: vec![],
        landed: vec![],
        out: BTreeSet::new(),
    };
    // A capture without `again` is never a link: it is a move of its own.
    for pattern in open_patterns(v, options, used, player, kind, from) {
        if jumps(pattern) && !pattern.again {
            for (end, jumped) in jump_ends(v, options, pattern, cells, from, &[]) {
                let taken = nearest_first(v, from, &jumped);
                chaining.out.insert((end, pattern.tag, taken, vec![], None));
            }
        }
    }
    chaining.follow(from, kind, None, None);
    // Chains with the same end, pieces taken and kind made are one move, but for the
    // places of the kinds of each `earliest` preference in their orders (rule 87): the
    // least of their tags.
    let earliest = earliest_kinds(v);
    let one_move = |end: Cell, taken: &[Cell], made: Option<PieceId>| {
        let mut set = taken.to_vec();
        set.sort();
        let rows: Vec<Vec<bool>> = (earliest.iter())
            .map(|kinds| places(cells, taken, *kinds))
            .collect();
        (end, set, made, rows)
    };
    let mut least = std::collections::BTreeMap::new();
    for (end, tag, taken, _, made) in &chaining.out {
        let t = least.entry(one_move(*end, taken, *made)).or_insert(*tag);
        *t = (*t).min(*tag);
    }
    chaining
        .out
        .into_iter()
        .map(|(end, _, taken, landed, made)| {
            let tag = least[&one_move(end, &taken, made)];
            (end, tag, taken, landed, made)
        })
        .collect()
}

/// Rule 87: the pieces on `jumped`, taken by one capture from `from`, in the order it
/// takes them: nearest its start first.
fn nearest_first(v: &Variant, from: Cell, jumped: &[Cell]) -> Vec<Cell> {
    let start = v.board.point(from);
    let mut order = jumped.to_vec();
    order.sort_by_key(|c| {
        let p = v.board.point(*c);
        ((p.0 - start.0).pow(2) + (p.1 - start.1).pow(2), *c)
    });
    order
}

/// Rule 74: the cells each chain of the piece on `from` that ends on `to`, taking the
/// pieces on `jumped` (sorted), lands on before its end; of those, when the chains are
/// legal moves, only those each `earliest` preference keeps (rule 87).
pub fn landings(
    v: &Variant,
    options: &[bool],
    pos: &Simple,
    from: Cell,
    to: Cell,
    jumped: &[Cell],
) -> BTreeSet<Vec<Cell>> {
    let cells = walled(pos);
    let mut kept: Vec<Chain> = chains(v, options, &cells, &pos.used, from)
        .into_iter()
        .filter(|(end, _, taken, ..)| {
            let mut set = taken.clone();
            set.sort();
            *end == to && set == jumped
        })
        .collect();
    // These chains take the same pieces, so every other preference ranks them alike,
    // and the legal move is among those ranked best by each `earliest` one in turn.
    for kinds in earliest_kinds(v) {
        let row = |(_, _, taken, ..): &Chain| places(&cells, taken, kinds);
        let best = kept.iter().map(row).max().unwrap_or_default();
        kept.retain(|c| row(c) == best);
    }
    kept.into_iter()
        .map(|(_, _, _, landed, _)| landed)
        .collect()
}

/// A link of a chain: the pattern that makes it, where it lands and the pieces it
/// jumps (sorted).
type Link<'a> = (&'a Pattern, Cell, Vec<Cell>);

/// A chain under way (rules 74 and 76-79).
struct Chaining<'a> {
    v: &'a Variant,
    options: &'a [bool],
    used: &'a [(PlayerId, PieceId, TagId)],
    player: PlayerId,
    /// Where the chain started, and the kind it started as.
    start: Cell,
    kind: PieceId,
    /// The board as the links so far left it: the piece where it landed (as the kind
    /// it now is), its start empty, the pieces taken at once gone, the others there.
    board: Vec<Option<(PlayerId, PieceId)>>,
    /// The pieces taken, in the order jumped.
    taken: Vec<Cell>,
    /// The cells landed on, in order.
    landed: Vec<Cell>,
    out: BTreeSet<Chain>,
}

/// What a link changes, to be put back.
type Saved = (Vec<Option<(PlayerId, PieceId)>>, usize, usize);

impl<'a> Chaining<'a> {
    /// The links the piece standing on `here` as `kind` may make next, none going
    /// straight back along `back` (rule 77) and none taking the chain past 32 pieces.
    fn links(&self, here: Cell, kind: PieceId, back: Option<Point>) -> Vec<Link<'a>> {
        let mut out = vec![];
        for pattern in open_patterns(self.v, self.options, self.used, self.player, kind, here) {
            if !pattern.again || !jumps(pattern) {
                continue;
            }
            let ends = jump_ends(
                self.v,
                self.options,
                pattern,
                &self.board,
                here,
                &self.taken,
            );
            for (end, jumped) in ends {
                let turns_back = back.is_some_and(|b| opposite(b, self.way(here, end)));
                if self.taken.len() + jumped.len() <= 32 && !turns_back {
                    out.push((pattern, end, jumped));
                }
            }
        }
        out
    }

    /// The vector of a link from `a` to `b`.
    fn way(&self, a: Cell, b: Cell) -> Point {
        let (p, q) = (self.v.board.point(a), self.v.board.point(b));
        (q.0 - p.0, q.1 - p.1)
    }

    fn save(&self) -> Saved {
        (self.board.clone(), self.taken.len(), self.landed.len())
    }

    fn restore(&mut self, (board, taken, landed): Saved) {
        self.board = board;
        self.taken.truncate(taken);
        self.landed.truncate(landed);
    }

    /// Makes a link from `here`, the piece being `kind`: the pieces it jumps are taken
    /// (and leave the board when it takes them at once, rule 76), and a promotion at
    /// once that the chain so far makes turns the piece into its new kind where it
    /// lands (78). Returns the kind it now is and, with `never turning back`, the
    /// vector the next link may not turn straight back along (77).
    fn land(&mut self, here: Cell, kind: PieceId, link: &Link) -> (PieceId, Option<Point>) {
        let (pattern, end, jumped) = link;
        self.board[here.index()] = None;
        if pattern.hurdle.as_ref().is_some_and(|h| h.at_once) {
            for c in jumped {
                self.board[c.index()] = None;
            }
        }
        self.board[end.index()] = Some((self.player, kind));
        self.taken.extend(nearest_first(self.v, here, jumped));
        self.landed.push(*end);
        let now = self.crowned(kind, *end).unwrap_or(kind);
        self.board[end.index()] = Some((self.player, now));
        let back = pattern.never_turning_back.then(|| self.way(here, *end));
        (now, back)
    }

    /// Rule 78: the kind a promotion at once makes the piece, standing as `kind`, when
    /// the chain so far, from its start to `to`, makes one.
    fn crowned(&self, kind: PieceId, to: Cell) -> Option<PieceId> {
        let p = applying(
            self.v,
            self.options,
            self.player,
            kind,
            self.start,
            to,
            true,
        )?;
        if !p.at_once {
            return None;
        }
        promotion_kinds(self.v, self.options, &self.board, self.player, kind, p)
            .first()
            .copied()
    }

    /// Rule 74: goes on from `here`, where the piece stands as `kind` and the last
    /// link (tagged `tag`) forbids turning back along `back`, while a link can be made;
    /// records the chain where none can.
    fn follow(&mut self, here: Cell, kind: PieceId, tag: Option<TagId>, back: Option<Point>) {
        let links = self.links(here, kind, back);
        if links.is_empty() {
            if !self.taken.is_empty() {
                let taken = self.taken.clone();
                let before = self.landed[..self.landed.len() - 1].to_vec();
                let made = (kind != self.kind).then_some(kind);
                self.out.insert((here, tag, taken, before, made));
            }
            return;
        }
        // Rule 79: of the links over the same pieces, those from which the chain goes
        // on, if any.
        let goes_on: Vec<bool> = links
            .iter()
            .map(|link| {
                let saved = self.save();
                let (now, back) = self.land(here, kind, link);
                let more = !self.links(link.1, now, back).is_empty();
                self.restore(saved);
                more
            })
            .collect();
        for (i, link) in links.iter().enumerate() {
            let may_stop =
                (links.iter().zip(&goes_on)).all(|(other, &more)| !more || other.2 != link.2);
            if !goes_on[i] && !may_stop {
                continue;
            }
            let saved = self.save();
            let (now, back) = self.land(here, kind, link);
            self.follow(link.1, now, link.0.tag, back);
            self.restore(saved);
        }
    }
}

/// Rule 77: whether two vectors point straight opposite ways.
fn opposite(a: Point, b: Point) -> bool {
    a.0 * b.1 == a.1 * b.0 && a.0 * b.0 + a.1 * b.1 < 0
}

/// The holding patterns of `player`'s `kind` that may start on `from` (rules 9, 10, 14).
fn open_patterns<'a>(
    v: &'a Variant,
    options: &[bool],
    used: &[(PlayerId, PieceId, TagId)],
    player: PlayerId,
    kind: PieceId,
    from: Cell,
) -> Vec<&'a Pattern> {
    v.piece(kind)
        .moves
        .iter()
        .filter(|p| holds(p.guard, options) && starts_here(v, p, player, kind, from))
        .filter(|p| {
            p.tag
                .is_none_or(|t| !(v.tag(t).once_per_game && used.contains(&(player, kind, t))))
        })
        .collect()
}

/// Rule 73: each empty end a capturing pattern reaches from `from` with the pieces it
/// jumps there (sorted), none of `taken`, each one the mover may capture.
fn jump_ends(
    v: &Variant,
    options: &[bool],
    pattern: &Pattern,
    cells: &Cells,
    from: Cell,
    taken: &[Cell],
) -> BTreeSet<(Cell, Vec<Cell>)> {
    let (player, kind) = cells[from.index()].expect("a piece stands there");
    let Some(w) = walked(v, pattern, player, cells, from, taken) else {
        return BTreeSet::new();
    };
    // Rules 80 and 81: the end is the start (empty once left), an enemy the move
    // takes too, or empty.
    let end_allowed = |end: &Cell| match cells[end.index()] {
        _ if pattern.to_start => *end == from,
        None => pattern.dest != Dest::Enemy,
        Some((owner, victim)) => {
            pattern.dest == Dest::Enemy
                && owner != player
                && owner != NO_ONE
                && !taken.contains(end)
                && pattern.target.is_none_or(|t| t == victim)
                && may_capture(v, options, kind, victim)
        }
    };
    w.jumps
        .into_iter()
        .filter(|(end, jumped)| {
            end_allowed(end)
                && jumped.iter().all(|c| {
                    let (_, victim) = cells[c.index()].expect("a piece jumped");
                    may_capture(v, options, kind, victim)
                })
        })
        .collect()
}

struct Walk<'a> {
    board: &'a Board,
    pattern: &'a Pattern,
    forward: Option<u16>,
    cells: &'a [Option<(PlayerId, PieceId)>],
    from: Cell,
    start: Point,
    found: BTreeSet<Cell>,
    /// Steps taken by each finished leg.
    counts: Vec<u32>,
    /// When set, every accepted path's end and the cells its steps landed on before it.
    record_paths: bool,
    paths: Vec<(Cell, Vec<Cell>)>,
    trail: Vec<Point>,
    /// Per point of the path: whether a non-leap step landed on it.
    stepped: Vec<bool>,
    /// Rule 23: the zone the whole move stays in.
    zone: Option<Vec<Cell>>,
    /// Rule 71: the zone the move's end (and passed cells) keep out of, with whether
    /// the move may cross it (`landing outside`).
    outside: Option<(Vec<Cell>, bool)>,
    /// Rule 74: pieces taken earlier in the chain, which may not be jumped again.
    taken: Vec<Cell>,
    /// Rule 73: for a capturing pattern, each accepted path's end and the pieces it
    /// jumps.
    jumps: BTreeSet<(Cell, Vec<Cell>)>,
}

impl<'a> Walk<'a> {
    fn new(
        board: &'a Board,
        pattern: &'a Pattern,
        forward: Option<u16>,
        cells: &'a [Option<(PlayerId, PieceId)>],
        from: Cell,
    ) -> Walk<'a> {
        Walk {
            board,
            pattern,
            forward,
            cells,
            from,
            start: board.point(from),
            found: BTreeSet::new(),
            counts: vec![],
            record_paths: false,
            paths: vec![],
            trail: vec![],
            stepped: vec![false],
            zone: None,
            outside: None,
            taken: vec![],
            jumps: BTreeSet::new(),
        }
    }

    fn run(&mut self) {
        if self.pattern.legs.is_empty() {
            return;
        }
        let first = leg_directions(
            self.board,
            &self.pattern.legs[0].directions,
            self.forward,
            None,
        );
        let mut path = vec![self.start];
        let mut steps = Vec::new();
        self.walk(0, 0, &first, None, &mut path, &mut steps, false);
    }
}

impl Walk<'_> {
    fn bearing(&self, d: usize) -> u16 {
        self.board.directions()[d].bearing
    }

    /// Whether a board point counts as empty: nothing on it, or the mover's start cell.
    fn empty(&self, p: Point) -> bool {
        match self.board.at(p) {
            Some(c) => c == self.from || self.cells[c.index()].is_none(),
            None => false,
        }
    }

    /// Extends a path that has taken `taken` steps of leg `leg`. `set` is the leg's
    /// direction set, `fixed` the direction a direct leg has chosen, `by_step`
    /// whether the current point was reached by a non-leap step.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        leg: usize,
        taken: u32,
        set: &[usize],
        fixed: Option<usize>,
        path: &mut Vec<Point>,
        steps: &mut Vec<usize>,
        by_step: bool,
    ) {
        let legs = &self.pattern.legs;
        let l = &legs[leg];
        let here = *path.last().expect("the path holds the start");

        // End this leg here.
        if taken >= l.min {
            self.counts.push(taken);
            if leg + 1 == legs.len() {
                if !self.pattern.equal_legs || self.counts.iter().all(|c| *c == self.counts[0]) {
                    self.trail.clone_from(path);
                    self.finish(here);
                    if self.pattern.repeated {
                        self.repeat(path, steps);
                    }
                }
            } else {
                let prev = steps.last().map(|&d| self.bearing(d));
                let next =
                    leg_directions(self.board, &legs[leg + 1].directions, self.forward, prev);
                self.walk(leg + 1, 0, &next, None, path, steps, by_step);
            }
            self.counts.pop();
        }

        // Or take one more step of this leg.
        if l.max.is_some_and(|m| taken >= m) {
            return;
        }
        assert!(
            l.max.is_some() || l.direct,
            "a winding leg needs a largest count"
        );
        if l.leap && l.direct && taken > 0 && !self.board.within_bounds(here) {
            return;
        }
        // The point is left behind, so it is not the final point. A move over pieces
        // counts them when it ends (rule 22).
        if by_step && !self.empty(here) && self.pattern.hurdle.is_none() {
            return;
        }
        let choices: Vec<usize> = match fixed {
            Some(d) => vec![d],
            None => set.to_vec(),
        };
        for d in choices {
            let b = self.bearing(d);
            if self.pattern.never_reversing
                && steps.iter().any(|&s| self.bearing(s) == (b + 180) % 360)
            {
                continue;
            }
            let dir = &self.board.directions()[d];
            let next = (here.0 + dir.dx, here.1 + dir.dy);
            if !l.leap && self.board.at(next).is_none() {
                continue;
            }
            if let Some(kind) = self.pattern.trail {
                if path.contains(&next) {
                    continue;
                }
                let earlier = &path[..path.len() - 1];
                if earlier.iter().any(|&q| adjacent(self.board, q, next, kind)) {
                    continue;
                }
            }
            path.push(next);
            steps.push(d);
            self.stepped.push(!l.leap);
            self.walk(
                leg,
                taken + 1,
                set,
                if l.direct { Some(d) } else { None },
                path,
                steps,
                !l.leap,
            );
            path.pop();
            steps.pop();
            self.stepped.pop();
        }
    }

    /// Rule 38: the path's steps made again and again from its end, while each making
    /// could end the move; the ends left behind are passed cells and must be empty.
    fn repeat(&mut self, path: &[Point], steps: &[usize]) {
        let stepped = self.stepped.clone();
        let first = path.len() - 1;
        self.trail = path.to_vec();
        loop {
            let end = *self.trail.last().expect("the path holds the start");
            if !self.empty(end) || end == self.start {
                break;
            }
            let last = self.stepped.len() - 1;
            self.stepped[last] = true;
            let mut here = end;
            for (i, &d) in steps.iter().enumerate() {
                let dir = &self.board.directions()[d];
                here = (here.0 + dir.dx, here.1 + dir.dy);
                let by_step = stepped[i + 1];
                let inside = i + 1 < first;
                if by_step && (self.board.at(here).is_none() || (inside && !self.empty(here))) {
                    self.stepped = stepped;
                    return;
                }
                self.trail.push(here);
                self.stepped.push(by_step);
            }
            if self.board.at(here).is_none()
                || here == self.start
                || self
                    .pattern
                    .end_not_adjacent
                    .iter()
                    .any(|&k| adjacent(self.board, self.start, here, k))
            {
                break;
            }
            self.finish(here);
        }
        self.stepped = stepped;
    }

    /// Records the end of a complete path when it is a cell the move may end on.
    fn finish(&mut self, end: Point) {
        let Some(cell) = self.board.at(end) else {
            return;
        };
        // Rule 80: a move `to start` ends on its start, any other never does.
        if (end == self.start) != self.pattern.to_start {
            return;
        }
        if self
            .pattern
            .end_not_adjacent
            .iter()
            .any(|&k| adjacent(self.board, self.start, end, k))
        {
            return;
        }
        // Rules 7 and 22: the passed cells, in order.
        let passed: Vec<Cell> = (1..self.trail.len() - 1)
            .filter(|&i| self.stepped[i] && self.trail[i] != self.start)
            .filter_map(|i| self.board.at(self.trail[i]))
            .collect();
        let mut full: Vec<Cell> = vec![];
        if let Some(h) = &self.pattern.hurdle {
            full = passed
                .iter()
                .copied()
                .filter(|c| self.cells[c.index()].is_some())
                .collect();
            let mover = self.cells[self.from.index()].map(|(p, _)| p);
            // Rule 73: whose pieces may be jumped.
            let of_side = |c: &Cell| {
                let (owner, _) = self.cells[c.index()].expect("a piece");
                let enemy = Some(owner) != mover && owner != NO_ONE;
                match h.side {
                    Holder::Enemy => enemy,
                    Holder::Friend => Some(owner) == mover,
                    // Friends are never captured, so a capture jumps enemies only.
                    Holder::Piece => !h.captures || enemy,
                }
            };
            if full.len() != h.count as usize
                || full
                    .iter()
                    .any(|c| h.except.contains(&self.cells[c.index()].unwrap().1))
                || (h.right_behind && full.last() != passed.last())
                || !full.iter().all(of_side)
                || full.iter().any(|c| self.taken.contains(c))
            {
                return;
            }
        }
        if let Some(z) = &self.zone
            && (!z.contains(&self.from)
                || !z.contains(&cell)
                || passed.iter().any(|c| !z.contains(c)))
        {
            return;
        }
        // Rule 71: the start may be in the zone; nothing else is, but the cells crossed
        // with `landing outside`.
        if let Some((z, crossing)) = &self.outside
            && (z.contains(&cell) || !crossing && passed.iter().any(|c| z.contains(c)))
        {
            return;
        }
        self.found.insert(cell);
        if self.pattern.hurdle.as_ref().is_some_and(|h| h.captures) {
            full.sort();
            self.jumps.insert((cell, full));
        }
        if self.record_paths {
            let passed = self.trail[1..self.trail.len() - 1]
                .iter()
                .filter_map(|p| self.board.at(*p))
                .collect();
            self.paths.push((cell, passed));
        }
    }
}

/// The kinds `me` holds in hand, with repeats next to each other dropped.
fn held_kinds(pos: &Simple, me: PlayerId) -> Vec<PieceId> {
    let mut kinds: Vec<PieceId> = pos
        .hands
        .iter()
        .filter(|(p, _)| *p == me)
        .map(|(_, k)| *k)
        .collect();
    kinds.dedup();
    kinds
}

/// The winner of a two-player game that `ended` says is over, `to_move` to move: the
/// player the outcome gives all, or the other of the one it gives nothing.
pub fn winner((outcome, named): Ended, to_move: PlayerId) -> Option<PlayerId> {
    let Outcome::Scores { who, got, of } = outcome else {
        return None;
    };
    let other = |p: PlayerId| PlayerId(1 - p.0);
    let p = match who {
        variantlab::Who::Mover => other(to_move),
        variantlab::Who::That | variantlab::Who::Checker => named.unwrap_or(to_move),
        variantlab::Who::Player(p) => p,
    };
    match got {
        _ if got == of => Some(p),
        0 => Some(other(p)),
        _ => None,
    }
}
