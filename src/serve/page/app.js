// The variantlab studio: plays a variant, shows its footprints, and edits its file.
// Every rule runs on the server; this script only draws what the JSON API answers.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const page = {
  variant: null, info: null, game: null, selected: null, dropping: null, walling: null,
  view: 'game', piece: null, at: null, flipped: false, ply: null,
  stamp: null, computer: '', level: 2, seed: null, startPosition: null,
  // Set while a variant loads or reloads, so the file watcher never starts a second,
  // empty game over the one the URL asked for.
  loading: 0,
};
const editor = { stamp: null, text: null, dirty: false, timer: null, checking: 0 };

// Every write carries the token the server put in this page: other pages cannot.
const token = document.querySelector('meta[name="variantlab-token"]').content;

async function api(method, path, body) {
  const init = { method, headers: { 'X-Variantlab-Token': token } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data;
  try {
    data = await res.json();
  } catch (_) {
    data = { error: res.statusText };
  }
  if (!res.ok) {
    const err = new Error(data.error || res.statusText);
    err.data = data;
    err.status = res.status;
    throw err;
  }
  return data;
}

function say(text) {
  $('message').textContent = text || '';
}

const variantPath = (id) => '/api/variants/' + encodeURIComponent(id || page.variant);

// ---- The game in the URL: variant, options, seed, start, opponent, moves. ----

function readUrl() {
  const q = new URLSearchParams(location.search);
  const hash = decodeURIComponent(location.hash.slice(1));
  const opts = {};
  for (const pair of (q.get('o') || '').split(',').filter(Boolean)) {
    const [k, v] = pair.split(':');
    opts[k] = v === 'on';
  }
  return {
    variant: q.get('v') || hash || null,
    seed: q.has('seed') ? Number(q.get('seed')) : null,
    position: q.get('p'),
    moves: (q.get('m') || '').split(' ').filter(Boolean),
    computer: q.get('c') || '',
    level: Number(q.get('l')) || 2,
    options: opts,
    flipped: q.get('f') === '1',
  };
}

function gameUrl() {
  const q = new URLSearchParams();
  q.set('v', page.variant);
  const opts = Object.entries(chosenOptions()).map(([k, v]) => k + ':' + (v ? 'on' : 'off'));
  if (opts.length) q.set('o', opts.join(','));
  if (page.seed !== null) q.set('seed', String(page.seed));
  if (page.startPosition) q.set('p', page.startPosition);
  if (page.computer) {
    q.set('c', page.computer);
    q.set('l', String(page.level));
  }
  if (page.flipped) q.set('f', '1');
  if (page.game && page.game.moves.length) q.set('m', page.game.moves.join(' '));
  return '?' + q.toString().replace(/%2C/g, ',').replace(/%3A/g, ':');
}

// Each change of the game is a step of the browser's history; Back steps back.
function remember(replace) {
  const url = gameUrl();
  if (url === location.search && !location.hash) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
}

window.addEventListener('popstate', () => restore(readUrl()).catch((e) => say(e.message)));

async function restore(want) {
  if (!want.variant) return;
  page.flipped = want.flipped;
  if (want.variant !== page.variant || !page.info) {
    await choose(want.variant, want, null);
    return;
  }
  setOptions(want.options);
  await startGame(want, null);
}

// ---- Variants and their rules. ----

async function loadList() {
  const data = await api('GET', '/api/variants');
  const list = $('variants');
  list.textContent = '';
  for (const v of data.variants) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.textContent = v.name;
    b.dataset.variant = v.id;
    if (!v.ok) b.classList.add('broken');
    b.title = v.file;
    b.addEventListener('click', () => choose(v.id, {}, false).catch((e) => say(e.message)));
    li.appendChild(b);
    list.appendChild(li);
  }
  const want = readUrl();
  if (want.variant && data.variants.some((v) => v.id === want.variant)) {
    page.flipped = want.flipped;
    await choose(want.variant, want, true);
  }
}

// Shows a variant; `want` (from the URL) says which game to set up, `mode` whether it
// replaces the browser's history entry (true), adds one (false) or neither (null).
async function choose(id, want, mode) {
  page.loading++;
  try {
    await openVariant(id, want || {}, mode);
  } finally {
    page.loading--;
  }
}

async function openVariant(id, want, mode) {
  page.variant = id;
  page.stamp = null;
  page.game = null;
  page.selected = null;
  page.walling = null;
  page.dropping = null;
  page.ply = null;
  page.computer = want.computer || '';
  page.level = want.level || 2;
  for (const b of document.querySelectorAll('#variants button')) {
    b.classList.toggle('active', b.dataset.variant === id);
  }
  say('');
  $('welcome').hidden = true;
  $('studio').hidden = false;
  await loadSource();
  const ok = await loadRules();
  if (!ok) return;
  setOptions(want.options || {});
  await startGame(want, mode);
}

// Reads the rules; false (with the diagnostics shown) when the file does not check.
async function loadRules() {
  const info = await api('GET', variantPath());
  page.info = info;
  page.stamp = info.stamp || null;
  document.title = (info.ok ? info.name : info.id + ' (does not check)') + ' \u2014 variantlab';
  if (!info.ok) {
    showDiagnostics(info.file + ' does not check', info.diagnostics);
    return false;
  }
  $('diagnostics').hidden = true;
  $('variant-name').textContent = info.name + (info.inventor ? ' (' + info.inventor + ')' : '');
  $('variant-about').textContent = (info.description || '').trim() + ' Board: ' + info.board + '.';
  $('seed-box').hidden = !info.random;
  const pieces = $('pieces');
  pieces.textContent = '';
  for (const p of info.pieces) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.textContent = p.name + ' (' + p.code + ')';
    b.dataset.piece = p.name;
    b.addEventListener('click', () => showFootprint(p.name, null));
    li.appendChild(b);
    pieces.appendChild(li);
  }
  fillSelect($('fp-player'), info.players.map((p) => [p.name, p.name]));
  fillSelect($('opponent'), [['', 'a person at this browser']].concat(
    info.players.map((p) => [p.name, 'the computer plays ' + p.name])), page.computer);
  fillSelect($('level'), [1, 2, 3, 4, 5, 6].map((n) => [String(n), String(n)]), String(page.level));
  page.pictures = new Map();
  page.notice = '';
  try {
    const pics = await api('GET', variantPath() + '/pictures');
    for (const p of pics.pictures) {
      page.pictures.set(p.player + '|' + p.piece, { url: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(p.svg), turns: p.turns });
    }
    page.notice = pics.problems.join('; ');
  } catch (_) {
    // Letters, then.
  }
  const options = $('options');
  const before = chosenOptions();
  options.textContent = '';
  $('options-box').hidden = info.options.length === 0;
  for (const o of info.options) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = o.name in before ? before[o.name] : o.default;
    box.dataset.option = o.name;
    label.appendChild(box);
    label.appendChild(document.createTextNode(' ' + o.name + (o.about ? ': ' + o.about : '')));
    options.appendChild(label);
    options.appendChild(document.createElement('br'));
  }
  return true;
}

function fillSelect(select, items, value) {
  const keep = value !== undefined ? value : select.value;
  select.textContent = '';
  for (const [v, text] of items) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = text;
    select.appendChild(o);
  }
  if (items.some(([v]) => v === keep)) select.value = keep;
}

function showDiagnostics(title, text) {
  $('diagnostics').hidden = false;
  $('diagnostics-title').textContent = title;
  $('diagnostics-text').textContent = text;
}

function setOptions(values) {
  for (const box of document.querySelectorAll('#options input[data-option]')) {
    if (box.dataset.option in values) box.checked = values[box.dataset.option];
  }
}

function chosenOptions() {
  const out = {};
  for (const box of document.querySelectorAll('#options input[data-option]')) {
    out[box.dataset.option] = box.checked;
  }
  return out;
}

// ---- Games. ----

// Counts the games started: an answer about an earlier game (a late reply of the
// computer, say) is dropped, not shown in place of the game on the board.
let gamesStarted = 0;

// Whether an answer asked for at `mark` still concerns the game on the board.
function stillShown(mark) {
  return mark.started === gamesStarted && mark.variant === page.variant
    && !!page.game && page.game.id === mark.id;
}

function markGame() {
  return { started: gamesStarted, variant: page.variant, id: page.game && page.game.id };
}

// Starts a game as `want` says (seed, position, moves, opponent); the moves are played
// on the server in turn, and the first refused one is reported.
async function startGame(want, replaceHistory) {
  const body = { variant: page.variant, options: chosenOptions() };
  page.seed = want.seed !== undefined && want.seed !== null && !Number.isNaN(want.seed) ? want.seed : null;
  if (page.info && !page.info.random) page.seed = null;
  page.startPosition = want.position || null;
  if (page.seed !== null) body.seed = page.seed;
  if (page.startPosition) body.position = page.startPosition;
  if (want.moves && want.moves.length) body.moves = want.moves;
  if (want.computer !== undefined) page.computer = want.computer;
  if (want.level) page.level = want.level;
  if (page.computer) {
    body.computer = page.computer;
    body.level = page.level;
  }
  $('opponent').value = page.computer;
  $('level').value = String(page.level);
  const mine = ++gamesStarted;
  try {
    const g = await api('POST', '/api/games', body);
    if (mine !== gamesStarted || body.variant !== page.variant) return null;
    page.game = g;
    page.selected = null;
    page.walling = null;
    page.dropping = null;
    page.ply = null;
    if (g.refused) {
      say('Move ' + (g.refused.ply + 1) + ' (' + g.refused.move + ') is not legal under these rules: '
        + g.refused.reason + '. The game stops before it.');
    } else if (!want.quiet) {
      say(page.notice || '');
    }
    showGame();
    if (replaceHistory !== null) remember(replaceHistory);
    return g;
  } catch (e) {
    say(e.message);
    if (e.data && e.data.diagnostics) showDiagnostics(page.variant + ' does not check', e.data.diagnostics);
    return null;
  }
}

function newGame() {
  const seed = page.info && page.info.random ? Math.floor(Math.random() * 4294967296) : null;
  return startGame({ seed, computer: page.computer, level: page.level }, false);
}

// The same game again with another opponent or level: the moves so far are kept.
function changeOpponent() {
  page.computer = $('opponent').value;
  page.level = Number($('level').value) || 2;
  const g = page.game;
  return startGame({
    seed: page.seed, position: page.startPosition, moves: g ? g.moves : [],
    computer: page.computer, level: page.level,
  }, false);
}

function showGame() {
  const g = page.game;
  page.view = 'game';
  page.piece = null;
  for (const b of document.querySelectorAll('#pieces button')) b.classList.remove('active');
  $('rule-text').hidden = true;
  drawBoard(g.svg);
  showHands();
  $('view-title').textContent = '';
  $('back').hidden = true;
  $('choice').hidden = true;
  showStatus();
  $('position').value = g.position;
  if (page.seed !== null) $('seed').value = String(page.seed);
  showMoves();
  decorate();
}

function showStatus() {
  const g = page.game;
  let text = g.ending
    ? 'Game over: ' + g.ending.result + ': ' + g.ending.reason + '.'
    : g.to_move + ' to move' + (g.check.length ? ', in check.' : '.');
  if (page.ply !== null) text = 'Looking at the game after move ' + page.ply + ' of ' + g.moves.length + '. ' + text;
  $('status').textContent = text;
  $('status').classList.toggle('check', g.check.length > 0 && page.ply === null);
}

// Moves paired by turn: one row per round of the players, each ply a button that
// shows the game as it was after it.
function showMoves() {
  const g = page.game;
  const list = $('move-list');
  list.textContent = '';
  const players = (page.info && page.info.players.length) || 2;
  const shown = page.ply === null ? g.short.length : page.ply;
  let row = null;
  g.short.forEach((text, i) => {
    if (i % players === 0) {
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = (i / players + 1) + '.';
      row.appendChild(num);
      list.appendChild(row);
    }
    const b = document.createElement('button');
    b.className = 'ply';
    b.dataset.ply = String(i + 1);
    b.dataset.move = g.moves[i];
    b.textContent = text;
    if (i + 1 === shown) b.classList.add('current');
    b.addEventListener('click', () => viewPly(i + 1));
    row.appendChild(b);
  });
  // Scrolls the list only, never the page.
  const current = list.querySelector('.current');
  if (current && page.ply !== null) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  } else {
    list.scrollTop = list.scrollHeight;
  }
}

// Shows the game after its first `ply` moves; the last one returns to the game.
async function viewPly(ply) {
  const g = page.game;
  if (!g) return;
  if (ply >= g.moves.length) {
    page.ply = null;
    const now = await api('GET', '/api/games/' + g.id);
    page.game = now;
    showGame();
    return;
  }
  const past = await api('GET', '/api/games/' + g.id + '?ply=' + Math.max(0, ply));
  page.ply = Math.max(0, ply);
  page.selected = null;
  page.walling = null;
  drawBoard(past.svg);
  showStatus();
  $('position').value = past.position;
  showMoves();
  decorateLast();
}

// Each player's pieces in hand, one row above and one below the board: the player
// drawn at the bottom (the first, unless the board is flipped) below.
function showHands() {
  const g = page.game;
  const top = $('hand-top');
  const bottom = $('hand-bottom');
  top.textContent = '';
  bottom.textContent = '';
  // Games with hands show them from the start, and the board leaves them room.
  $('board').classList.toggle('with-hands', g.with_hands);
  if (!g.with_hands) return;
  g.hands.forEach((h, i) => {
    const row = document.createElement('p');
    row.className = 'hand';
    row.dataset.player = h.player;
    row.appendChild(document.createTextNode(h.player + ' in hand: '));
    if (h.pieces.length === 0) row.appendChild(document.createTextNode('none'));
    for (const p of h.pieces) {
      const b = document.createElement('button');
      const picture = pictureOf(h.player, p.piece);
      if (picture) {
        const img = document.createElement('img');
        img.src = picture.url;
        img.alt = p.code;
        img.className = 'in-hand' + (picture.turns && page.flipped ? ' turned' : '');
        b.appendChild(img);
        if (p.count > 1) b.appendChild(document.createTextNode('\u00d7' + p.count));
      } else {
        b.textContent = p.count > 1 ? p.code + '\u00d7' + p.count : p.code;
      }
      b.title = p.piece + ' (' + p.count + ')';
      b.dataset.piece = p.piece;
      b.dataset.count = p.count;
      const droppable = page.ply === null && g.legal.some((m) => m.drop === p.piece) && h.player === g.to_move;
      b.disabled = !droppable;
      if (droppable) {
        b.addEventListener('click', () => {
          if (performance.now() >= handDrag.quietUntil) chooseDrop(p.piece);
        });
        b.addEventListener('pointerdown', (e) => startHandDrag(e, b, p.piece));
      }
      row.appendChild(b);
    }
    const below = (i === 0) !== page.flipped;
    (below ? bottom : top).appendChild(row);
  });
}

// A player's picture of a piece: { url, turns }, or undefined when it has its letter.
function pictureOf(player, piece) {
  return page.pictures && page.pictures.get(player + '|' + piece);
}

function chooseDrop(piece) {
  page.selected = null;
  page.walling = null;
  page.dropping = page.dropping === piece ? null : piece;
  $('choice').hidden = true;
  decorate();
}

// ---- Drawing the board: the server's picture, turned when flipped, with the
// page's marks on top. ----

function drawBoard(svgText) {
  const box = $('board');
  box.innerHTML = svgText;
  const svg = box.querySelector('svg');
  if (!svg) return;
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  const [x, y, w, h] = svg.getAttribute('viewBox').split(/\s+/).map(Number);
  const aspect = w / h;
  box.style.setProperty('--aspect', String(aspect));
  if (page.flipped && page.view === 'game') {
    const cx = x + w / 2;
    const cy = y + h / 2;
    for (const g of svg.querySelectorAll(':scope > g')) g.setAttribute('transform', 'rotate(180 ' + cx + ' ' + cy + ')');
    // Letters stay upright: each turns back about its own centre.
    for (const t of svg.querySelectorAll('.labels text, .piece text')) {
      t.setAttribute('transform', 'rotate(180 ' + t.getAttribute('x') + ' ' + t.getAttribute('y') + ')');
    }
  }
  drawPictures(svg);
  const overlay = document.createElementNS(SVG, 'g');
  overlay.setAttribute('class', 'overlay');
  overlay.setAttribute('pointer-events', 'none');
  const pieces = svg.querySelector('.pieces');
  if (pieces && pieces.getAttribute('transform')) overlay.setAttribute('transform', pieces.getAttribute('transform'));
  svg.appendChild(overlay);
  const under = document.createElementNS(SVG, 'g');
  under.setAttribute('class', 'underlay');
  under.setAttribute('pointer-events', 'none');
  if (pieces && pieces.getAttribute('transform')) under.setAttribute('transform', pieces.getAttribute('transform'));
  if (pieces) svg.insertBefore(under, pieces);
}

// A piece with a picture beside the variant file is drawn with it, upright, in place
// of its disc and letter. (An SVG in an <image> runs no script.)
function drawPictures(svg) {
  if (!page.pictures || page.pictures.size === 0) return;
  for (const piece of svg.querySelectorAll('.piece')) {
    const picture = pictureOf(piece.dataset.player, piece.dataset.piece);
    const disc = piece.querySelector('circle');
    if (!picture || !disc) continue;
    const cx = Number(disc.getAttribute('cx'));
    const cy = Number(disc.getAttribute('cy'));
    const size = Number(disc.getAttribute('r')) * 2.3;
    const text = piece.querySelector('text');
    const turn = text && text.getAttribute('transform');
    piece.textContent = '';
    add(piece, 'circle', { cx, cy, r: size / 2, fill: 'transparent' });
    const img = add(piece, 'image', { href: picture.url, x: cx - size / 2, y: cy - size / 2, width: size, height: size });
    // A picture pointing at the opponent turns with the board; others stay upright.
    if (turn && !picture.turns) img.setAttribute('transform', 'rotate(180 ' + cx + ' ' + cy + ')');
  }
}

function cellsNamed(name) {
  return document.querySelectorAll('#board .cell[data-cell="' + CSS.escape(name) + '"]');
}

function cellCentre(name) {
  const c = cellsNamed(name)[0];
  if (!c) return null;
  const b = c.getBBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, r: Math.min(b.width, b.height) / 2 };
}

function add(layer, tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  layer.appendChild(el);
  return el;
}

// The last move outlined (visible around a piece on any cell shape), check, the
// selected piece and where it may go: a dot for a quiet move, a ring for a capture.
function decorate() {
  const g = page.game;
  const overlay = document.querySelector('#board .overlay');
  const under = document.querySelector('#board .underlay');
  if (!overlay || !g) return;
  overlay.textContent = '';
  if (under) under.textContent = '';
  for (const c of document.querySelectorAll('#board .cell.selected, #board .cell.target')) {
    c.classList.remove('selected', 'target', 'capture');
  }
  for (const b of document.querySelectorAll('#hand-top button, #hand-bottom button')) {
    b.classList.toggle('active', b.dataset.piece === page.dropping && !b.disabled);
  }
  decorateLast();
  for (const cell of g.check) {
    const at = cellCentre(cell);
    if (at && under) add(under, 'circle', { class: 'check', 'data-cell': cell, cx: at.x, cy: at.y, r: at.r * 0.95, fill: 'url(#check-glow)' });
  }
  ensureGlow();
  // Walls: dark squares under the pieces.
  for (const cell of g.walls || []) {
    const at = cellCentre(cell);
    if (at && under) add(under, 'rect', { class: 'wall', 'data-cell': cell, x: at.x - at.r * 0.85, y: at.y - at.r * 0.85, width: at.r * 1.7, height: at.r * 1.7, fill: '#3b3b3b' });
  }
  if (page.ply !== null) return;
  if (page.walling) {
    // The move's second part: where its wall may go, each marked by a cross.
    for (const c of cellsNamed(page.walling[0].from)) c.classList.add('selected');
    for (const m of page.walling) {
      for (const c of cellsNamed(m.wall)) c.classList.add('target');
      const at = cellCentre(m.wall);
      if (!at) continue;
      const d = at.r * 0.35;
      add(overlay, 'path', { class: 'target-mark wall-target', 'data-cell': m.wall, d: 'M' + (at.x - d) + ' ' + (at.y - d) + 'L' + (at.x + d) + ' ' + (at.y + d) + 'M' + (at.x - d) + ' ' + (at.y + d) + 'L' + (at.x + d) + ' ' + (at.y - d), stroke: '#7a1f1f', 'stroke-width': at.r * 0.14, 'stroke-opacity': '0.8' });
    }
    return;
  }
  let targets = [];
  if (page.dropping) {
    targets = g.legal.filter((m) => m.drop === page.dropping);
  } else if (page.selected) {
    for (const c of cellsNamed(page.selected)) c.classList.add('selected');
    targets = g.legal.filter((m) => !m.drop && m.from === page.selected);
  }
  const seen = new Set();
  for (const m of targets) {
    if (seen.has(m.to)) continue;
    seen.add(m.to);
    for (const c of cellsNamed(m.to)) {
      c.classList.add('target');
      if (m.capture) c.classList.add('capture');
    }
    const at = cellCentre(m.to);
    if (!at) continue;
    if (m.capture) {
      add(overlay, 'circle', { class: 'target-mark capture', 'data-cell': m.to, cx: at.x, cy: at.y, r: at.r * 0.82, fill: 'none', stroke: '#1b5e20', 'stroke-opacity': '0.75', 'stroke-width': at.r * 0.16 });
    } else {
      add(overlay, 'circle', { class: 'target-mark quiet', 'data-cell': m.to, cx: at.x, cy: at.y, r: at.r * 0.26, fill: '#1b5e20', 'fill-opacity': '0.55' });
    }
  }
}

function decorateLast() {
  const overlay = document.querySelector('#board .overlay');
  if (!overlay) return;
  for (const old of overlay.querySelectorAll('.last-outline')) old.remove();
  for (const el of document.querySelectorAll('#board [data-last]')) {
    const copy = el.cloneNode(false);
    copy.removeAttribute('data-last');
    copy.setAttribute('class', 'last-outline');
    copy.setAttribute('data-of', el.getAttribute('data-last'));
    copy.setAttribute('fill', 'none');
    copy.setAttribute('stroke', '#e0a800');
    copy.setAttribute('stroke-width', '4');
    copy.setAttribute('stroke-linejoin', 'round');
    overlay.appendChild(copy);
  }
}

function ensureGlow() {
  const svg = document.querySelector('#board svg');
  if (!svg || svg.querySelector('#check-glow')) return;
  const defs = document.createElementNS(SVG, 'defs');
  defs.innerHTML = '<radialGradient id="check-glow"><stop offset="0%" stop-color="#ff1a1a" stop-opacity="1"/>'
    + '<stop offset="60%" stop-color="#e60000" stop-opacity="0.75"/><stop offset="100%" stop-color="#a00000" stop-opacity="0"/></radialGradient>';
  svg.insertBefore(defs, svg.firstChild);
}

// ---- Playing: click-click, drag and drop, keyboard. ----

function clickCell(cell) {
  if (page.view === 'footprint') return showFootprint(page.piece, cell);
  if (page.view !== 'game' || !page.game || page.ply !== null) return;
  const legal = page.game.legal.filter((m) => !m.drop);
  if (page.walling) {
    const chosen = page.walling.find((m) => m.wall === cell);
    page.walling = null;
    if (chosen) return play(chosen.notation);
    page.selected = null;
    page.walling = null;
    decorate();
    return;
  }
  if (page.dropping) {
    const drops = page.game.legal.filter((m) => m.drop === page.dropping && m.to === cell);
    page.dropping = null;
    if (drops.length === 1) return play(drops[0].notation);
    if (drops.length > 1) return offerChoice(drops, cell);
  }
  if (page.selected) {
    const moves = legal.filter((m) => m.from === page.selected && m.to === cell);
    // A move back to its own cell (a Lion's pass, or its capture without moving) is
    // offered, never made by the click that could mean "put it down".
    if (moves.length && cell === page.selected) return offerChoice(moves, cell);
    if (moves.length === 1) return play(moves[0].notation);
    // A move that leaves a wall: a second click says where.
    if (moves.length > 1 && moves.every((m) => m.wall)) {
      page.walling = moves;
      $('choice').hidden = true;
      return decorate();
    }
    if (moves.length > 1) return offerChoice(moves, cell);
  }
  // With nothing selected, a click places a copy (its `from` is another cell), or a
  // drop where every move is one (stones): one click, as the rule pages play them.
  if (!page.selected && !legal.some((m) => m.from === cell)) {
    const drops = page.game.legal.filter((m) => m.drop && m.to === cell);
    const placing = page.game.legal.every((m) => m.drop);
    if (drops.length === 1 && (placing || drops[0].from !== cell)) return play(drops[0].notation);
  }
  page.selected = legal.some((m) => m.from === cell) && page.selected !== cell ? cell : null;
  $('choice').hidden = true;
  decorate();
}

// Several moves between the same cells (a promotion's kinds, tags, or another choice
// the rules make): the choices, drawn as pieces, on the cell.
function offerChoice(moves, cell) {
  const box = $('choice');
  box.textContent = '';
  const head = document.createElement('p');
  head.textContent = 'Which move?';
  box.appendChild(head);
  const g = page.game;
  // A drop's mover is the player to move; the kind it lands as is written before `*`/`@`.
  const mover = g.pieces.find((p) => p.cell === moves[0].from) || (moves[0].drop ? { player: g.to_move, code: '' } : null);
  for (const m of moves) {
    const b = document.createElement('button');
    b.dataset.move = m.notation;
    b.title = m.notation;
    const landed = m.drop ? /^([^*@]+)[*@]/.exec(m.notation) : null;
    // A piece brought in through a gate is drawn as the choice, named by its short text.
    const gated = m.gate && page.info.pieces.find((p) => p.name === m.gate);
    const promo = landed || (gated ? [null, gated.code] : /[=+]([A-Za-z+]*)$/.exec(m.notation));
    const disc = document.createElement('span');
    disc.className = 'disc' + (mover && mover.player !== page.info.players[0].name ? ' dark' : '');
    disc.textContent = promo ? (promo[1] || '+' + (mover ? mover.code : '')) : (m.tag ? m.tag : (mover ? mover.code : '?'));
    const kind = promo && page.info.pieces.find((p) => p.code.toUpperCase() === promo[1].toUpperCase());
    const picture = kind && mover && pictureOf(mover.player, kind.name);
    if (picture) {
      disc.textContent = '';
      disc.classList.add('picture');
      disc.style.backgroundImage = 'url("' + picture.url + '")';
    }
    b.appendChild(disc);
    b.appendChild(document.createTextNode(' ' + (gated ? m.short : m.notation)));
    b.addEventListener('click', () => play(m.notation));
    box.appendChild(b);
  }
  const at = cellsNamed(cell)[0];
  const wrap = $('board-wrap').getBoundingClientRect();
  box.hidden = false;
  if (at) {
    const r = at.getBoundingClientRect();
    // Beside the cell, but never past the board's right edge (a phone's screen).
    const left = Math.min(r.left - wrap.left, wrap.width - box.offsetWidth);
    box.style.left = Math.max(0, left) + 'px';
    box.style.top = Math.max(0, r.top - wrap.top) + 'px';
  }
}

async function play(notation) {
  try {
    $('choice').hidden = true;
    const mark = markGame();
    const g = await api('POST', '/api/games/' + page.game.id + '/moves', { move: notation });
    if (!stillShown(mark)) return;
    page.game = g;
    page.selected = null;
    page.walling = null;
    page.dropping = null;
    page.walling = null;
    say('');
    showGame();
    remember(false);
  } catch (e) {
    say(e.message);
  }
}

async function undo() {
  if (!page.game) return;
  try {
    const mark = markGame();
    const g = await api('POST', '/api/games/' + page.game.id + '/undo');
    if (!stillShown(mark)) return;
    page.game = g;
    page.selected = null;
    page.walling = null;
    page.dropping = null;
    page.ply = null;
    say('');
    showGame();
    remember(false);
  } catch (e) {
    say(e.message);
  }
}

// A typed move: the short notation shown in the list (check marks optional), or the
// notation the server reads (`e2e4`, `e2-e4`, `P*5e`).
function typedMove(text) {
  const g = page.game;
  const bare = (s) => s.replace(/[+#!?]+$/, '');
  const t = text.trim();
  const bySan = g.legal.filter((m) => m.short === t || bare(m.short) === bare(t));
  if (bySan.length === 1) return bySan[0].notation;
  return t;
}

// Drag and drop: a piece follows the pointer and is played where it is let go; a
// press without moving is a click.
const drag = { el: null, from: null, start: null, moved: false, svg: null, quietUntil: 0 };

function svgPoint(svg, event) {
  const p = svg.createSVGPoint();
  p.x = event.clientX;
  p.y = event.clientY;
  const layer = svg.querySelector('.pieces');
  const m = (layer || svg).getScreenCTM();
  return m ? p.matrixTransform(m.inverse()) : p;
}

function onPointerDown(event) {
  if (event.button !== 0 || page.view !== 'game' || !page.game || page.ply !== null) return;
  const piece = event.target.closest('.piece');
  if (!piece) return;
  const cell = piece.dataset.cell;
  if (!page.game.legal.some((m) => !m.drop && m.from === cell)) return;
  const svg = piece.ownerSVGElement;
  drag.el = piece;
  drag.from = cell;
  drag.svg = svg;
  drag.start = svgPoint(svg, event);
  drag.moved = false;
  event.preventDefault();
}

function onPointerMove(event) {
  if (!drag.el) return;
  const p = svgPoint(drag.svg, event);
  const dx = p.x - drag.start.x;
  const dy = p.y - drag.start.y;
  if (!drag.moved && Math.hypot(dx, dy) < 4) return;
  if (!drag.moved) {
    drag.moved = true;
    page.selected = drag.from;
    page.dropping = null;
    decorate();
    drag.el.classList.add('dragging');
    drag.el.parentNode.appendChild(drag.el);
  }
  drag.el.setAttribute('transform', 'translate(' + dx + ' ' + dy + ')');
}

function onPointerUp(event) {
  if (!drag.el) return;
  const el = drag.el;
  const moved = drag.moved;
  drag.el = null;
  if (!moved) return;
  el.removeAttribute('transform');
  el.classList.remove('dragging');
  drag.quietUntil = performance.now() + 300;
  el.style.pointerEvents = 'none';
  const below = document.elementsFromPoint(event.clientX, event.clientY).find((e) => e.closest && e.closest('#board [data-cell]'));
  el.style.pointerEvents = '';
  const target = below ? below.closest('[data-cell]').dataset.cell : null;
  if (target && target !== drag.from) {
    clickCell(target);
  } else {
    page.selected = null;
    page.walling = null;
    decorate();
  }
}

// Dragging a piece from hand: a copy follows the pointer, the drop cells are marked,
// and letting go on one drops it there.
const handDrag = { piece: null, from: null, ghost: null, quietUntil: 0 };

function startHandDrag(event, button, piece) {
  if (event.button !== 0) return;
  handDrag.piece = piece;
  handDrag.from = button;
  handDrag.start = { x: event.clientX, y: event.clientY };
  handDrag.ghost = null;
  event.preventDefault();
}

function moveHandDrag(event) {
  if (!handDrag.piece) return;
  if (!handDrag.ghost) {
    if (Math.hypot(event.clientX - handDrag.start.x, event.clientY - handDrag.start.y) < 6) return;
    page.selected = null;
    page.walling = null;
    page.dropping = handDrag.piece;
    decorate();
    const ghost = handDrag.from.cloneNode(true);
    ghost.id = 'hand-ghost';
    ghost.disabled = true;
    document.body.appendChild(ghost);
    handDrag.ghost = ghost;
  }
  handDrag.ghost.style.left = event.clientX + 'px';
  handDrag.ghost.style.top = event.clientY + 'px';
}

function endHandDrag(event) {
  if (!handDrag.piece) return;
  const ghost = handDrag.ghost;
  handDrag.piece = null;
  if (!ghost) return;
  ghost.remove();
  handDrag.quietUntil = performance.now() + 300;
  drag.quietUntil = handDrag.quietUntil;
  const below = document.elementsFromPoint(event.clientX, event.clientY).find((e) => e.closest && e.closest('#board [data-cell]'));
  if (below) {
    clickCell(below.closest('[data-cell]').dataset.cell);
  } else {
    page.dropping = null;
    decorate();
  }
}

function onBoardClick(event) {
  // The click that ends a drag is not a click.
  if (performance.now() < (drag.quietUntil || 0)) return;
  const el = event.target.closest('[data-cell]');
  if (el) clickCell(el.dataset.cell);
}

// ---- Footprints: any piece, from any cell, for any player. ----

async function showFootprint(name, at) {
  const q = new URLSearchParams({
    piece: name,
    captures: $('captures').checked ? '1' : '0',
    options: Object.entries(chosenOptions()).map(([k, v]) => k + '=' + (v ? 'on' : 'off')).join(','),
    player: $('fp-player').value || '',
  });
  if (at) q.set('at', at);
  try {
    const f = await api('GET', variantPath() + '/footprint?' + q);
    page.view = 'footprint';
    page.piece = name;
    page.at = f.at;
    drawBoard(f.svg);
    $('hand-top').textContent = '';
    $('hand-bottom').textContent = '';
    $('choice').hidden = true;
    $('view-title').textContent = f.piece + ' (' + f.player + ') from ' + f.at + ': ' + f.marks.length
      + ' cells. Click any cell to move it there.';
    $('back').hidden = !page.game;
    for (const b of document.querySelectorAll('#pieces button')) {
      b.classList.toggle('active', b.dataset.piece === name);
    }
    const piece = page.info.pieces.find((p) => p.name === f.piece);
    $('rule-text').textContent = piece ? piece.rule : '';
    $('rule-text').hidden = !piece;
    say('');
  } catch (e) {
    say(e.message);
  }
}

// ---- The file beside the board: diagnostics as you type, safe saves. ----

async function loadSource() {
  try {
    const s = await api('GET', variantPath() + '/source');
    const same = s.text === editor.text;
    editor.stamp = s.stamp;
    editor.text = s.text;
    editor.dirty = false;
    $('source').value = s.text;
    $('file-name').textContent = s.file;
    if (!same) fileState('');
    $('conflict').hidden = true;
    await checkNow();
  } catch (e) {
    say(e.message);
  }
}

function fileState(text) {
  $('file-state').textContent = text;
}

function drawGutter(problems) {
  const lines = $('source').value.split('\n').length;
  const marks = new Map();
  for (const d of problems || []) {
    for (let l = d.line; l <= Math.max(d.line, d.end_line); l++) {
      const was = marks.get(l);
      if (!was || d.severity === 'error') marks.set(l, d);
    }
  }
  const gutter = $('gutter');
  gutter.textContent = '';
  for (let i = 1; i <= lines; i++) {
    const s = document.createElement('span');
    s.textContent = String(i);
    s.dataset.line = String(i);
    const d = marks.get(i);
    if (d) {
      s.className = 'marked ' + d.severity;
      s.title = d.code + ': ' + d.message;
    }
    gutter.appendChild(s);
    gutter.appendChild(document.createTextNode('\n'));
  }
  gutter.scrollTop = $('source').scrollTop;
}

async function checkNow() {
  const text = $('source').value;
  const mine = ++editor.checking;
  try {
    const r = await api('POST', variantPath() + '/check', { text });
    if (mine !== editor.checking) return;
    drawGutter(r.diagnostics);
    const list = $('problems');
    list.textContent = '';
    for (const d of r.diagnostics) {
      const li = document.createElement('li');
      li.className = d.severity;
      li.dataset.code = d.code;
      li.dataset.line = String(d.line);
      li.textContent = d.line + ':' + d.column + ' ' + d.severity + ' ' + d.code + ': ' + d.message
        + (d.label ? ' (' + d.label + ')' : '') + '. ' + d.help;
      li.addEventListener('click', () => selectSpan(d));
      list.appendChild(li);
    }
    list.dataset.ok = String(r.ok);
    if (r.diagnostics.length === 0) {
      const li = document.createElement('li');
      li.className = 'fine';
      li.textContent = 'The file checks.';
      list.appendChild(li);
    }
  } catch (e) {
    if (mine === editor.checking) say(e.message);
  }
}

function selectSpan(d) {
  const area = $('source');
  const lines = area.value.split('\n');
  const offset = (line, col) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
  area.focus();
  area.setSelectionRange(offset(d.line, d.column), offset(d.end_line, d.end_column));
}

function onEdit() {
  editor.dirty = $('source').value !== editor.text;
  fileState(editor.dirty ? 'not saved' : '');
  drawGutter(null);
  clearTimeout(editor.timer);
  editor.timer = setTimeout(checkNow, 250);
}

async function save(stamp) {
  const text = $('source').value;
  try {
    const r = await api('POST', variantPath() + '/source', { text, stamp: stamp || editor.stamp });
    editor.stamp = r.stamp;
    editor.text = text;
    editor.dirty = false;
    $('conflict').hidden = true;
    fileState('saved');
    await watch(true);
  } catch (e) {
    if (e.status === 409 && e.data && e.data.text !== undefined) {
      // Both texts stay: the editor's here, the file's below.
      editor.conflict = e.data;
      $('conflict').hidden = false;
      $('save-anyway').hidden = false;
      $('conflict-text').textContent = 'The file changed on disk since it was opened; nothing was written. Its text is below; yours is still in the editor.';
      $('conflict-other').textContent = e.data.text;
      fileState('not saved: the file changed on disk');
    } else {
      fileState('not saved: ' + e.message);
    }
  }
}

function takeDisk() {
  const c = editor.conflict;
  if (!c) return;
  const mine = $('source').value;
  $('source').value = c.text;
  editor.text = c.text;
  editor.stamp = c.stamp;
  editor.dirty = false;
  $('conflict-text').textContent = 'The editor now holds the file\'s text; yours is below.';
  $('conflict-other').textContent = mine;
  $('save-anyway').hidden = true;
  fileState('');
  checkNow();
}

// ---- Live reload: the server tells the page when the file changes (server-sent
// events); new rules reach the page within a second. ----

let follower = null;

// Listens to the shown variant's file, and only to it.
function follow() {
  const id = page.variant;
  if (follower && follower.id === id) return;
  if (follower) follower.source.close();
  follower = null;
  if (!id || typeof EventSource === 'undefined') return;
  const source = new EventSource(variantPath(id) + '/events');
  const f = { id, source, stamp: null };
  source.onmessage = (e) => {
    try {
      f.stamp = JSON.parse(e.data).stamp;
    } catch (_) {
      return;
    }
    if (follower === f) watch().catch(() => {});
  };
  follower = f;
}

// Reloads the rules when the file's stamp is news; `ask`: ask the server for it now.
async function watch(ask) {
  if (!page.variant || document.hidden || page.loading || page.stamp === null) return;
  const id = page.variant;
  let stamp = follower && follower.id === id ? follower.stamp : null;
  if (ask) {
    try {
      stamp = (await api('GET', variantPath(id) + '/stamp')).stamp;
    } catch (_) {
      return;
    }
  }
  if (stamp === null || page.loading || page.variant !== id || stamp === page.stamp) return;
  page.stamp = stamp;
  page.loading++;
  try {
    await reloadRules(stamp);
  } finally {
    page.loading--;
  }
}

async function reloadRules(stamp) {
  if (!editor.dirty) {
    await loadSource();
  } else if (stamp !== editor.stamp) {
    fileState('not saved; the file changed on disk');
  }
  const was = page.game;
  const ok = await loadRules();
  page.stamp = stamp;
  if (!ok) {
    say('The file changed and no longer checks; the game waits for it.');
    return;
  }
  if (!was) {
    await startGame({ seed: page.seed, computer: page.computer, level: page.level }, true);
    return;
  }
  const g = await startGame({
    seed: page.seed, position: page.startPosition, moves: was.moves,
    computer: page.computer, level: page.level, quiet: true,
  }, true);
  if (g && !g.refused) say('The rules changed; the game goes on (' + g.moves.length + ' moves still legal).');
}

// ---- Wiring. ----

function flip() {
  page.flipped = !page.flipped;
  if (page.view === 'game' && page.game) {
    if (page.ply !== null) viewPly(page.ply);
    else showGame();
  }
  remember(true);
}

function copyPosition() {
  const text = $('position').value;
  const done = () => say('Copied the position string.');
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(done));
  } else {
    fallbackCopy(done);
  }
}

function fallbackCopy(done) {
  const input = $('position');
  input.select();
  document.execCommand('copy');
  done();
}

function showTab(which) {
  $('tab-pieces').classList.toggle('active', which === 'pieces');
  $('tab-file').classList.toggle('active', which === 'file');
  $('pieces-panel').hidden = which !== 'pieces';
  $('file-panel').hidden = which !== 'file';
  if (which === 'file') drawGutter(null);
}

const board = $('board');
board.addEventListener('click', onBoardClick);
board.addEventListener('pointerdown', onPointerDown);
window.addEventListener('pointermove', onPointerMove);
window.addEventListener('pointerup', onPointerUp);
window.addEventListener('pointermove', moveHandDrag);
window.addEventListener('pointerup', endHandDrag);
$('undo').addEventListener('click', undo);
$('new-game').addEventListener('click', () => newGame());
$('flip').addEventListener('click', flip);
$('replay-seed').addEventListener('click', () => startGame({ seed: Number($('seed').value), computer: page.computer, level: page.level }, false));
$('opponent').addEventListener('change', changeOpponent);
$('level').addEventListener('change', changeOpponent);
$('start-here').addEventListener('click', () => startGame({ position: $('position').value, computer: page.computer, level: page.level }, false));
$('copy-position').addEventListener('click', copyPosition);
$('back').addEventListener('click', () => page.game && showGame());
$('captures').addEventListener('change', () => page.piece && showFootprint(page.piece, page.at));
$('fp-player').addEventListener('change', () => page.piece && showFootprint(page.piece, page.at));
$('move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('move-input').value;
  if (!text.trim() || !page.game) return;
  $('move-input').value = '';
  play(typedMove(text));
});
$('tab-pieces').addEventListener('click', () => showTab('pieces'));
$('tab-file').addEventListener('click', () => showTab('file'));
$('source').addEventListener('input', onEdit);
$('source').addEventListener('scroll', () => { $('gutter').scrollTop = $('source').scrollTop; });
$('source').addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 's') {
    e.preventDefault();
    save();
  }
});
$('save').addEventListener('click', () => save());
$('save-anyway').addEventListener('click', () => editor.conflict && save(editor.conflict.stamp));
$('take-disk').addEventListener('click', takeDisk);
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select') || !page.game) return;
  const at = page.ply === null ? page.game.moves.length : page.ply;
  if (e.key === 'ArrowLeft') viewPly(at - 1);
  else if (e.key === 'ArrowRight') viewPly(at + 1);
  else if (e.key === 'f') flip();
  else return;
  e.preventDefault();
});
// News that came while the page was busy is taken up here.
setInterval(() => {
  follow();
  watch().catch(() => {});
}, 500);
loadList().catch((e) => say(e.message));
