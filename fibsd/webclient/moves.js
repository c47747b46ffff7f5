// The board in the match view: each board: line drawn (an opponent's move shown checker by
// checker first), and the player's own moves made on it by clicking or dragging checkers,
// then confirmed (or sent at once) as one `move` command. The client does not compute whole
// legal plays: the server judges the play, and a refusal resets the board.

import { applyMove, destination, moveText, parseBoard, parseMoveText } from "./clip.js";
import { describe, drawBoard, slide, topChecker } from "./board.js";
import { $, myTurn, onClipLines, quietly, send, state, store, stored, view } from "./client.js";
import { addMove, renderControls } from "./match.js";
import { tickClock } from "./clocks.js";

const STEP_MS = 350;  // one checker of an opponent's move, when it is shown step by step

onClipLines((line) => {
  if (!line.startsWith("board:")) return false;
  onBoard(parseBoard(line));
  return true;
});

function onBoard(board) {
  if (!board) return;
  const previous = state.shown;
  state.board = board;
  if (board.player === "You") state.rematch = board.opponent;  // (a reload joins a match already on)
  state.rollPrompt = state.rollPrompt && board.dice[0] === 0 && myTurn();
  if (board.turn === 0) { state.offer = null; state.rollPrompt = false; }
  if (board.turn !== 0 && state.result && !state.result.matchOver) state.result = null;
  if (state.waiting && state.waiting.kind === "join" && board.turn !== 0) state.waiting = null;
  $("match-view").hidden = false;
  const steps = state.steps;
  state.steps = null;
  state.played = null;
  resetMoves(false);
  // Show an opponent's (or, watching, either player's) move checker by checker.
  const id = ++state.animation;
  if (steps && previous && previous.player === board.player && previous.opponent === board.opponent) {
    const mover = board.player !== "You" && steps.who === board.player ? 1 : -1;
    const moves = parseMoveText(steps.text, previous, mover);
    let shown = previous;
    state.shown = previous;  // (until the steps are drawn, the drawing is the previous board)
    moves.forEach(([from, to], i) => {
      setTimeout(() => {
        if (id !== state.animation) return;
        const cls = mover === 1 ? "me" : "them";
        const bar = mover === 1 ? previous.bar : 25 - previous.bar;
        const home = mover === 1 ? previous.home : 25 - previous.home;
        const before = topChecker($("board"), from === bar ? "bar" : from, cls);
        shown = applyMove({ ...shown, dice: [0, 0], opponentDice: board.opponentDice }, from, to, mover);
        state.shown = shown;
        render();
        slide($("board"), before, to === home ? "off" : to, cls);
      }, STEP_MS * i);
    });
    setTimeout(() => { if (id === state.animation) { state.shown = board; render(); } }, STEP_MS * moves.length);
    return;
  }
  render();
}

export function resetMoves(redraw = true) {
  const b = state.board;
  state.shown = b;
  state.played = null;
  state.moves = [];
  state.selected = null;
  state.readyToSend = false;
  const rolled = b && myTurn() && b.dice[0] > 0 && b.canMove > 0;
  state.dice = !rolled ? [] : b.dice[0] === b.dice[1] ? Array(4).fill(b.dice[0]) : b.dice.slice();
  if (redraw) render();
}
view.resetMoves = resetMoves;

function targetsFrom(from) {
  const out = new Map();  // destination -> the die it uses (the smallest that gets there)
  for (const die of [...new Set(state.dice)].sort((a, b) => a - b)) {
    const to = destination(state.shown, from, die);
    if (to !== null && !out.has(to)) out.set(to, die);
  }
  return out;
}

function anyMoveLeft() {
  const b = state.shown;
  for (let p = 0; p <= 25; p++) if (targetsFrom(p).size) return true;
  return b.onBar[0] > 0 && targetsFrom(b.bar).size > 0;
}

function onPoint(p, event) {
  if (!state.dice.length || state.readyToSend || state.moves.length >= state.board.canMove) return;
  const targets = state.selected === null ? new Map() : targetsFrom(state.selected);
  if (targets.has(p)) return makeMove(state.selected, p, targets.get(p));
  if (targetsFrom(p).size) {
    state.selected = p;
    render();
    startDrag(event);
  } else if (state.selected !== null) {
    state.selected = null;
    render();
  }
}

function onDrop(p) {
  stopDrag();
  if (state.selected === null || p === state.selected) return;
  const targets = targetsFrom(state.selected);
  if (targets.has(p)) makeMove(state.selected, p, targets.get(p));
}

function makeMove(from, to, die) {
  const before = topChecker($("board"), from === state.board.bar ? "bar" : from, "me");
  state.moves.push([from, to]);
  state.dice.splice(state.dice.indexOf(die), 1);
  state.shown = applyMove(state.shown, from, to);
  state.selected = null;
  if (state.moves.length >= state.board.canMove || !state.dice.length || !anyMoveLeft()) {
    state.readyToSend = true;
    if ($("auto-send").checked) sendMove();
  }
  render();
  slide($("board"), before, to === state.board.home ? "off" : to, "me");  // as the opponent's moves do
}

function sendMove() {
  const text = state.moves.map(([f, t]) => moveText(state.board, f, t)).join(" ");
  send(`move ${text}`);
  addMove("You", `${state.board.dice.join("")} ${text}`);
  state.played = state.shown;  // the position after it, should the game end with it
  state.readyToSend = false;
  state.dice = [];
  render();
}

// Dragging: a ghost checker follows the pointer; dropping on a target moves there.
let ghost = null;
function startDrag(event) {
  const svg = $("board");
  const point = (e) => {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };
  const p = point(event);
  ghost = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  ghost.setAttribute("r", 15);
  ghost.setAttribute("class", "ghost");
  ghost.setAttribute("cx", p.x); ghost.setAttribute("cy", p.y);
  ghost.style.display = "none";  // shown only once the pointer really moves
  svg.appendChild(ghost);
  svg.onpointermove = (e) => {
    const q = point(e);
    ghost.style.display = "";
    ghost.setAttribute("cx", q.x); ghost.setAttribute("cy", q.y);
  };
  // A release over the board's points is a drop (their handlers); elsewhere, stop.
  window.addEventListener("pointerup", stopDrag, { once: true });
}

function stopDrag() {
  $("board").onpointermove = null;
  if (ghost) ghost.remove();
  ghost = null;
}

let lastDice = "";  // the dice of the board drawn last ("mine|theirs")

export function render() {
  renderControls();
  const b = state.shown;
  if (!b) return;
  const targets = state.selected === null ? new Set() : new Set(targetsFrom(state.selected).keys());
  const pending = state.offer && state.offer.kind === "double" ? { value: state.offer.cube, toMe: true }
    : state.waiting && state.waiting.kind === "double" ? { value: state.waiting.cube, toMe: false } : null;
  const remaining = myTurn() && state.board.dice[0] && !state.rollPrompt ? state.dice : undefined;
  // The dice roll once, when they are new (not at every redraw of the same roll).
  const dice = `${b.dice}|${b.opponentDice}`;
  const rolled = dice === lastDice ? "" : b.dice[0] ? "mine" : b.opponentDice[0] ? "theirs" : "";
  lastDice = dice;
  drawBoard($("board"), b, { selected: state.selected, targets, onPoint, onDrop, offer: pending, remaining, rolled });
  const text = describe(b);
  $("score").textContent = text.score;
  $("match-info").textContent = text.match + (state.matchTitle ? ` · ${state.matchTitle}` : "");
  $("pips").textContent = text.pips;
  tickClock();
  if (state.chouette) state.chouette.render();  // (its header over the match's)
}
view.render = render;

$("confirm-move").addEventListener("click", () => { sendMove(); renderControls(); });
$("undo").addEventListener("click", () => resetMoves());
// FIBS's `greedy`: the server bears off by itself when every checker can only be borne off.
$("greedy").addEventListener("change", () => quietly("toggle greedy"));
$("auto-send").checked = stored(localStorage, "fibsd-auto-send") === "on";
$("auto-send").addEventListener("change", (e) => store(localStorage, "fibsd-auto-send", e.target.checked ? "on" : "off"));
