// Engine analysis (docs/analysis.md), loaded on first use: each player's PR, the errors
// and blunders of a match, and an error's position drawn from gnubg's position ID with the
// best play made on it.

import { applyMove, startBoard } from "./clip.js";
import { drawBoard } from "./board.js";
import { button, h, onLines, state } from "./client.js";

const extra = document.getElementById("extra");

function reader(accept) { state.reading = accept; return true; }

onLines((line) => analysisLine(line), true);

const players = [];  // the analysed match's two players, from its summary

// --- analysis: PR per player, the errors, an error's position with the best play --------

function analysisLine(line) {
  let m;
  if ((m = /^Analysis of match (\d+) \((.*)\) by (.*):$/.exec(line))) {
    players.length = 0;
    const rows = h("tbody");
    extra.replaceChildren(h("h3", {}, `Analysis of match ${m[1]}`), h("p", { className: "hint" }, `${m[2]}, by ${m[3]}`),
      h("table", { id: "analysis" }, h("thead", {}, h("tr", {}, ...["Player", "PR", "", "Errors", "Blunders", "Cube err.", "Luck"].map((t) => h("th", {}, t)))), rows),
      h("div", { id: "analysis-moves" }));
    return reader((l) => {
      const r = /^Player (\S+): PR (\S+) \(([a-z ]+)\); (\d+) decisions; checker (\d+) errors, (\d+) blunders; cube (\d+) errors, (\d+) blunders; luck (\S+)$/.exec(l);
      if (!r) return false;
      players.push(r[1]);
      rows.append(h("tr", { dataUser: r[1] }, ...[r[1], r[2], r[3], r[5], r[6], `${Number(r[7]) + Number(r[8])}`, r[9]].map((t) => h("td", {}, t))));
      return true;
    });
  }
  if ((m = /^No errors or blunders in match (\d+)\.$/.exec(line))) {
    const box = document.getElementById("analysis-moves");
    if (box) box.replaceChildren(h("p", {}, line));
    return true;
  }
  if (/^Errors in match \d+: /.test(line)) {
    const box = document.getElementById("analysis-moves") || extra;
    const rows = h("tbody");
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "analysis-board";
    svg.setAttribute("class", "board");
    const caption = h("p", { id: "analysis-caption" });
    // The position is drawn in a row of its own just below the error shown.
    const shown = h("tr", { id: "analysis-shown" }, h("td", { colSpan: 8 }, caption, svg));
    box.replaceChildren(h("table", { id: "analysis-errors" }, rows));
    return reader((l) => {
      const r = /^Game (\d+) (\S+) (\S{14}) ([1-6]{2}|-) (error|blunder|cube-error|cube-blunder): (.+) \| best: (.+) \| -(\d+\.\d{3})$/.exec(l);
      if (!r) return false;
      const row = h("tr", { className: r[5].includes("blunder") ? "blunder" : "error", dataGame: r[1], dataUser: r[2] },
        ...[`Game ${r[1]}`, r[2], r[4], r[5], r[6], r[7], `-${r[8]}`].map((t) => h("td", {}, t)));
      const show = () => {
        const other = players.find((name) => name !== r[2]) || "opponent";
        let board = positionBoard(r[3], r[2], r[4], other);
        if (r[4] !== "-") board = play(board, r[7]);
        drawBoard(svg, board);
        caption.textContent = `Game ${r[1]}, ${r[2]} ${r[4] === "-" ? "" : `to play ${r[4]}`}: played ${r[6]}; best ${r[7]} (drawn), ${r[8]} lost.`;
        row.after(shown);
        svg.scrollIntoView({ block: "nearest" });
      };
      row.append(h("td", {}, button("Show", show, "a-show")));
      rows.append(row);
      return true;
    });
  }
  return false;
}

// A gnubg position ID (14 characters of base64: 80 bits, least significant bit of each
// byte first): the 25 places (ace point to bar) of the player NOT on roll, then those of
// the player on roll, each place a run of 1 bits ended by a 0 (checked against gnubg's
// own `set board`: its first half is the opponent's). Drawn from the side of the player
// on roll, NAME, against OTHER.
export function positionBoard(id, name, dice, other = "opponent") {
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const bits = [];
  for (const ch of id) { const v = digits.indexOf(ch); for (let i = 5; i >= 0; i--) bits.push((v >> i) & 1); }
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(bits.slice(i, i + 8).reduce((a, b) => a * 2 + b, 0));
  const stream = [];
  for (const byte of bytes) for (let i = 0; i < 8; i++) stream.push((byte >> i) & 1);
  const [opponent, mover] = [[], []];
  let k = 0;
  for (const side of [opponent, mover]) {
    for (let place = 0; place < 25; place++) {
      let n = 0;
      while (stream[k++] === 1) n++;
      side.push(n);
    }
  }
  const b = startBoard([name, other], [0, 0], 0);
  b.points = Array(26).fill(0);
  for (let q = 1; q <= 24; q++) { b.points[q] += mover[q - 1]; b.points[25 - q] -= opponent[q - 1]; }
  b.onBar = [mover[24], opponent[24]];
  b.points[25] = mover[24]; b.points[0] = -opponent[24];
  b.off = [15 - mover.reduce((a, x) => a + x, 0), 15 - opponent.reduce((a, x) => a + x, 0)];
  if (dice && dice !== "-") b.dice = [Number(dice[0]), Number(dice[1])];
  b.turn = 1;
  return b;
}

// A play in gnubg's notation ("bar/22* 13/7(2) 6/off"), by the player on roll.
function play(board, text) {
  let b = board;
  for (const word of text.split(/\s+/)) {
    const m = /^(\d+|bar)\/(\d+|off)\*?(?:\((\d)\))?$/i.exec(word);
    if (!m) continue;
    for (let i = 0; i < Number(m[3] || 1); i++) {
      b = applyMove(b, m[1].toLowerCase() === "bar" ? 25 : Number(m[1]), m[2].toLowerCase() === "off" ? 0 : Number(m[2]), 1);
    }
  }
  return b;
}
