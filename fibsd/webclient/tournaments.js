// Tournaments (docs/tournaments.md), loaded on first use: the list with Join and Show (and
// Start and Cancel for its creator), the form that opens one with every option of
// `tournament create`, one tournament drawn as its settings, seeds, bracket and standings
// (with Start and Cancel when the server says this user may direct it: its creator or an
// administrator), the live results (every `Tournament NAME ...` line) and the player's next
// pairing at the top of the lobby. Beside the list, the recurring events (`tournament
// schedules`: each one's rule in words and next occurrence on the server's clock), and, for
// a user the server lets make schedules, a "repeat" choice in the form.

import { $, attention, button, h, log, onLines, send, state, view } from "./client.js";

const extra = $("extra");

function reader(accept) { state.reading = accept; return true; }
function act(command) { send(command); view.renderControls(); }

onLines((line) => tournamentLine(line), true);

const live = [];
// The recurring events as `tournament schedules` last said, and whether this user may
// make one (its last line says so).
const schedules = { rows: [], may: false };
// The last tournaments over (`tournament list finished`, its first page), each shown by id.
const finished = [];
function tournamentLine(line) {
  let m;
  if (line === "Tournament schedules:" || /^\*\* There are no tournament schedules\./.test(line)) {
    schedules.rows = [];
    schedules.may = false;
    repaintSchedules();
    return reader((l) => {
      // "  NAME: RULE IN WORDS, FORMAT[, OPTIONS], N-point matches, at least N players, by CREATOR; next: WHEN"
      const r = /^  (\S+): (.*?), ((?:knockout|swiss|roundrobin).*), (\d+)-point matches, at least (\d+) players, by (\S+); next: (.*)$/.exec(l);
      if (r) schedules.rows.push({ name: r[1], rule: r[2], what: `${r[3]}, ${r[4]}-point matches, at least ${r[5]} players, by ${r[6]}`, next: r[7] });
      else if (/^  You may make schedules /.test(l)) schedules.may = true;
      else return false;
      repaintSchedules();
      return true;
    });
  }
  if (/^Tournament schedule \S+(: | removed\.$)/.test(line)) {
    log(line, "notice");
    if (document.getElementById("t-schedules")) send("tournament schedules");
    return true;
  }
  if (line === "Tournaments (finished), newest first:" || line === "** There are no finished tournaments.") {
    finished.splice(0);
    repaintFinished();
    return line.startsWith("**") || reader((l) => {
      // "  #ID NAME, DAY: FORMAT[, OPTIONS], PHASE, N-point matches, N entered, by CREATOR"; "  Page N of M..."
      const r = /^  #(\d+) (\S+), (\S+): (.*)$/.exec(l);
      if (r) finished.push({ id: r[1], name: r[2], day: r[3], what: r[4] });
      else if (!/^  Page \d+ of \d+\./.test(l)) return false;
      repaintFinished();
      return true;
    });
  }
  if (line === "Tournaments:") {
    const rows = h("tbody");
    extra.replaceChildren(h("h3", {}, "Tournaments"), h("table", { id: "tournaments" }, rows), schedulesBox(),
      finishedBox(), createForm(), liveBox());
    return reader((l) => {
      // "  NAME: FORMAT[, OPTIONS], PHASE, N-point matches, N entered, by CREATOR"
      const r = /^  (\S+): (.*), (\w+), (\d+)-point matches, (\d+) entered, by (\S+)$/.exec(l);
      if (!r) return false;
      const open = r[3] === "open";
      const mine = r[6] === state.name;
      rows.append(h("tr", { dataName: r[1] }, h("td", {}, r[1]),
        h("td", {}, `${r[2]}, ${r[4]}-point matches, ${r[5]} entered, by ${r[6]}: ${open ? "open for entries" : r[3]}`),
        h("td", {}, open ? button("Join", () => act(`tournament join ${r[1]}`), "t-join") : null,
          ...(mine ? directing(r[1], open) : []),
          button("Show", () => send(`tournament show ${r[1]}`), "t-show"))));
      return true;
    });
  }
  if (/^\*\* There are no tournaments\./.test(line)) {
    extra.replaceChildren(h("h3", {}, "Tournaments"), h("p", { className: "hint" }, "No tournament is open."),
      schedulesBox(), finishedBox(), createForm(), liveBox());
    return true;
  }
  if ((m = /^Tournament (\S+): (\S+), (\d+)-point matches, (.*)\.$/.exec(line)) && /created by/.test(line)) {
    const show = { name: m[1], head: line.slice(11), rules: [], rounds: [], standings: [], seeds: [], may: null };
    let round = null;
    const paint = () => extra.replaceChildren(...[h("h3", {}, `Tournament ${show.name}`), h("p", {}, show.head),
      ...show.rules.map((t) => h("p", { className: "hint" }, t)),
      show.seeds.length ? h("p", { id: "t-seeds" }, "Seeds: ", ...show.seeds.flatMap((s, i) => [i ? ", " : "",
        h("span", { dataSeed: s.name }, s.text, s.bot ? h("span", { className: "bot-mark", title: "a bot" }, "bot") : null)])) : null,
      h("div", { id: "t-bracket", className: "bracket" }, ...show.rounds.map((r) =>
        h("div", { className: "round" }, h("strong", {}, r.title), ...r.games.map((g) => h("div", { className: "game" }, g))))),
      show.standings.length ? h("ol", { id: "t-standings" }, ...show.standings.map((t) => h("li", {}, t))) : null,
      show.may ? h("div", { className: "row", id: "t-direct" }, ...directing(show.name, show.may === "start")) : null,
      liveBox()].filter(Boolean));
    paint();
    return reader((l) => {
      let r;
      if ((r = /^  Seed \d+: ((\S+) \(.*?\))(, a bot)?$/.exec(l))) show.seeds.push({ name: r[2], text: r[1], bot: !!r[3] });
      else if ((r = /^  You may (start|cancel) it \(/.exec(l))) show.may = r[1];
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
    const won = /^Tournament (\S+) is over: (\S+) wins\.$/.exec(text);
    if (won && state.result && (state.matchTitle || "").startsWith(`tournament ${won[1]},`)) {
      state.result.score = `${state.result.score || ""} ${won[2] === state.name ? "You win" : `${won[2]} wins`} tournament ${won[1]}!`.trim();
      view.renderControls();
    }
    if (/ starts with \d+ players\.$| opened by | is cancelled by /.test(text) && document.getElementById("t-create")) send("tournament list");
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

// Start (while it is open) and Cancel: shown only where this user may direct it.
function directing(name, open) {
  return [open ? button("Start", () => act(`tournament start ${name}`), "t-start") : null,
    button("Cancel", () => act(`tournament cancel ${name}`), "t-cancel")].filter(Boolean);
}

// An option field of the form: a number (empty: the server's default) or a check box.
const number = (id, label, attrs) => h("label", {}, `${label} `, h("input", { id, type: "number", size: 5, ...attrs }));
const check = (id, label) => h("label", {}, h("input", { id, type: "checkbox" }), ` ${label}`);
const value = (id) => document.getElementById(id)?.value.trim() || "";
const checked = (id) => !!document.getElementById(id)?.checked;

// The options of `tournament create`, in its order, each the words it adds (none when
// left empty). Other options are added here with their fields.
export const createOptions = [
  { fields: () => [number("t-rounds", "rounds", { min: 1, max: 99, placeholder: "swiss" })],
    words: (format) => (format === "swiss" && value("t-rounds") ? ["rounds", value("t-rounds")] : []) },
  { fields: () => [check("t-clock", "clock"), number("t-delay", "delay s", { min: 0, placeholder: "12" }),
    number("t-reserve", "reserve s/point", { min: 1, placeholder: "120" })],
    words: () => (!checked("t-clock") ? [] : value("t-delay") && value("t-reserve")
      ? ["clock", value("t-delay"), value("t-reserve")] : ["clock"]) },
  { fields: () => [number("t-noshow", "no-show s", { min: 1, placeholder: "default" })],
    words: () => (value("t-noshow") ? ["noshow", value("t-noshow")] : []) },
  { fields: () => [number("t-max", "at most", { min: 2, placeholder: "any" })],
    words: () => (value("t-max") ? ["max", value("t-max")] : []) },
  { fields: () => [check("t-bots", "bots may enter")], words: () => (checked("t-bots") ? ["bots"] : []) },
  { fields: () => [check("t-consolation", "consolation bracket")],
    words: (format) => (format === "knockout" && checked("t-consolation") ? ["consolation"] : []) },
  // A league (each round lasts so many days) or a correspondence tournament (days per move).
  { fields: () => [number("t-deadline", "days per round", { min: 1, max: 90, placeholder: "none" })],
    words: () => (value("t-deadline") ? ["deadline", value("t-deadline")] : []) },
  { fields: () => [number("t-days", "correspondence: days per move", { min: 0.01, step: "any", placeholder: "no" })],
    words: () => (value("t-days") ? ["days", value("t-days")] : []) },
];

// The recurring events: name, rule in words, what each occurrence is, the next one.
function schedulesBox() {
  // (a block per event, its text wrapping: a phone's width holds it)
  return h("div", { id: "t-schedules" }, h("strong", {}, "Recurring events"), ...(schedules.rows.length
    ? schedules.rows.map((s) => h("p", { dataSchedule: s.name }, h("strong", {}, s.name), ` ${s.rule}; next: ${s.next}`,
      h("br"), h("span", { className: "hint" }, s.what)))
    : [h("p", { className: "hint" }, "No recurring events.")]));
}

// The tournaments over, newest first, each with Show (by id: a name may be used again).
function finishedBox() {
  return h("div", { id: "t-finished" }, finished.length ? h("strong", {}, "Finished") : null,
    ...finished.map((t) => h("div", { dataName: t.name, className: "row" }, h("span", {}, `${t.name} (${t.day}): ${t.what}`),
      button("Show", () => send(`tournament show #${t.id}`), "t-show-finished"))));
}

function repaintFinished() {
  document.getElementById("t-finished")?.replaceWith(finishedBox());
}

function repaintSchedules() {
  document.getElementById("t-schedules")?.replaceWith(schedulesBox());
  const form = document.getElementById("t-create");
  if (form && !!document.getElementById("t-repeat") !== schedules.may) form.replaceWith(createForm());
}

// "Repeat" (for a user who may make schedules): once, or every day or every week at a time.
const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
function repeatFields() {
  return !schedules.may ? [] : [h("label", {}, "repeat ", h("select", { id: "t-repeat" },
    ...["once", "daily", "weekly"].map((r) => h("option", { value: r }, r)))),
  h("select", { id: "t-repeat-day" }, ...DAYS.map((d) => h("option", { value: d }, d))),
  h("label", {}, "at ", h("input", { id: "t-repeat-time", placeholder: "20:00", size: 5 })),
  number("t-min", "at least", { min: 2, placeholder: "2" })];
}

// The words that make the tournament repeat (`tournament schedule NAME WHEN`), or none.
function repeatWords(name) {
  const every = value("t-repeat");
  if (!every || every === "once") return null;
  return ["tournament schedule", name, every, ...(every === "weekly" ? [value("t-repeat-day")] : []), value("t-repeat-time") || "20:00"];
}

// Open a tournament (or make it repeat): its name, format, match length and options.
function createForm() {
  const name = h("input", { id: "t-name", placeholder: "name", size: 10 });
  const format = h("select", { id: "t-format" }, ...["knockout", "swiss", "roundrobin"].map((f) => h("option", { value: f }, f)));
  const length = h("input", { id: "t-length", type: "number", min: 1, max: 99, value: 3, size: 3 });
  return h("div", { id: "t-create" }, h("div", { className: "row" }, name, format, length, h("span", {}, "-point matches")),
    h("div", { className: "row hint" }, ...createOptions.flatMap((option) => option.fields())),
    schedules.may ? h("div", { className: "row hint" }, ...repeatFields()) : null,
    h("div", { className: "row" }, button("Open a tournament", () => {
      const n = name.value.trim();
      const words = createOptions.flatMap((option) => option.words(format.value));
      const repeat = repeatWords(n);
      const what = [format.value, Math.max(1, Math.min(99, Number(length.value) || 1)), ...words];
      if (n && repeat) act([...repeat, ...what, ...(value("t-min") ? ["min", value("t-min")] : [])].join(" "));
      else if (n) act(["tournament create", n, ...what].join(" "));
    }, "t-create")));
}

function liveBox() {
  return h("div", { id: "t-live" }, live.length ? h("strong", {}, "Live results") : null,
    ...live.map((t) => h("div", { className: "hint" }, t)));
}

export const tournaments = () => { send("tournament list"); send("tournament schedules"); send("tournament list finished"); };
