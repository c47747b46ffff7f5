// The chouette (docs/chouette.md), loaded on first use: the table's panel (roles, every
// cube against the box, what the user must answer, what he may do, the ledger and the
// rotation), the chouette list in the lobby with Open a chouette, and the match view's
// overrides while a chouette game is on (the crew watches the captain's board).

import { $, attention, button, h, log, onLines, send, state, view } from "./client.js";

const KINDS = { n: "a single game", g: "a gammon", b: "a backgammon" };
const GAME_KINDS = { normal: "a single game", gammon: "a gammon", backgammon: "a backgammon" };  // FIBS's words

const c = {
  table: null, owner: null, seated: [], queue: [], box: null, partner: null, captain: null, crew: [],
  game: 0, cubes: new Map(), out: new Set(), pending: [], totals: new Map(), next: [], beavers: true,
  list: null, over: "",
};
const me = () => state.name;
const role = () => (!c.box ? null : c.box === me() ? "box" : c.captain === me() ? "captain"
  : c.crew.includes(me()) ? "crew" : "out");
const panel = $("chouette-panel");
const extra = $("extra");
const names = (text) => (text === "nobody" || text === "-" ? [] : text.split(/, | and /).map((s) => s.trim()).filter(Boolean));
const drop = (pred) => { c.pending = c.pending.filter((p) => !pred(p)); };
// What the user owes, once: a second line about the same double or offer updates its row.
function owed(kind, from, fields) {
  let p = c.pending.find((q) => q.kind === kind && q.from === from);
  if (!p) { p = { kind, from }; c.pending.push(p); }
  Object.assign(p, fields);
}

function reset() {
  Object.assign(c, { table: null, owner: null, seated: [], queue: [], box: null, partner: null, captain: null,
    crew: [], game: 0, pending: [], over: "", leaving: false });
  c.cubes.clear(); c.out.clear(); c.totals.clear();
}

// Multi-line answers: a reader takes the lines that belong to it.
function reader(accept) { state.reading = accept; return true; }

function onLine(line) {
  let m;
  // The chouette list, its show and score answers.
  if (/^Chouettes \(number, owner, seated, stage, settings\):$/.test(line)) {
    c.list = []; showList();
    return reader((l) => {
      const r = /^  (\d+) (\S+) (\d+) (\S+)(?: (.*))?$/.exec(l);
      if (!r) return false;
      c.list.push({ n: r[1], owner: r[2], seated: r[3], stage: r[4] }); showList(); return true;
    });
  }
  if (/^\*\* There are no chouettes\./.test(line)) { c.list = []; showList(); return true; }
  if ((m = /^Chouette (\d+) of (\S+), unrated: (.*)$/.exec(line))) {
    c.table = m[1]; c.owner = m[2]; c.beavers = !/beavers=0/.test(m[3]); c.raccoons = /beavers=2/.test(m[3]); draw(); return true;
  }
  if (c.table && (m = /^Queue: (.*)$/.exec(line))) {
    c.queue = m[1].split(", ").map((s) => s.replace(/ \(.*\)$/, ""));
    c.seated = c.queue.slice();
    draw(); return true;
  }
  if (c.table && (m = /^  (\S+) against (\S+): cube (\d+), (.*)$/.exec(line))) {
    c.cubes.set(m[1], Number(m[3])); draw(); return true;
  }
  if (c.table && /^(Game \d+: box |Waiting for: )/.test(line)) return true;
  if ((m = /^Chouette (\d+) score after (\d+) games \(unrated\):$/.exec(line))) {
    c.totals.clear();
    return reader((l) => {
      const r = /^  (\S+) ([+-]?\d+) in \d+ games/.exec(l);
      if (!r) return false;
      c.totals.set(r[1], Number(r[2])); draw(); return true;
    });
  }
  if (/^Chouette \d+, game \d+:/.test(line)) return true;  // the telnet board's header
  if (!line.startsWith("Chouette: ")) return false;
  onChouette(line.slice(10));
  draw();
  view.renderControls();
  return true;
}

function onChouette(t) {
  let m;
  const box = c.box;
  if ((m = /^(\S+) opens chouette (\d+) \((.*)\)\./.exec(t))) {
    if (m[1] === me()) {
      reset(); c.table = m[2]; c.owner = me(); c.seated = [me()]; c.beavers = !/beavers=0/.test(m[3]);
      c.raccoons = /beavers=2/.test(m[3]); showList();
    }
    return log(`${m[1]} opens chouette ${m[2]}: the others join from their Chouettes list.`, "notice");
  }
  if ((m = /^(\S+) joins \((\d+) seated\)\.$/.exec(t))) {
    if (m[1] === me()) { reset(); c.table = "?"; send("chouette show"); send("chouette score"); showList(); }
    if (!c.seated.includes(m[1])) c.seated.push(m[1]);
  } else if ((m = /^(\S+) (leaves|is asked to leave by the owner)\.$/.exec(t))) {
    c.seated = c.seated.filter((n) => n !== m[1]);
    c.queue = c.queue.filter((n) => n !== m[1]);
    if (m[1] === me()) { reset(); closeBoard(); showList(); }
  } else if ((m = /^the order is (.*)\.$/.exec(t))) {
    c.queue = names(m[1]);
  } else if ((m = /^game (\d+)\. Box: (\S+?)(?:, partner (\S+))?\. Captain: (\S+)\. Crew: (.*)\.$/.exec(t))) {
    c.game = Number(m[1]); c.box = m[2]; c.partner = m[3] || null; c.captain = m[4]; c.crew = names(m[5]);
    c.queue = [c.box, ...(c.partner ? [c.partner] : []), c.captain, ...c.crew.filter((n) => n !== c.captain)];
    c.cubes.clear(); c.out.clear(); c.pending = []; c.over = ""; c.confirming = null;
    for (const n of [c.captain, ...c.crew]) c.cubes.set(n, 1);
    if (c.game === 1) state.clock = null;  // (an earlier match's clocks)
    view.newGame();
  } else if ((m = /^an opening tie turns the centred cubes to (\d+)\.$/.exec(t))) {
    for (const n of c.cubes.keys()) c.cubes.set(n, Number(m[1]));
  } else if ((m = /^(\S+) doubles you to (\d+): type |^you must answer (\S+)'s double to (\d+): /.exec(t))) {
    // The server's instructions to the doubled: the row (one per double) has the buttons
    // and counts the answer time down.
    const seconds = /within (\d+) seconds/.exec(t);
    owed("double", m[1] || m[3], { cube: Number(m[2] || m[4]), until: seconds ? Date.now() + Number(seconds[1]) * 1000 : null });
    return;
  } else if ((m = /^(\S+) doubles (.*)\.$/.exec(t))) {
    const doubled = names(m[2]);
    if (m[1] === box && doubled.includes(me())) {
      owed("double", m[1], { cube: 2 * (c.cubes.get(me()) || 1) });
      attention("double", `${m[1]} doubles`);
    } else if (m[1] !== box && me() === box) {
      owed("double", m[1], { cube: 2 * (c.cubes.get(m[1]) || 1) });
      attention("double", `${m[1]} doubles`);
    }
    if (m[1] === me()) state.rollPrompt = false;
  } else if ((m = /^(\S+) has answered/.exec(t))) {
    if (m[1] === me()) drop((p) => p.kind === "double");
  } else if ((m = /^(\S+) (takes|beavers) (\S+)'s double: the cube is (\d+)\.$/.exec(t))) {
    c.cubes.set(m[1] === box ? m[3] : m[1], Number(m[4]));
    if (m[1] === me()) drop((p) => p.kind === "double" && p.from === m[3]);
    // A beaver of my double: I may raccoon it, where the table allows, before my side rolls.
    if (m[2] === "beavers" && m[3] === me() && c.raccoons) c.pending.push({ kind: "raccoon", from: m[1] });
  } else if ((m = /^(\S+) drops (\S+)'s double and pays (\d+)\.$/.exec(t))) {
    c.out.add(m[1] === box ? m[2] : m[1]);
    if (m[1] === me()) drop((p) => p.kind === "double" && p.from === m[2]);
  } else if ((m = /^(\S+) raccoons: the cube is (\d+)\.$/.exec(t))) {
    if (m[1] === me()) drop((p) => p.kind === "raccoon");
    // the cube of the beavered contract; whose is not said: shown by 'chouette show'
    send("chouette show");
  } else if ((m = /^(\S+) offers (\S+) an? (.*?): (\d+) to pay\. Type 'accept' or 'reject'\.$/.exec(t))) {
    if (m[2] === me()) {
      owed("resign", m[1], { points: m[4], what: GAME_KINDS[m[3]] || m[3] });
      attention("resign", `${m[1]} wants to resign`);
    }
    return log(`${m[1]} offers ${m[2] === me() ? "you" : m[2]} ${GAME_KINDS[m[3]] || m[3]}: ${m[4]} to pay.`, "notice");
  } else if ((m = /^(\S+) offers you an? (\S+): type 'accept' or 'reject'\.$/.exec(t))) {
    owed("resign", m[1], { what: GAME_KINDS[m[2]] || m[2] });
    return;
  } else if ((m = /^you may give (\S+) an extra cube: .*within (\d+) seconds\.$/.exec(t))) {
    if (!c.pending.some((p) => p.kind === "extra")) c.pending.push({ kind: "extra", to: m[1], cube: "", fee: "" });
    return;
  } else if (/^you are offered to be the box's partner: /.test(t)) {
    if (!c.pending.some((p) => p.kind === "partner-offer")) c.pending.push({ kind: "partner-offer" });
    return;
  } else if (/^it is your turn: /.test(t)) {
    return log("It is your turn.", "notice");
  } else if ((m = /^(\S+) (accepts|rejects) the resignation\.$/.exec(t))) {
    if (m[1] === me()) { const i = c.pending.findIndex((p) => p.kind === "resign"); if (i >= 0) c.pending.splice(i, 1); }
  } else if ((m = /^(.*) may each give (\S+) an extra cube at (\d+) for (\d+)/.exec(t))) {
    if (names(m[1]).includes(me())) c.pending.push({ kind: "extra", to: m[2], cube: m[3], fee: m[4] });
    return log(`${m[1]} may each give ${m[2]} an extra cube at ${m[3]} for ${m[4]}.`, "notice");
  } else if ((m = /^(\S+) gives (\S+) an extra cube/.exec(t))) {
    if (m[1] === me()) drop((p) => p.kind === "extra");
  } else if ((m = /^(\S+) may take a partner:/.exec(t))) {
    if (m[1] === me()) c.pending.push({ kind: "partner-ask" });
    return log(`${m[1]} may take a partner.`, "notice");
  } else if ((m = /^(\S+) is offered to be the box's partner:/.exec(t))) {
    if (m[1] === me()) c.pending.push({ kind: "partner-offer" });
    return log(`${m[1]} is offered to be the box's partner.`, "notice");
  } else if ((m = /^(\S+) (declines to be|is) the box's partner/.exec(t))) {
    if (m[1] === me() || m[2] === "is") drop((p) => p.kind.startsWith("partner"));
    if (m[2] === "is") c.partner = m[1];
  } else if ((m = /^(\S+) is captain now\.$/.exec(t))) {
    c.captain = m[1];
    c.crew = c.crew.filter((n) => n !== m[1]);
  } else if ((m = /^game (\d+) over\. (.*)\. Next: (.*)\.$/.exec(t))) {
    for (const part of m[2].split(", ")) {
      const r = /^(\S+) ([+-]?\d+)$/.exec(part);
      if (r) c.totals.set(r[1], (c.totals.get(r[1]) || 0) + Number(r[2]));
    }
    c.next = names(m[3]);
    c.over = `Game ${m[1]}: ${m[2]}.`;
    c.pending = [];
    c.box = c.captain = null;
    // No next game for this user (he leaves, or nobody is left): the last board goes, the
    // ledger stays in the lobby.
    if (!c.next.includes(me())) {
      closeBoard();
      if (c.leaving) { log(t, "notice"); reset(); showList(); return; }
    }
  } else if ((m = /^(\S+) leaves when this game ends\.$/.exec(t))) {
    if (m[1] === me()) c.leaving = true;
  } else if (/^the chouette is closed\./.test(t)) {
    reset();
    closeBoard();
  } else if ((m = /^(\S+) to the (team|box side): (.*)$/.exec(t))) {
    return log(`${m[1]} (to the ${m[2]}): ${m[3]}`, "chat");
  }
  log(t.replace(/ \(type 'chouette start' with 3 or more\)/, ""), "notice");
}

// The table is gone for this user: its board and buttons go too (a Roll there would only
// get "You're not playing.").
function closeBoard() {
  Object.assign(state, { board: null, shown: null, clock: null, result: null, offer: null, waiting: null, rollPrompt: false });
  $("match-view").hidden = true;
  view.renderControls();
}

// --- the table's panel: roles, every cube, what to answer, the ledger and rotation ----

function draw() {
  // Beside the board during a game, else in the lobby.
  if (state.board) { if (panel.parentElement !== $("match-view")) $("actions").after(panel); }
  else if (c.table && panel.parentElement !== extra) extra.append(panel);
  panel.hidden = !c.table;
  if (!c.table) return;
  const r = role();
  const parts = [];
  const title = c.box
    ? `Chouette ${c.table}, game ${c.game}: box ${c.box}${c.partner ? ` with ${c.partner}` : ""}, captain ${c.captain}${c.crew.length ? `, crew ${c.crew.join(", ")}` : ""}.`
    : `Chouette ${c.table}: ${c.seated.length} seated (${c.seated.join(", ")}).`;
  parts.push(h("div", { className: "chouette-title" }, title));
  if (r) {
    const own = r === "box" ? "You are the box: you play against every cube."
      : r === "out" ? "You are out of this game."
      : `You are ${r === "captain" ? "the captain: you roll and move" : `on ${c.captain}'s team`}; your cube: ${c.out.has(me()) ? "dropped" : c.cubes.get(me()) || 1}.`;
    parts.push(h("div", { id: "chouette-role" }, own));
  }
  if (c.box) {
    const cubes = [...c.cubes].map(([n, v]) => `${n} ${c.out.has(n) ? "out" : v}`).join(" · ");
    parts.push(h("div", { id: "chouette-cubes" }, `Cubes against the box: ${cubes}`));
  }
  // What this user must answer.
  for (const p of c.pending) {
    const row = h("div", { className: "invitation", dataKind: p.kind, dataFrom: p.from || "" });
    const to = r === "box" && p.from ? ` ${p.from}` : "";
    if (p.kind === "double") {
      const left = p.until ? Math.max(0, Math.ceil((p.until - Date.now()) / 1000)) : null;
      row.append(h("span", {}, `${p.from} doubles${r === "box" ? "" : " you"} to ${p.cube}: take and play for ${p.cube}, or pass and pay ${p.cube / 2}.`
        + (left === null ? "" : ` ${left} s to answer.`)),
        button("Take", () => act(`accept${to}`), "c-accept"), button("Pass", () => act(`reject${to}`), "c-reject"));
      if (c.beavers) row.append(button("Beaver", () => act(`beaver${to}`), "c-beaver"));
    } else if (p.kind === "resign") {
      row.append(h("span", {}, `${p.from} offers you ${p.what}${p.points ? `: you win ${p.points}` : ""}.`),
        button("Accept", () => act(`accept${to}`), "c-accept"), button("Reject", () => act(`reject${to}`), "c-reject"));
    } else if (p.kind === "raccoon") {
      row.append(h("span", {}, `${p.from} beavered your double. Raccoon (double it again)?`),
        button("Raccoon", () => { drop((q) => q === p); act(r === "box" ? `raccoon ${p.from}` : "raccoon"); }, "c-raccoon"),
        button("No", () => { drop((q) => q === p); draw(); }, "c-noraccoon"));
    } else if (p.kind === "extra") {
      row.append(h("span", {}, `Give ${p.to} an extra cube${p.cube ? ` at ${p.cube} for ${p.fee}` : ""}?`),
        button("Give", () => act("chouette extra"), "c-extra"), button("No", () => act("chouette noextra"), "c-noextra"));
    } else if (p.kind === "partner-ask") {
      row.append(h("span", {}, "You may take a partner for your run as box."),
        button("Take a partner", () => act("chouette partner"), "c-partner"));
    } else if (p.kind === "partner-offer") {
      row.append(h("span", {}, "Be the box's partner?"),
        button("Yes", () => act("chouette partner yes"), "c-partner-yes"), button("No", () => act("chouette partner no"), "c-partner-no"));
    }
    parts.push(row);
  }
  // An answer time running: the rows count it down.
  clearTimeout(c.countdown);
  if (c.pending.some((p) => p.until)) c.countdown = setTimeout(draw, 1000);
  // What this user may do.
  const buttons = h("div", { className: "row" });
  const b = state.board;
  const answering = c.pending.some((p) => p.kind === "double" || p.kind === "resign");
  if (r === "box" && state.rollPrompt && !answering) buttons.append(button("Double all", () => { state.rollPrompt = false; act("double"); }, "c-double"));
  if ((r === "captain" || r === "crew") && b && b.turn === b.colour && !b.dice[0] && b.mayDouble[0] && !c.out.has(me()) && !answering) {
    buttons.append(button("Double", () => act("double"), "c-double"));
  }
  if (r && r !== "out" && b && b.turn !== 0 && !answering && !(r !== "box" && c.out.has(me()))) {
    const kind = h("select", { id: "c-resign-kind" },
      ...Object.entries(KINDS).map(([k, v]) => h("option", { value: k }, v)));
    buttons.append(kind, button("Resign…", () => { c.confirming = kind.value; draw(); }, "c-resign"));
  }
  if (c.confirming) {
    parts.push(h("div", { className: "invitation", id: "c-resign-confirm" }, h("span", {}, resignQuestion(c.confirming)),
      button("Resign", () => { const k = c.confirming; c.confirming = null; act(`resign ${k}`); }, "c-resign-yes"),
      button("Cancel", () => { c.confirming = null; draw(); }, "c-resign-no")));
  }
  if (!c.box && c.seated.length >= 3) buttons.append(button("Start", () => act("chouette start"), "c-start"));
  buttons.append(button("Leave the table", () => act("chouette leave"), "c-leave"));
  parts.push(buttons);
  // The ledger and the rotation.
  const ledger = h("table", { className: "ledger", id: "chouette-ledger" },
    h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Total"))),
    h("tbody", {}, ...[...c.totals].sort((x, y) => y[1] - x[1]).map(([n, v]) =>
      h("tr", { dataUser: n }, h("td", {}, n), h("td", {}, v > 0 ? `+${v}` : String(v))))));
  if (c.totals.size) parts.push(ledger);
  if (c.over) parts.push(h("div", { id: "chouette-last" }, c.over));
  const order = c.next.length && !c.box ? c.next : c.queue;
  if (order.length) parts.push(h("div", { id: "chouette-queue" }, `Rotation: ${order.join(" → ")}`));
  panel.replaceChildren(...parts);
}

function resignQuestion(kind) {
  const cube = c.cubes.get(me()) || 1;
  const factor = { n: 1, g: 2, b: 3 }[kind];
  if (role() === "box") return `Resign ${KINDS[kind]} to every live cube?`;
  return `Resign ${KINDS[kind]} on your cube (${cube})? The box wins ${cube * factor}.`;
}

function act(command) { send(command); draw(); view.renderControls(); }

// Overrides for the match view: the crew watches the captain's board; the status says so.
function render() {
  draw();
  if (!c.box || !state.board) return;
  const r = role();
  const info = $("turn-info");
  if (c.pending.length) info.textContent = "The chouette asks you: see below.";
  else if (r === "crew" || r === "out") {
    const b = state.board;
    info.textContent = `${c.captain} plays for the team against the box ${c.box}${b.turn === 0 ? "." : b.turn === b.colour ? ": the team's turn." : ": the box's turn."}`;
  } else if (r === "box" && state.rollPrompt) info.textContent = "Your turn: roll, or double every cube you may.";
  $("unwatch").hidden = true;
  $("match-info").textContent = `chouette ${c.table}, game ${c.game}`;
}

function active() { return !!c.table && (!!c.box || c.seated.length > 0); }

// --- the chouette list in the lobby ----------------------------------------------------

function showList() {
  const rows = (c.list || []).map((t) => h("div", { className: "saved-row", dataTable: t.n },
    h("span", {}, `Chouette ${t.n} of ${t.owner}: ${t.seated} seated, ${t.stage}`),
    c.table ? null : button("Join", () => act(`chouette join ${t.owner}`), "c-join")));
  if (c.table) {
    extra.replaceChildren(h("h3", {}, "Chouettes"), state.board ? h("p", { className: "hint" }, `You sit at chouette ${c.table}: its table is beside the board.`) : panel);
    return;
  }
  extra.replaceChildren(...[h("h3", {}, "Chouettes"), ...rows,
    rows.length ? null : h("p", { className: "hint" }, "No chouette is open."),
    h("div", { className: "row" },
      h("select", { id: "c-cubes" }, h("option", { value: "multi" }, "a cube each"), h("option", { value: "single" }, "one team cube")),
      h("select", { id: "c-beavers" }, h("option", { value: "1" }, "beavers"), h("option", { value: "2" }, "beavers and raccoons"),
        h("option", { value: "0" }, "no beavers")),
      h("label", {}, h("input", { type: "checkbox", id: "c-jacoby", checked: true }), "Jacoby"),
      // The invitation's clocks (not correspondence), the reserve per game (K6).
      h("select", { id: "c-clock", ariaLabel: "clock" }, ...[...$("invite-clock").options]
        .filter((o) => !o.value.startsWith("days")).map((o) => h("option", { value: o.value }, o.text.replace("/point", "/game")))),
      button("Open a chouette", () => {
        const single = $("c-cubes").value === "single";
        const words = ["chouette create", $("c-cubes").value, `jacoby=${$("c-jacoby").checked ? "on" : "off"}`];
        if (!single) words.push(`beavers=${$("c-beavers").value}`);
        if ($("c-clock").value) words.push($("c-clock").value);
        act(words.join(" "));
      }, "c-create"))].filter(Boolean));
}


onLines(onLine, true);
state.chouette = { render, active };
export const chouettes = () => send("chouette list");
