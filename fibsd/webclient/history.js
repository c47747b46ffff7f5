// The lists of the lobby's More buttons, loaded on first use: the leaderboard (`ratings`),
// the player's finished matches (`export`, with Replay, Analyse and Analysis) and the
// replay of one match, step by step from its .mat text (`export N`).

import { applyMove, startBoard } from "./clip.js";
import { drawBoard } from "./board.js";
import { button, h, onLines, send, state } from "./client.js";

const extra = document.getElementById("extra");

function reader(accept) { state.reading = accept; return true; }

onLines((line) => ratingsLine(line) || historyLine(line), true);

// --- the leaderboard ---------------------------------------------------------------------

function ratingsLine(line) {
  if (!/^ rank name +rating +Experience$/.test(line)) return false;
  const board = h("tbody");
  extra.replaceChildren(h("h3", {}, "Leaderboard"), h("table", { id: "leaderboard" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Name"), h("th", {}, "Rating"), h("th", {}, "Exp."))), board),
    h("p", { className: "hint" }, "Everyone, by rating; a rating is provisional up to 50 points of experience."));
  return reader((l) => {
    const r = /^([ *])\s*(\d+) (\S+)\s+(-?[\d.]+)\s+(\d+)$/.exec(l);
    if (!r) return false;
    const provisional = Number(r[5]) <= 50;
    board.append(h("tr", { className: `${r[1] === "*" ? "me" : ""}${provisional ? " provisional" : ""}`, dataUser: r[3] },
      h("td", {}, r[2]), h("td", {}, r[3]), h("td", {}, r[4]), h("td", {}, provisional ? `${r[5]} (provisional)` : r[5])));
    return true;
  });
}

// --- your finished matches, and a replay of one ------------------------------------------

function historyLine(line) {
  if (/^\*\* You have no finished matches\./.test(line)) {
    extra.replaceChildren(h("h3", {}, "My matches"), h("p", { className: "hint" }, "No finished match yet."));
    return true;
  }
  if (!/^Your finished matches/.test(line)) return false;
  const list = h("tbody");
  extra.replaceChildren(h("h3", {}, "My matches"), h("table", { id: "history" },
    h("thead", {}, h("tr", {}, h("th", {}, "When"), h("th", {}, "Players"), h("th", {}, "Length"), h("th", {}, "Score"), h("th", {}))), list));
  return reader((l) => {
    const r = /^\s*(\d+)\s+(\S+ \S+)\s+(\S+ - \S+)\s+(\S+(?: points?)?)\s+(\d+-\d+)$/.exec(l);
    if (!r) return false;
    list.append(h("tr", { dataMatch: r[1] }, h("td", {}, r[2]), h("td", {}, r[3]), h("td", {}, r[4]), h("td", {}, r[5]),
      h("td", {}, button("Replay", () => replay(r[1]), "replay"),
        button("Analyse", () => send(`analyse ${r[1]}`), "analyse"),
        button("Analysis", async () => {
          await import("./analysis.js");
          send(`analysis ${r[1]}`);
          send(`analysis ${r[1]} moves`);
        }, "analysis"))));
    return true;
  });
}

function replay(id) {
  const mat = [];
  send(`export ${id}`);
  state.reading = (l) => {
    if (!/^(; |$| \d+ point match$| Game \d+$| \S+ : \d+| *\d+\) )/.test(l)) return false;
    mat.push(l);
    showReplay(id, mat);
    return true;
  };
}

function showReplay(id, lines) {
  const frames = matFrames(lines);
  let at = 0;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "replay-board";
  svg.setAttribute("class", "board");
  const caption = h("span", { id: "replay-caption" });
  const go = (i) => {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    if (!f) return;
    drawBoard(svg, f.board);
    caption.textContent = `${at + 1}/${frames.length} · ${f.text}`;
  };
  extra.replaceChildren(h("h3", {}, `Replay of match ${id}`), svg,
    h("div", { className: "replay" }, button("First", () => go(0), "first"), button("◀", () => go(at - 1), "back"),
      button("▶", () => go(at + 1), "forward"), button("Last", () => go(frames.length - 1), "last"), caption));
  go(at);
}

// The positions of a .mat file, one per action: player 1 (left column) seen from his side,
// moving down; player 2's points (his own numbering) are 25 - p in player 1's.
export function matFrames(lines) {
  const frames = [];
  let names = ["", ""], score = [0, 0], board = null, game = 0, length = 0, cube = 1;
  for (const line of lines) {
    let m;
    if ((m = /^ (\d+) point match$/.exec(line))) length = Number(m[1]);
    else if ((m = /^ Game (\d+)$/.exec(line))) game = Number(m[1]);
    else if ((m = /^ (\S+) : (\d+)\s+(\S+) : (\d+)/.exec(line))) {
      names = [m[1], m[3]]; score = [Number(m[2]), Number(m[4])]; cube = 1;
      board = startBoard(names, score, length);
      frames.push({ board, text: `Game ${game}: ${names[0]} ${score[0]} – ${score[1]} ${names[1]}` });
    } else if (board && (m = /^ *\d+\) (.*)$/.exec(line))) {
      const body = line.slice(line.indexOf(")") + 2);
      const cut = 31;
      const sides = body.length > cut && body[cut - 1] === " " ? [body.slice(0, cut), body.slice(cut)] : [body, ""];
      if (body.length > cut && body[cut - 1] !== " ") {
        const gap = body.indexOf("  ", 1);
        if (gap > 0) { sides[0] = body.slice(0, gap); sides[1] = body.slice(gap); }
      }
      sides.forEach((text, player) => {
        text = text.trim();
        if (!text) return;
        const mover = player === 0 ? 1 : -1;
        let r;
        if ((r = /^([1-6])([1-6]):(.*)$/.exec(text))) {
          let b = { ...board, dice: player === 0 ? [Number(r[1]), Number(r[2])] : [0, 0],
            opponentDice: player === 1 ? [Number(r[1]), Number(r[2])] : [0, 0], turn: player === 0 ? 1 : -1 };
          for (const mv of r[3].trim().split(/\s+/).filter(Boolean)) {
            const q = /^(\d+|bar)\/(\d+|off)\*?$/i.exec(mv);
            if (!q) continue;
            const own = (s) => (s.toLowerCase() === "bar" ? 25 : s.toLowerCase() === "off" ? 0 : Number(s));
            const abs = (p) => (player === 0 ? p : 25 - p);
            b = applyMove(b, abs(own(q[1])), abs(own(q[2])), mover);
          }
          board = b;
        } else if ((r = /^(Doubles|Beavers|Raccoons) => (\d+)$/.exec(text))) {
          cube = Number(r[2]);
          board = { ...board, cube, mayDouble: player === 0 ? [false, true] : [true, false] };
        }
        frames.push({ board, text: `${names[player]}: ${text}` });
      });
    }
  }
  return frames;
}

export const ratings = () => send("ratings all");  // fibsd's: the provisional players too
export const history = () => send("export");
