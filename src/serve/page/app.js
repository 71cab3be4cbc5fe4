// The variantlab page: lists variants, shows footprints, plays games. Every rule runs
// on the server; this script only draws what the JSON API answers.
'use strict';

const $ = (id) => document.getElementById(id);
const page = { variant: null, info: null, game: null, selected: null, dropping: null, view: 'game', piece: null };

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
    throw err;
  }
  return data;
}

function say(text) {
  $('message').textContent = text || '';
}

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
    b.addEventListener('click', () => choose(v.id));
    li.appendChild(b);
    list.appendChild(li);
  }
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted && data.variants.some((v) => v.id === wanted)) await choose(wanted);
}

async function choose(id) {
  page.variant = id;
  page.game = null;
  page.selected = null;
  page.dropping = null;
  $('hands').textContent = '';
  history.replaceState(null, '', '#' + encodeURIComponent(id));
  for (const b of document.querySelectorAll('#variants button')) {
    b.classList.toggle('active', b.dataset.variant === id);
  }
  say('');
  $('welcome').hidden = true;
  const info = await api('GET', '/api/variants/' + encodeURIComponent(id));
  page.info = info;
  if (!info.ok) {
    $('variant').hidden = true;
    $('diagnostics').hidden = false;
    $('diagnostics-title').textContent = info.file + ' does not check';
    $('diagnostics-text').textContent = info.diagnostics;
    return;
  }
  $('diagnostics').hidden = true;
  $('variant').hidden = false;
  $('variant-name').textContent = info.name + (info.inventor ? ' (' + info.inventor + ')' : '');
  $('variant-about').textContent = (info.description || '').trim() + ' Board: ' + info.board + '.';
  const pieces = $('pieces');
  pieces.textContent = '';
  for (const p of info.pieces) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.textContent = p.name + ' (' + p.code + ')';
    b.dataset.piece = p.name;
    b.addEventListener('click', () => showFootprint(p.name));
    li.appendChild(b);
    pieces.appendChild(li);
  }
  const options = $('options');
  options.textContent = '';
  $('options-box').hidden = info.options.length === 0;
  for (const o of info.options) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = o.default;
    box.dataset.option = o.name;
    label.appendChild(box);
    label.appendChild(document.createTextNode(' ' + o.name + (o.about ? ': ' + o.about : '')));
    options.appendChild(label);
    options.appendChild(document.createElement('br'));
  }
  await newGame();
}

function chosenOptions() {
  const out = {};
  for (const box of document.querySelectorAll('#options input[data-option]')) {
    out[box.dataset.option] = box.checked;
  }
  return out;
}

async function newGame(position) {
  const body = { variant: page.variant, options: chosenOptions() };
  if (typeof position === 'string') body.position = position;
  try {
    page.game = await api('POST', '/api/games', body);
    page.selected = null;
    page.dropping = null;
    say('');
    showGame();
  } catch (e) {
    say(e.message);
    if (e.data && e.data.diagnostics) {
      $('diagnostics').hidden = false;
      $('diagnostics-text').textContent = e.data.diagnostics;
    }
  }
}

function showGame() {
  const g = page.game;
  page.view = 'game';
  page.piece = null;
  for (const b of document.querySelectorAll('#pieces button')) b.classList.remove('active');
  $('board').innerHTML = g.svg;
  $('hands').hidden = false;
  showHands();
  $('view-title').textContent = '';
  $('back').hidden = true;
  $('choice').hidden = true;
  $('status').textContent = g.ending
    ? 'Game over: ' + g.ending.result + ': ' + g.ending.reason + '.'
    : g.to_move + ' to move.';
  $('position').value = g.position;
  const list = $('move-list');
  list.textContent = '';
  for (const m of g.moves) {
    const li = document.createElement('li');
    li.textContent = m;
    list.appendChild(li);
  }
  highlight();
}

// Each player's pieces in hand; those of the side to move may be clicked to drop.
function showHands() {
  const g = page.game;
  const box = $('hands');
  box.textContent = '';
  if (!g.legal.some((m) => m.drop) && g.hands.every((h) => h.pieces.length === 0)) return;
  for (const h of g.hands) {
    const row = document.createElement('p');
    row.className = 'hand';
    row.dataset.player = h.player;
    row.appendChild(document.createTextNode(h.player + ' in hand: '));
    if (h.pieces.length === 0) row.appendChild(document.createTextNode('none'));
    for (const p of h.pieces) {
      const b = document.createElement('button');
      b.textContent = p.count > 1 ? p.code + '\u00d7' + p.count : p.code;
      b.title = p.piece + ' (' + p.count + ')';
      b.dataset.piece = p.piece;
      b.dataset.count = p.count;
      const droppable = g.legal.some((m) => m.drop === p.piece) && h.player === g.to_move;
      b.disabled = !droppable;
      if (droppable) b.addEventListener('click', () => chooseDrop(p.piece));
      row.appendChild(b);
    }
    box.appendChild(row);
  }
}

function chooseDrop(piece) {
  page.selected = null;
  page.dropping = page.dropping === piece ? null : piece;
  $('choice').hidden = true;
  highlight();
}

function cellsNamed(name) {
  return document.querySelectorAll('#board .cell[data-cell="' + CSS.escape(name) + '"]');
}

function highlight() {
  for (const c of document.querySelectorAll('#board .cell.selected, #board .cell.target')) {
    c.classList.remove('selected', 'target');
  }
  for (const b of document.querySelectorAll('#hands button')) {
    b.classList.toggle('active', b.dataset.piece === page.dropping && !b.disabled);
  }
  if (page.dropping) {
    for (const m of page.game.legal) {
      if (m.drop === page.dropping) for (const c of cellsNamed(m.to)) c.classList.add('target');
    }
    return;
  }
  if (!page.selected) return;
  for (const c of cellsNamed(page.selected)) c.classList.add('selected');
  for (const m of page.game.legal) {
    if (!m.drop && m.from === page.selected) for (const c of cellsNamed(m.to)) c.classList.add('target');
  }
}

function onBoardClick(event) {
  if (page.view !== 'game' || !page.game) return;
  const el = event.target.closest('[data-cell]');
  if (!el) return;
  const cell = el.dataset.cell;
  const legal = page.game.legal.filter((m) => !m.drop);
  if (page.dropping) {
    const drops = page.game.legal.filter((m) => m.drop === page.dropping && m.to === cell);
    page.dropping = null;
    if (drops.length === 1) return play(drops[0].notation);
    if (drops.length > 1) return offerChoice(drops);
  }
  if (page.selected) {
    const moves = legal.filter((m) => m.from === page.selected && m.to === cell);
    if (moves.length === 1) return play(moves[0].notation);
    if (moves.length > 1) return offerChoice(moves);
  }
  page.selected = legal.some((m) => m.from === cell) && page.selected !== cell ? cell : null;
  $('choice').hidden = true;
  highlight();
}

// Several moves between the same cells (tags, or any choice the rules add): ask which.
function offerChoice(moves) {
  const box = $('choice');
  box.textContent = 'Which move? ';
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m.notation;
    b.dataset.move = m.notation;
    b.addEventListener('click', () => play(m.notation));
    box.appendChild(b);
  }
  box.hidden = false;
}

async function play(notation) {
  try {
    page.game = await api('POST', '/api/games/' + page.game.id + '/moves', { move: notation });
    page.selected = null;
    page.dropping = null;
    say('');
    showGame();
  } catch (e) {
    say(e.message);
  }
}

async function undo() {
  if (!page.game) return;
  try {
    page.game = await api('POST', '/api/games/' + page.game.id + '/undo');
    page.selected = null;
    page.dropping = null;
    say('');
    showGame();
  } catch (e) {
    say(e.message);
  }
}

function optionsQuery() {
  return Object.entries(chosenOptions())
    .map(([k, v]) => k + '=' + (v ? 'on' : 'off'))
    .join(',');
}

async function showFootprint(name) {
  const q = new URLSearchParams({
    piece: name,
    captures: $('captures').checked ? '1' : '0',
    options: optionsQuery(),
  });
  try {
    const f = await api('GET', '/api/variants/' + encodeURIComponent(page.variant) + '/footprint?' + q);
    page.view = 'footprint';
    page.piece = name;
    $('board').innerHTML = f.svg;
    $('hands').hidden = true;
    $('view-title').textContent = f.piece + ' (' + f.player + ') from ' + f.at + ': ' + f.marks.length + ' cells.';
    $('back').hidden = !page.game;
    for (const b of document.querySelectorAll('#pieces button')) {
      b.classList.toggle('active', b.dataset.piece === name);
    }
    say('');
  } catch (e) {
    say(e.message);
  }
}

$('board').addEventListener('click', onBoardClick);
$('undo').addEventListener('click', undo);
$('new-game').addEventListener('click', () => newGame());
$('start-here').addEventListener('click', () => newGame($('position').value));
$('back').addEventListener('click', () => page.game && showGame());
$('captures').addEventListener('change', () => page.piece && showFootprint(page.piece));
loadList().catch((e) => say(e.message));
