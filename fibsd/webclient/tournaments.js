// Tournaments (docs/tournaments.md), loaded on first use: the list with Join and Show, one
// tournament drawn as its settings, seeds, bracket and standings, the live results (every
// `Tournament NAME ...` line) and the player's next pairing at the top of the lobby.

import { $, attention, button, h, log, onLines, send, state, view } from "./client.js";

const extra = $("extra");

function reader(accept) { state.reading = accept; return true; }
function act(command) { send(command); view.renderControls(); }

onLines((line) => tournamentLine(line), true);

const live = [];
function tournamentLine(line) {
  let m;
  if (line === "Tournaments:") {
    const rows = h("tbody");
    extra.replaceChildren(h("h3", {}, "Tournaments"), h("table", { id: "tournaments" }, rows), liveBox());
    return reader((l) => {
      const r = /^  (\S+): (.*)$/.exec(l);
      if (!r) return false;
      rows.append(h("tr", { dataName: r[1] }, h("td", {}, r[1]), h("td", {}, r[2]),
        h("td", {}, button("Join", () => act(`tournament join ${r[1]}`), "t-join"),
          button("Show", () => send(`tournament show ${r[1]}`), "t-show"))));
      return true;
    });
  }
  if (/^\*\* There are no tournaments\./.test(line)) {
    extra.replaceChildren(h("h3", {}, "Tournaments"), h("p", { className: "hint" }, "No tournament is open."), liveBox());
    return true;
  }
  if ((m = /^Tournament (\S+): (\S+), (\d+)-point matches, (.*)\.$/.exec(line)) && /created by/.test(line)) {
    const show = { name: m[1], head: line.slice(11), rules: [], rounds: [], standings: [], seeds: [] };
    let round = null;
    const paint = () => extra.replaceChildren(h("h3", {}, `Tournament ${show.name}`), h("p", {}, show.head),
      ...show.rules.map((t) => h("p", { className: "hint" }, t)),
      show.seeds.length ? h("p", { id: "t-seeds" }, `Seeds: ${show.seeds.join(", ")}`) : null,
      h("div", { id: "t-bracket", className: "bracket" }, ...show.rounds.map((r) =>
        h("div", { className: "round" }, h("strong", {}, r.title), ...r.games.map((g) => h("div", { className: "game" }, g))))),
      show.standings.length ? h("ol", { id: "t-standings" }, ...show.standings.map((t) => h("li", {}, t))) : null,
      liveBox());
    paint();
    return reader((l) => {
      let r;
      if ((r = /^  Seed \d+: (.*)$/.exec(l))) show.seeds.push(r[1]);
      else if ((r = /^  (Round \d+.*):$/.exec(l))) { round = { title: r[1], games: [] }; show.rounds.push(round); }
      else if ((r = /^    \d+\. (.*)$/.exec(l))) show.standings.push(r[1]);
      else if ((r = /^    (.*)$/.exec(l)) && round) round.games.push(r[1]);
      else if (/^  Standings/.test(l)) round = null;
      else if ((r = /^  (.*)$/.exec(l))) show.rules.push(r[1]);
      else return false;
      paint();
      return true;
    });
  }
  if ((m = /^Tournament ([^\s:]+):? (.*)$/.exec(line))) {
    const text = line.replace(/ Type 'tournament join \S+' to enter\.$/, " Join it from the Tournaments list.");
    live.unshift(text);
    live.splice(20);
    const yours = /: round \d+: (your .*|you have a bye\.)$/.exec(text);
    if (yours) {
      $("next-pairing").textContent = `Next: ${text}`;
      $("next-pairing").hidden = false;
      attention("turn", `Tournament ${m[1]}: your match`);
    }
    if (/ is over: | is cancelled /.test(text)) $("next-pairing").hidden = true;
    const box = document.getElementById("t-live");
    if (box) box.replaceWith(liveBox());
    log(text, "notice");
    return true;
  }
  return false;
}

function liveBox() {
  return h("div", { id: "t-live" }, live.length ? h("strong", {}, "Live results") : null,
    ...live.map((t) => h("div", { className: "hint" }, t)));
}

export const tournaments = () => send("tournament list");
