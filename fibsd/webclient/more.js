// Loaded on first use (a dynamic import): the chouette at the table, the chouette list, the
// leaderboard, your finished matches and their replays. Speaks only CLIP and fibsd's
// `Chouette:` lines (docs/chouette.md), like the rest of the page.

import { applyMove } from "./clip.js";
import { drawBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
const KINDS = { n: "a single game", g: "a gammon", b: "a backgammon" };

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("data")) node.dataset[k.slice(4).toLowerCase()] = v; else node[k] = v;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

export function install(app) {
  const { state, send, log, renderControls, button, attention, newGame } = app;
  const c = {
    table: null, owner: null, seated: [], queue: [], box: null, partner: null, captain: null, crew: [],
    game: 0, cubes: new Map(), out: new Set(), pending: [], totals: new Map(), next: [], beavers: true,
    reading: null, list: null, over: "",
  };
  const me = () => state.name;
  const role = () => (!c.box ? null : c.box === me() ? "box" : c.captain === me() ? "captain"
    : c.crew.includes(me()) ? "crew" : "out");
  const panel = $("chouette-panel");
  const extra = $("extra");
  const names = (text) => (text === "nobody" || text === "-" ? [] : text.split(/, | and /).map((s) => s.trim()).filter(Boolean));
  const drop = (pred) => { c.pending = c.pending.filter((p) => !pred(p)); };

  function reset() {
    Object.assign(c, { table: null, owner: null, seated: [], queue: [], box: null, partner: null, captain: null,
      crew: [], game: 0, pending: [], over: "" });
    c.cubes.clear(); c.out.clear(); c.totals.clear();
  }

  // Multi-line answers: a reader takes the lines that belong to it.
  function reader(accept) { c.reading = accept; return true; }

  function onLine(line) {
    let m;
    if (c.reading) { if (c.reading(line)) return true; c.reading = null; }
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
    if (ratingsLine(line) || historyLine(line) || tournamentLine(line) || analysisLine(line)) return true;
    if (!line.startsWith("Chouette: ")) return false;
    onChouette(line.slice(10));
    draw();
    renderControls();
    return true;
  }

  // Lines meant for this module that do not start with "Chouette".
  function wants(line) {
    return !!c.reading || /^( rank name +rating|Your finished matches|\*\* You have no finished matches)/.test(line);
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
      if (m[1] === me()) { reset(); state.board = state.shown = null; $("match-view").hidden = true; showList(); }
    } else if ((m = /^the order is (.*)\.$/.exec(t))) {
      c.queue = names(m[1]);
    } else if ((m = /^game (\d+)\. Box: (\S+?)(?:, partner (\S+))?\. Captain: (\S+)\. Crew: (.*)\.$/.exec(t))) {
      c.game = Number(m[1]); c.box = m[2]; c.partner = m[3] || null; c.captain = m[4]; c.crew = names(m[5]);
      c.queue = [c.box, ...(c.partner ? [c.partner] : []), c.captain, ...c.crew.filter((n) => n !== c.captain)];
      c.cubes.clear(); c.out.clear(); c.pending = []; c.over = ""; c.confirming = null;
      for (const n of [c.captain, ...c.crew]) c.cubes.set(n, 1);
      newGame();
    } else if ((m = /^an opening tie turns the centred cubes to (\d+)\.$/.exec(t))) {
      for (const n of c.cubes.keys()) c.cubes.set(n, Number(m[1]));
    } else if ((m = /^(\S+) doubles (.*)\.$/.exec(t))) {
      const doubled = names(m[2]);
      if (m[1] === box && doubled.includes(me())) {
        c.pending.push({ kind: "double", from: m[1], cube: 2 * (c.cubes.get(me()) || 1) });
        attention("double", `${m[1]} doubles`);
      } else if (m[1] !== box && me() === box) {
        c.pending.push({ kind: "double", from: m[1], cube: 2 * (c.cubes.get(m[1]) || 1) });
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
        c.pending.push({ kind: "resign", from: m[1], points: m[4], what: m[3] });
        attention("resign", `${m[1]} wants to resign`);
      }
      return log(`${m[1]} offers ${m[2] === me() ? "you" : m[2]} ${/^[aeiou]/.test(m[3]) ? "an" : "a"} ${m[3]}: ${m[4]} to pay.`, "notice");
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
    } else if (/^the chouette is closed\./.test(t)) {
      reset();
    } else if ((m = /^(\S+) to the (team|box side): (.*)$/.exec(t))) {
      return log(`${m[1]} (to the ${m[2]}): ${m[3]}`, "chat");
    }
    log(t.replace(/ \(type 'chouette start' with 3 or more\)/, ""), "notice");
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
        row.append(h("span", {}, `${p.from} doubles${r === "box" ? "" : " you"} to ${p.cube}: take and play for ${p.cube}, or pass and pay ${p.cube / 2}.`),
          button("Take", () => act(`accept${to}`), "c-accept"), button("Pass", () => act(`reject${to}`), "c-reject"));
        if (c.beavers) row.append(button("Beaver", () => act(`beaver${to}`), "c-beaver"));
      } else if (p.kind === "resign") {
        row.append(h("span", {}, `${p.from} offers you ${p.what}: you win ${p.points}.`),
          button("Accept", () => act(`accept${to}`), "c-accept"), button("Reject", () => act(`reject${to}`), "c-reject"));
      } else if (p.kind === "raccoon") {
        row.append(h("span", {}, `${p.from} beavered your double. Raccoon (double it again)?`),
          button("Raccoon", () => { drop((q) => q === p); act(r === "box" ? `raccoon ${p.from}` : "raccoon"); }, "c-raccoon"),
          button("No", () => { drop((q) => q === p); draw(); }, "c-noraccoon"));
      } else if (p.kind === "extra") {
        row.append(h("span", {}, `Give ${p.to} an extra cube at ${p.cube} for ${p.fee}?`),
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

  function act(command) { send(command); draw(); renderControls(); }

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
        button("Open a chouette", () => {
          const single = $("c-cubes").value === "single";
          const words = ["chouette create", $("c-cubes").value, `jacoby=${$("c-jacoby").checked ? "on" : "off"}`];
          if (!single) words.push(`beavers=${$("c-beavers").value}`);
          act(words.join(" "));
        }, "c-create"))].filter(Boolean));
  }

  // --- the leaderboard ---------------------------------------------------------------------

  let board = null;
  function ratingsLine(line) {
    if (!/^ rank name +rating +Experience$/.test(line)) return false;
    board = h("tbody");
    extra.replaceChildren(h("h3", {}, "Leaderboard"), h("table", { id: "leaderboard" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Name"), h("th", {}, "Rating"), h("th", {}, "Exp."))), board),
      h("p", { className: "hint" }, "Players with more than 50 points of experience."));
    return reader((l) => {
      const r = /^([ *])\s*(\d+) (\S+)\s+(-?[\d.]+)\s+(\d+)$/.exec(l);
      if (!r) return false;
      board.append(h("tr", { className: r[1] === "*" ? "me" : "" }, h("td", {}, r[2]), h("td", {}, r[3]), h("td", {}, r[4]), h("td", {}, r[5])));
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
          button("Analysis", () => { send(`analysis ${r[1]}`); send(`analysis ${r[1]} moves`); }, "analysis"))));
      return true;
    });
  }

  function replay(id) {
    const mat = [];
    send(`export ${id}`);
    c.reading = (l) => {
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

  // --- tournaments: the list, a bracket or standings, live results, your next pairing -----

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

  // --- analysis: PR per player, the errors, an error's position with the best play --------

  function analysisLine(line) {
    let m;
    if ((m = /^Analysis of match (\d+) \((.*)\) by (.*):$/.exec(line))) {
      const rows = h("tbody");
      extra.replaceChildren(h("h3", {}, `Analysis of match ${m[1]}`), h("p", { className: "hint" }, `${m[2]}, by ${m[3]}`),
        h("table", { id: "analysis" }, h("thead", {}, h("tr", {}, ...["Player", "PR", "", "Errors", "Blunders", "Cube err.", "Luck"].map((t) => h("th", {}, t)))), rows),
        h("div", { id: "analysis-moves" }));
      return reader((l) => {
        const r = /^Player (\S+): PR (\S+) \(([a-z ]+)\); (\d+) decisions; checker (\d+) errors, (\d+) blunders; cube (\d+) errors, (\d+) blunders; luck (\S+)$/.exec(l);
        if (!r) return false;
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
      box.replaceChildren(h("table", { id: "analysis-errors" }, rows), caption, svg);
      return reader((l) => {
        const r = /^Game (\d+) (\S+) (\S{14}) ([1-6]{2}|-) (error|blunder|cube-error|cube-blunder): (.+) \| best: (.+) \| -(\d+\.\d{3})$/.exec(l);
        if (!r) return false;
        const show = () => {
          let board = positionBoard(r[3], r[2], r[4]);
          if (r[4] !== "-") board = play(board, r[7]);
          drawBoard(svg, board);
          caption.textContent = `Game ${r[1]}, ${r[2]} ${r[4] === "-" ? "" : `to play ${r[4]}`}: played ${r[6]}; best ${r[7]} (drawn), ${r[8]} lost.`;
        };
        rows.append(h("tr", { className: r[5].includes("blunder") ? "blunder" : "error", dataGame: r[1] },
          ...[`Game ${r[1]}`, r[2], r[4], r[5], r[6], r[7], `-${r[8]}`].map((t) => h("td", {}, t)),
          h("td", {}, button("Show", show, "a-show"))));
        return true;
      });
    }
    return false;
  }

  return { onLine, wants, render, active, draw, tournaments: () => send("tournament list"),
    ratings: () => send("ratings"), history: () => send("export"), chouettes: () => send("chouette list") };
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
      board = start(names, score, length);
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

// A gnubg position ID (14 characters of base64: 80 bits, least significant first; the
// player on roll's 25 places from his ace point to the bar, then his opponent's), drawn
// from the side of the player on roll.
export function positionBoard(id, name, dice) {
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const bits = [];
  for (const ch of id) { const v = digits.indexOf(ch); for (let i = 5; i >= 0; i--) bits.push((v >> i) & 1); }
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(bits.slice(i, i + 8).reduce((a, b) => a * 2 + b, 0));
  const stream = [];
  for (const byte of bytes) for (let i = 0; i < 8; i++) stream.push((byte >> i) & 1);
  const counts = [[], []];
  let k = 0;
  for (const side of [0, 1]) {
    for (let place = 0; place < 25; place++) {
      let n = 0;
      while (stream[k++] === 1) n++;
      counts[side].push(n);
    }
  }
  const b = start([name, "opponent"], [0, 0], 0);
  b.points = Array(26).fill(0);
  for (let q = 1; q <= 24; q++) { b.points[q] += counts[0][q - 1]; b.points[25 - q] -= counts[1][q - 1]; }
  b.onBar = [counts[0][24], counts[1][24]];
  b.points[25] = counts[0][24]; b.points[0] = -counts[1][24];
  b.off = [15 - counts[0].reduce((a, x) => a + x, 0), 15 - counts[1].reduce((a, x) => a + x, 0)];
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

function start(names, score, length) {
  const points = Array(26).fill(0);
  for (const [p, n] of [[24, 2], [13, 5], [8, 3], [6, 5]]) { points[p] = n; points[25 - p] = -n; }
  return { player: names[0], opponent: names[1], matchLength: length || 9999, score, points, turn: 0,
    dice: [0, 0], opponentDice: [0, 0], cube: 1, mayDouble: [true, true], wasDoubled: false, colour: 1,
    direction: -1, home: 0, bar: 25, off: [0, 0], onBar: [0, 0], canMove: 0, postCrawford: false };
}
