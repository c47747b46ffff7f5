// The board view: an SVG drawing of a parsed board: line, from the viewer's side (their
// home board bottom right), with clickable points, highlighted targets, dice and cube.

import { isCrawfordGame, owned, pipCounts } from "./clip.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 40;           // width of a point
const H = 440;          // height of the board
const BAR_X = 6 * W;    // the bar column
const TRAY_X = 13 * W;  // the bear-off tray
const WIDTH = TRAY_X + 50;
const R = 17;           // checker radius

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Screen place of absolute point p for a viewer moving `direction`: column and top/bottom.
function place(p, direction) {
  const q = direction === -1 ? p : 25 - p;  // the viewer's own numbering, 1 = bottom right
  if (q <= 12) {
    const col = q <= 6 ? 13 - q : 12 - q;   // 1..6 right of the bar, 7..12 left
    return { x: col * W, top: false };
  }
  const col = q <= 18 ? q - 13 : q - 12;    // 13..18 left, 19..24 right of the bar
  return { x: col * W, top: true };
}

// Draws `board` into `svg`. `ui` = {selected, targets: Set, onPoint(p, event)}.
export function drawBoard(svg, board, ui = {}) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${H}`);
  el("rect", { x: 0, y: 0, width: WIDTH, height: H, class: "frame" }, svg);
  el("rect", { x: BAR_X, y: 0, width: W, height: H, class: "bar" }, svg);
  el("rect", { x: TRAY_X, y: 0, width: WIDTH - TRAY_X, height: H, class: "tray" }, svg);
  const mineClass = board.colour === 1 ? "o" : "x";
  const theirsClass = board.colour === 1 ? "x" : "o";
  const targets = ui.targets || new Set();

  for (let p = 1; p <= 24; p++) {
    const { x, top } = place(p, board.direction);
    const tip = top ? H / 2 - 25 : H / 2 + 25;
    const base = top ? 0 : H;
    const shade = (p + (top ? 1 : 0)) % 2 ? "light" : "dark";
    el("polygon", { points: `${x},${base} ${x + W},${base} ${x + W / 2},${tip}`,
      class: `point ${shade}${targets.has(p) ? " target" : ""}` }, svg);
    const label = el("text", { x: x + W / 2, y: top ? H / 2 - 10 : H / 2 + 18, class: "number" }, svg);
    label.textContent = board.direction === -1 ? p : 25 - p;
    const count = owned(board, p);
    drawStack(svg, x + W / 2, top, Math.abs(count), count > 0 ? mineClass : theirsClass,
      ui.selected === p);
    // The whole half-column is the click target, so a point with no checkers works too.
    const hit = el("rect", { x, y: top ? 0 : H / 2, width: W, height: H / 2,
      class: "hit", "data-point": p, "data-q": board.direction === -1 ? p : 25 - p,
      "data-count": board.points[p] }, svg);
    if (ui.onPoint) hit.addEventListener("pointerdown", (e) => ui.onPoint(p, e));
    if (ui.onDrop) hit.addEventListener("pointerup", (e) => ui.onDrop(p, e));
  }
  // The bar: the player's checkers wait in the top half (they enter into the opponent's
  // home board, at the top), the opponent's in the bottom half.
  drawStack(svg, BAR_X + W / 2, true, board.onBar[0], mineClass, ui.selected === board.bar, H / 2 - 6 * R);
  drawStack(svg, BAR_X + W / 2, false, board.onBar[1], theirsClass, false, H / 2 - 6 * R);
  const barHit = el("rect", { x: BAR_X, y: 0, width: W, height: H / 2, class: "hit",
    "data-point": "bar", "data-count": board.onBar[0] }, svg);
  if (ui.onPoint) barHit.addEventListener("pointerdown", (e) => ui.onPoint(board.bar, e));
  // The tray: borne-off checkers as thin slices, the player's at the bottom.
  for (const [side, top] of [[0, false], [1, true]]) {
    for (let i = 0; i < board.off[side]; i++) {
      const y = top ? 8 + i * 9 : H - 16 - i * 9;
      el("rect", { x: TRAY_X + 8, y, width: 34, height: 8, rx: 2,
        class: `checker ${side === 0 ? mineClass : theirsClass}` }, svg);
    }
  }
  const offHit = el("rect", { x: TRAY_X, y: H / 2, width: WIDTH - TRAY_X, height: H / 2,
    class: `hit${targets.has(board.home) ? " target-tray" : ""}`, "data-point": "off",
    "data-count": board.off[0] }, svg);
  if (ui.onDrop) offHit.addEventListener("pointerup", (e) => ui.onDrop(board.home, e));
  if (ui.onPoint) offHit.addEventListener("pointerdown", (e) => ui.onPoint(board.home, e));

  // The cube: in the middle of the tray when centred, else on its owner's side.
  const owner = board.cube === 1 ? 0 : board.mayDouble[0] && !board.mayDouble[1] ? 1
    : !board.mayDouble[0] && board.mayDouble[1] ? -1 : 0;
  const cy = owner === 1 ? H - 140 : owner === -1 ? 100 : H / 2 - 20;
  el("rect", { x: TRAY_X + 5, y: cy, width: 40, height: 40, rx: 5, class: "cube" }, svg);
  const cubeText = el("text", { x: TRAY_X + 25, y: cy + 27, class: "cube-text", id: "cube-value" }, svg);
  cubeText.textContent = board.cube === 1 ? "64" : board.cube;

  // Dice: the player's right of the bar, the opponent's left of it.
  drawDice(svg, board.dice, 9 * W, mineClass, "my-dice");
  drawDice(svg, board.opponentDice, 2 * W, theirsClass, "their-dice");
  return svg;
}

function drawStack(svg, cx, top, count, cls, selected, start = 0) {
  const shown = Math.min(count, 5);
  for (let i = 0; i < shown; i++) {
    const cy = top ? start + R + 2 + i * 2 * R : H - start - R - 2 - i * 2 * R;
    el("circle", { cx, cy, r: R, class: `checker ${cls}${selected && i === shown - 1 ? " selected" : ""}` }, svg);
  }
  if (count > 5) {
    const cy = top ? start + R + 2 + 4 * 2 * R : H - start - R - 2 - 4 * 2 * R;
    const t = el("text", { x: cx, y: cy + 5, class: `count ${cls}` }, svg);
    t.textContent = count;
  }
}

function drawDice(svg, dice, x, cls, id) {
  if (!dice[0]) return;
  const group = el("g", { id, "data-dice": dice.join(",") }, svg);
  dice.forEach((value, i) => {
    const dx = x + i * 46, dy = H / 2 - 19;
    el("rect", { x: dx, y: dy, width: 38, height: 38, rx: 6, class: `die ${cls}` }, group);
    const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
      4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
      6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] }[value] || [];
    for (const [px, py] of pips) el("circle", { cx: dx + px * 9.5, cy: dy + py * 9.5, r: 3.5, class: "pip" }, group);
  });
}

// One line of text about the match: names, score, length, Crawford, pips.
export function describe(board) {
  const me = board.player === "You" ? "You" : board.player;
  const length = board.matchLength === 9999 ? "unlimited match" : `${board.matchLength}-point match`;
  const crawford = isCrawfordGame(board) ? " · Crawford game" : board.postCrawford ? " · post-Crawford" : "";
  const [mine, theirs] = pipCounts(board);
  const colour = board.colour === 1 ? "white" : "black";
  const who = board.player === "You" ? `you play ${colour}` : `${board.player} plays ${colour}`;
  return {
    score: `${me} ${board.score[0]} – ${board.score[1]} ${board.opponent}`,
    match: `${length}${crawford} · ${who}`,
    pips: `pips: ${me} ${mine} · ${board.opponent} ${theirs}`,
  };
}
