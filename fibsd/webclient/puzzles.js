// Puzzles (docs/puzzles.md), loaded on first use: `puzzle` serves a position from an
// analysed match; its board: line is drawn by moves.js like a match's, so the player moves
// the checkers as in a match (or uses Roll / Double, Take / Pass), and the server's grade
// is shown here with a button for the next one.

import { button, h, onLines, send, state } from "./client.js";
import { renderControls, toLobby } from "./match.js";

const extra = document.getElementById("extra");

export function puzzle(which = "") {
  send(which ? `puzzle ${which}` : "puzzle");
}

function panel(...children) {
  extra.replaceChildren(h("div", { id: "puzzle-panel" }, ...children));
}

onLines((line) => {
  let m;
  const b = state.board;
  if ((m = /^Puzzle (\d+): (\S+)'s (.*) in match (\d+), game (\d+); (.*)$/.exec(line))) {
    state.puzzle = { number: Number(m[1]) };
    state.result = state.offer = state.waiting = null;
    panel(h("h3", {}, `Puzzle ${m[1]}`), h("p", { id: "puzzle-about" }, `${m[2]}'s ${m[3]} in match ${m[4]}, game ${m[5]}; ${m[6]}`));
    return true;
  }
  if (!state.puzzle && !/^\*\* There is no puzzle/.test(line)) return false;
  if (/^You are O and on roll with \d-\d: /.test(line)) {
    return true;  // the line below the board says it: the dice to play, click or drag
  }
  if (/^You are O and on roll: type 'double'/.test(line)) {
    state.rollPrompt = true;  // the buttons Roll (no double) and Double
    renderControls();
    return true;
  }
  if (/^Your opponent doubles: type 'take' or 'pass'\.$/.test(line)) {
    state.offer = { kind: "double", from: "puzzle", cube: b ? b.cube * 2 : 2, beaver: false };
    renderControls();
    return true;
  }
  if ((m = /^Puzzle (\d+): you answered (.*?): equity (\S+), (.*)\. Best: (.*) \((\S+)\)\. In the match (.*)$/.exec(line))) {
    state.puzzle = null;
    toLobby();
    const best = m[4] === "the best answer";
    panel(h("h3", {}, `Puzzle ${m[1]}`),
      h("p", { id: "puzzle-grade", className: best ? "good" : "bad" },
        best ? `${m[2]}: the best answer (${m[3]}).` : `${m[2]}: ${m[4]} (${m[3]}).`),
      h("p", {}, `Best: ${m[5]} (${m[6]}). In the match ${m[7]}`),
      h("div", { className: "row" }, button("Next puzzle", () => puzzle(), "next-puzzle"),
        button("My puzzle rating", () => send("show puzzles"), "puzzle-rating")));
    return true;
  }
  if (/^GNU Backgammon did not list your play/.test(line)) {
    const grade = document.getElementById("puzzle-grade");
    if (grade) grade.after(h("p", { className: "hint" }, line));
    return true;
  }
  if (/^\*\* There is no puzzle/.test(line)) {
    panel(h("p", { id: "puzzle-none" }, line.slice(3)));
    return true;
  }
  return false;
}, true);
