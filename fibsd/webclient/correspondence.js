// Correspondence matches (docs/clocks.md, K7) in the lobby: the user's running ones with
// whose move it is and the time left (`correspondence`, asked whenever the saved matches
// are), each opened with one click (`correspondence NAME`). A reminder at login or the end
// of one (a message) asks again.

import { $, button, h, notice, onLines, send, state } from "./client.js";
import { renderLobby } from "./lobby.js";
import { toLobby } from "./match.js";

let matches = [];

function render() {
  state.correspondence = new Set(matches.map((m) => m.name));  // (not among the saved matches)
  renderLobby();
  const box = $("correspondence");
  box.replaceChildren(...matches.map((m) => {
    const turn = m.mover === state.name ? "your move" : m.mover === "-" ? "nobody to move" : `${m.mover} to move`;
    return h("div", { className: "saved-row", dataName: m.name },
      h("span", {}, `Correspondence with ${m.name} (${m.score} of ${m.length}): ${turn}, ${m.left} left`),
      button("Open", () => send(`correspondence ${m.name}`), "open-correspondence"));
  }));
}

onLines((line) => {
  if (/^  opponent +matchlength/.test(line) || line === "no saved games.") {
    send("correspondence");  // (the saved matches were asked for: the list may have changed)
    return false;
  }
  if (line === "Your correspondence matches (opponent, score, to move, time left):") {
    matches = [];
    render();
    state.reading = (l) => {
      const r = /^  (\S+) (\d+)-(\d+) of (\S+) (\S+) (\S+)$/.exec(l);
      if (!r) return false;
      matches.push({ name: r[1], score: `${r[2]}–${r[3]}`, length: r[4], mover: r[5], left: r[6] });
      render();
      return true;
    };
    return true;
  }
  if (line === "** You have no correspondence matches.") { matches = []; render(); return true; }
  if (/^\*\* Your move against \S+ \(correspondence\)/.test(line)) send("correspondence");
  // Getting up from one: back to the lobby, where it is listed (news, not an error).
  if (/^\*\* You left the correspondence match with /.test(line)) {
    toLobby();
    notice(line.slice(3), "info");
    return line.slice(3);
  }
  if (/^\*\* \S+ (left the correspondence match|sits down at your correspondence match)/.test(line)) return line.slice(3);
  return false;
}, true);  // (before the lobby's reader of the saved matches, which takes their header)
