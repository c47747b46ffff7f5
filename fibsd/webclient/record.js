// A player's card (issue 37 §2, docs/matches.md), loaded on first use: the Record button
// of a lobby row asks `show record NAME`, and the answer is drawn in the lobby's panel:
// rating and status when he is online, matches won and lost by length and rating, the
// unfinished ones, and the PR of his last analysed matches with how many were left out.

import { h, onLines, send, state } from "./client.js";

const extra = document.getElementById("extra");

onLines((line) => recordLine(line), true);

export function showRecord(name) { send(`show record ${name}`); }

function recordLine(line) {
  const m = /^Record of (\S+)(?: against (\S+))?: (\d+) matches played, (\d+) won, (\d+) lost\.$/.exec(line);
  if (!m) return false;
  const [, name, opponent, played, won, lost] = m;
  const online = state.users.get(name);
  const rows = h("tbody");
  const unfinished = h("p", { className: "record-unfinished" });
  const prs = h("ul", { className: "record-pr" });
  const leftOut = h("p", { className: "hint record-left-out" });
  extra.replaceChildren(h("div", { id: "player-card", dataUser: name },
    h("h3", {}, opponent ? `${name} against ${opponent}` : name),
    online ? h("p", { className: "record-rating" }, `Rating ${online.rating}, experience ${online.experience}`) : null,
    h("p", { className: "record-total" }, `${played} matches played: ${won} won, ${lost} lost.`),
    h("table", { id: "record-lengths" },
      h("thead", {}, h("tr", {}, ...["Length", "Kind", "Played", "Won", "Lost"].map((t) => h("th", {}, t)))), rows),
    unfinished, prs, leftOut));
  state.reading = (l) => {
    let r;
    if ((r = /^ {2}(\d+)-point matches, (rated|unrated): (\d+) played, (\d+) won, (\d+) lost\.$/.exec(l))) {
      rows.append(h("tr", {}, ...[`${r[1]} points`, r[2], r[3], r[4], r[5]].map((t) => h("td", {}, t))));
    } else if ((r = /^ {2}unlimited matches, (rated|unrated): (\d+) played\.$/.exec(l))) {
      rows.append(h("tr", {}, ...["unlimited", r[1], r[2], "–", "–"].map((t) => h("td", {}, t))));
    } else if (/^Unfinished: /.test(l)) {
      unfinished.textContent = l;
    } else if ((r = /^PR of the last (\d+) analysed matches: (.*)\.$/.exec(l))) {
      prs.append(h("li", {}, `PR of the last ${r[1]} analysed: ${r[2]}`));
    } else if (/^Left out of the PR: /.test(l)) {
      leftOut.textContent = l;
      state.reading = null;  // the last line of the answer
    } else {
      return false;
    }
    return true;
  };
  return true;
}
