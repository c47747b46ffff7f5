// The board view: an SVG drawing of a parsed board: line, from the viewer's side (their
// home board bottom right), with clickable points, highlighted targets, dice and cube. The
// viewer's checkers are always "me" (light), the other side's "them" (dark), whatever
// colour FIBS gives them this game. The cube has a column of its own, left of the board.

import { isCrawfordGame, owned, pipCounts } from "./clip.js";

const SVG = "http://www.w3.org/2000/svg";
const LEFT = 50;        // the cube's column
const W = 40;           // width of a point
const H = 440;          // height of the board
const BAR_X = LEFT + 6 * W;    // the bar column
const TRAY_X = LEFT + 13 * W;  // the bear-off tray
const WIDTH = TRAY_X + 50;
const R = 17;           // checker radius
const NUM = 22;         // the strips for the point numbers
const SLICE = 13;       // a borne-off checker on edge: fifteen fill most of a well

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
    return { x: LEFT + col * W, top: false };
  }
  const col = q <= 18 ? q - 13 : q - 12;    // 13..18 left, 19..24 right of the bar
  return { x: LEFT + col * W, top: true };
}

// Draws `board` into `svg`. `ui` = {selected, targets: Set, onPoint(p, event), onDrop,
// remaining: the dice not used yet (the others are drawn grey), offer: {value} a cube
// offered and not answered yet}.
export function drawBoard(root, board, ui = {}) {
  root.replaceChildren();
  root.setAttribute("viewBox", `0 0 ${WIDTH} ${H + 2 * NUM}`);
  // The point numbers go in strips above and below the board, clear of dice and checkers.
  el("rect", { x: 0, y: 0, width: WIDTH, height: H + 2 * NUM, class: "strip" }, root);
  const svg = el("g", { transform: `translate(0 ${NUM})` }, root);
  // The cloth: felt or wood (the operator's choice, marked on the page's body), with ids of
  // this drawing's own (a page has several boards, some hidden).
  const look = document.body.dataset.board === "wood" ? "wood" : "felt";
  const cloth = `${root.id || "board"}-${look}`;
  const defs = el("defs", {}, svg);
  if (look === "wood") {
    const grain = el("linearGradient", { id: cloth, x1: 0, y1: 0, x2: 1, y2: 0.08 }, defs);
    [["0", "#b9793f"], [".18", "#a9692f"], [".35", "#c18448"], [".52", "#a2622b"], [".7", "#bd7f43"], [".86", "#a4652d"], ["1", "#b57539"]]
      .forEach(([offset, color]) => el("stop", { offset, "stop-color": color }, grain));
  } else {
    const felt = el("radialGradient", { id: cloth, cx: 0.5, cy: 0.5, r: 0.75 }, defs);
    [["0", "#3a7449"], ["1", "#24492d"]].forEach(([offset, color]) => el("stop", { offset, "stop-color": color }, felt));
  }
  el("rect", { x: 0, y: 0, width: WIDTH, height: H, class: `frame ${look}`, fill: `url(#${cloth})` }, svg);
  // The two side rails, each with a well at either end lined with the cloth (the cube's on
  // the left, the borne-off checkers' on the right), and the raised bar with its hinge.
  for (const x of [0, TRAY_X]) {
    el("rect", { x, y: 0, width: x ? WIDTH - TRAY_X : LEFT, height: H, class: "tray" }, svg);
    for (const top of [true, false]) {
      const well = trayWell(x, top);
      el("rect", { ...well, rx: 4, class: "well", fill: `url(#${cloth})` }, svg);
    }
  }
  el("rect", { x: BAR_X, y: 0, width: W, height: H, class: "bar" }, svg);
  el("line", { x1: BAR_X + W / 2, y1: 0, x2: BAR_X + W / 2, y2: H, class: "hinge" }, svg);
  const mineClass = "me";
  const theirsClass = "them";
  const targets = ui.targets || new Set();

  for (let p = 1; p <= 24; p++) {
    const { x, top } = place(p, board.direction);
    const tip = top ? H / 2 - 25 : H / 2 + 25;
    const base = top ? 0 : H;
    const shade = (p + (top ? 1 : 0)) % 2 ? "light" : "dark";
    el("polygon", { points: `${x},${base} ${x + W},${base} ${x + W / 2},${tip}`,
      class: `point ${shade}${targets.has(p) ? " target" : ""}` }, svg);
    const label = el("text", { x: x + W / 2, y: top ? -5 : H + NUM - 4, class: "number" }, svg);
    label.textContent = board.direction === -1 ? p : 25 - p;
    const count = owned(board, p);
    drawStack(svg, x + W / 2, top, Math.abs(count), count > 0 ? mineClass : theirsClass,
      ui.selected === p, 0, p);
    // The whole half-column is the click target, so a point with no checkers works too.
    const hit = el("rect", { x, y: top ? 0 : H / 2, width: W, height: H / 2,
      class: "hit", "data-point": p, "data-q": board.direction === -1 ? p : 25 - p,
      "data-count": board.points[p], "data-mine": count }, svg);
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
  // The tray: borne-off checkers stand on edge in their well, packed from its outer end as
  // on a real board (each a slice with its rim), the player's in the bottom well.
  for (const [side, top] of [[0, false], [1, true]]) {
    const well = trayWell(TRAY_X, top);
    for (let i = 0; i < board.off[side]; i++) {
      const y = top ? well.y + 2 + i * SLICE : well.y + well.height - 2 - (i + 1) * SLICE;
      const cls = side === 0 ? mineClass : theirsClass;
      el("rect", { x: well.x + 3, y: y + 0.5, width: well.width - 6, height: SLICE - 1, rx: 3,
        class: `checker ${cls}` }, svg);
      el("line", { x1: well.x + 7, y1: y + SLICE / 2, x2: well.x + well.width - 7, y2: y + SLICE / 2,
        class: `rim ${cls}` }, svg);
    }
  }
  const offHit = el("rect", { x: TRAY_X, y: H / 2, width: WIDTH - TRAY_X, height: H / 2,
    class: `hit${targets.has(board.home) ? " target-tray" : ""}`, "data-point": "off",
    "data-count": board.off[0] }, svg);
  if (ui.onDrop) offHit.addEventListener("pointerup", (e) => ui.onDrop(board.home, e));
  if (ui.onPoint) offHit.addEventListener("pointerdown", (e) => ui.onPoint(board.home, e));

  // The cube, in its own column: in the middle when centred, else on its owner's side.
  const owner = board.cube === 1 ? 0 : board.mayDouble[0] && !board.mayDouble[1] ? 1
    : !board.mayDouble[0] && board.mayDouble[1] ? -1 : 0;
  const cy = owner === 1 ? H - 60 : owner === -1 ? 20 : H / 2 - 20;
  drawCube(svg, 5, cy, board.cube === 1 ? "64" : board.cube, "cube", "cube-value");
  // A double not answered yet: the offered cube on the board, in front of who must answer.
  if (ui.offer) drawCube(svg, LEFT + 3 * W - 20, ui.offer.toMe ? H / 2 + 40 : H / 2 - 80, ui.offer.value,
    "cube offered", "offered-cube");

  // Dice: the player's right of the bar, the opponent's left of it.
  drawDice(svg, board.dice, LEFT + 8 * W - 10, mineClass, "my-dice", ui.remaining, ui.rolled === "mine");
  drawDice(svg, board.opponentDice, LEFT + 1.5 * W, theirsClass, "their-dice", undefined, ui.rolled === "theirs");
  return root;
}

// A rail's well (the cloth-lined box at one end of it) as {x, y, width, height}.
function trayWell(x, top) {
  const width = (x ? WIDTH - TRAY_X : LEFT) - 10;
  return { x: x + 5, y: top ? 6 : H / 2 + 4, width, height: H / 2 - 10 };
}

function drawStack(svg, cx, top, count, cls, selected, start = 0, p = "bar") {
  const shown = Math.min(count, 5);
  for (let i = 0; i < shown; i++) {
    const cy = top ? start + R + 2 + i * 2 * R : H - start - R - 2 - i * 2 * R;
    el("circle", { cx, cy, r: R, "data-p": p, class: `checker ${cls}${selected && i === shown - 1 ? " selected" : ""}` }, svg);
  }
  if (count > 5) {
    const cy = top ? start + R + 2 + 4 * 2 * R : H - start - R - 2 - 4 * 2 * R;
    const t = el("text", { x: cx, y: cy + 5, class: `count ${cls}` }, svg);
    t.textContent = count;
  }
}

function drawCube(svg, x, y, value, cls, id) {
  const g = el("g", { class: cls, id }, svg);
  el("rect", { x, y, width: 40, height: 40, rx: 5, class: "cube" }, g);
  el("text", { x: x + 20, y: y + 27, class: "cube-text" }, g).textContent = value;
}

// The dice; with `remaining` (the values not used yet), the used ones are drawn grey.
// Doubles show four dice.
function drawDice(svg, dice, x, cls, id, remaining, rolling = false) {
  if (!dice[0]) return;
  const all = dice[0] === dice[1] && remaining ? Array(4).fill(dice[0]) : dice;
  const left = remaining ? remaining.slice() : null;
  const used = all.map((v) => { if (!left) return false; const i = left.indexOf(v); if (i < 0) return true; left.splice(i, 1); return false; });
  const group = el("g", { id, "data-dice": dice.join(","), "data-used": used.filter(Boolean).length,
    class: rolling ? "rolling" : "" }, svg);
  const size = all.length > 2 ? 30 : 38;
  all.forEach((value, i) => {
    const dx = x + i * (size + 6), dy = H / 2 - size / 2, k = size / 4;
    const die = el("g", { class: "die-g" }, group);  // (a die rolls as one piece)
    el("rect", { x: dx, y: dy, width: size, height: size, rx: 6, class: `die ${cls}${used[i] ? " used" : ""}` }, die);
    const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
      4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
      6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] }[value] || [];
    for (const [px, py] of pips) el("circle", { cx: dx + px * k, cy: dy + py * k, r: size / 11, class: "pip" }, die);
  });
}

// Where the top checker of a place is drawn ({x, y} in the drawing's units), for a move's
// slide: a point's or the bar's top checker of side `cls`, or the tray's top slice.
export function topChecker(root, p, cls) {
  const found = [...root.querySelectorAll(`circle.checker.${cls}[data-p="${p}"]`)];
  if (found.length) {
    const c = found[found.length - 1];
    return { node: c, x: Number(c.getAttribute("cx")), y: Number(c.getAttribute("cy")) };
  }
  const slices = [...root.querySelectorAll(`rect.checker.${cls}`)];
  if (!slices.length) return null;
  const r = slices[slices.length - 1];
  return { node: r, x: Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2,
    y: Number(r.getAttribute("y")) + SLICE / 2 };
}

// A checker moved from `before` slides to where it is drawn now.
export function slide(root, before, to, cls) {
  const after = before && topChecker(root, to, cls);
  if (!after || !after.node.animate) return;
  after.node.animate([{ transform: `translate(${before.x - after.x}px, ${before.y - after.y}px)` },
    { transform: "translate(0, 0)" }], { duration: 260, easing: "ease-out" });
}

// One line of text about the match: names, score, length, Crawford, pips.
export function describe(board) {
  const me = board.player;
  const length = board.matchLength === 9999 ? "unlimited match" : `${board.matchLength}-point match`;
  const crawford = isCrawfordGame(board) ? " · Crawford game" : board.postCrawford ? " · post-Crawford" : "";
  const [mine, theirs] = pipCounts(board);
  return {
    score: `${me} ${board.score[0]} – ${board.score[1]} ${board.opponent}`,
    match: `${length}${crawford}`,
    pips: `pips: ${me} ${mine} · ${board.opponent} ${theirs}`,
  };
}
