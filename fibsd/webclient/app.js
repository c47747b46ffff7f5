// fibsd's web client: a FIBS client speaking CLIP over the server's WebSocket (/fibs).
// It sends what any FIBS client sends (login CLIENT 1008 NAME PASSWORD, set boardstyle 3,
// toggles, commands) and reads what every client reads (CLIP lines, board: lines, FIBS's
// sentences), so it needs nothing from the server that other clients do not get.

import { LineSplitter, applyMove, destination, moveText, parseBoard, parseChat,
  parseMoveText, parseOwnInfo, parseWho } from "./clip.js";
import { describe, drawBoard } from "./board.js";

const CLIENT_NAME = "fibsd-web";
const STEP_MS = 350;  // one checker of an opponent's move, when it is shown step by step

const $ = (id) => document.getElementById(id);

const state = {
  ws: null, splitter: null, mode: "idle",  // idle | login | register | online
  name: "", password: "", afterRegister: false,
  own: null, users: new Map(), invitations: new Map(), saved: [], readingSaved: false,
  board: null,      // the last board: line, parsed
  shown: null,      // what the board view shows (the board plus moves being made)
  dice: [],         // the dice not yet used by the moves being made
  moves: [],        // [from, to] of the moves being made
  selected: null, rollPrompt: false, answer: null, nextGame: false,
  steps: null,      // an opponent's move waiting for its board, to be shown step by step
  animation: 0,     // the running animation's id (a newer board cancels it)
  inMotd: false,
};

// --- connection ----------------------------------------------------------------------

function connect(mode) {
  if (state.ws) state.ws.close();
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/fibs`;
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  state.ws = ws;
  state.mode = mode;
  state.splitter = new LineSplitter();
  setStatus("connecting…");
  ws.onmessage = (event) => {
    if (ws !== state.ws) return;
    const data = typeof event.data === "string" ? new TextEncoder().encode(event.data).buffer : event.data;
    for (const line of state.splitter.feed(data)) onLine(line);
    onPrompt(state.splitter.pending);
  };
  ws.onclose = () => {
    if (ws !== state.ws) return;
    state.ws = null;
    if (state.mode === "online") {
      log("Connection closed.", "error");
      setStatus("not connected");
      showLoggedOut();
    } else if (state.mode === "login" || state.mode === "register") {
      const error = $("login-error").textContent;
      return loginFailed(error || "Could not reach the server (or it closed the connection).");
    }
    state.mode = "idle";
  };
}

function send(line) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.ws.send(new TextEncoder().encode(line + "\r\n"));
}

function setStatus(text) { $("status").textContent = text; }

// Unterminated prompts drive the login and registration dialogues.
function onPrompt(rest) {
  if (!rest) return;
  if (state.mode === "login" && rest === "login: ") {
    state.splitter.pending = "";
    if (state.loginSent) return loginFailed("Wrong name or password.");
    state.loginSent = true;
    send(`login ${CLIENT_NAME} 1008 ${state.name} ${state.password}`);
  } else if (state.mode === "register") {
    const answers = { "login: ": "guest", "> ": `name ${state.name}`,
      "Please give your password: ": state.password, "Please retype your password: ": state.password };
    if (rest in answers) {
      state.splitter.pending = "";
      if (rest === "> " && state.registerStep === "name") return;  // the name was refused
      if (rest === "> ") state.registerStep = "name";
      send(answers[rest]);
    }
  }
}

function loginFailed(message) {
  $("login-error").textContent = message;
  state.mode = "idle";
  if (state.ws) state.ws.close();
  state.ws = null;
  setStatus("not connected");
}

// --- lines ---------------------------------------------------------------------------

function onLine(line) {
  if (state.mode === "register") return onRegisterLine(line);
  if (state.mode === "login") {
    if (/^1 \S+ /.test(line)) return loggedIn(line);
    if (line.startsWith("** ")) $("login-error").textContent = line.slice(3);
    return;
  }
  if (state.mode !== "online") return;
  if (line === "3") { state.inMotd = true; return; }
  if (line === "4") { state.inMotd = false; return; }
  if (state.inMotd) return log(line, "motd");
  if (line.startsWith("board:")) return onBoard(parseBoard(line));
  if (/^2 /.test(line)) return onOwnInfo(parseOwnInfo(line));
  if (/^5 /.test(line)) { const who = parseWho(line); if (who) onWho(who); return; }
  if (line === "6") return renderLobby();
  let m;
  if ((m = /^([78]) (\S+) (.*)$/.exec(line))) {
    if (m[1] === "8") { state.users.delete(m[2]); state.invitations.delete(m[2]); renderLobby(); }
    return log(m[3], "notice");
  }
  if ((m = /^9 (\S+) (\d+) (.*)$/.exec(line))) return log(`Message from ${m[1]}: ${m[3]}`, "chat");
  if ((m = /^1[01] (\S+)$/.exec(line))) return log(line[1] === "0" ? `Message delivered to ${m[1]}.` : `Message saved for ${m[1]}.`);
  const chat = parseChat(line);
  if (chat) return onChat(chat);
  onText(line);
}

function onRegisterLine(line) {
  if (line.startsWith("You are registered")) {
    state.mode = "registered";  // the telnet session that follows is only left
    send("bye");
    state.afterRegister = true;
    // Log in with CLIP on a fresh connection, as any client does after registering.
    setTimeout(() => { state.loginSent = false; connect("login"); }, 0);
  } else if (line.startsWith("** ")) {
    loginFailed(line.slice(3));
  }
}

function loggedIn(line) {
  state.mode = "online";
  state.users.clear();
  state.invitations.clear();
  state.saved = [];
  $("login-error").textContent = "";
  setStatus(`logged in as ${state.name}`);
  $("login-view").hidden = true;
  for (const id of ["lobby-view", "chat-view", "logout"]) $(id).hidden = false;
  if (state.afterRegister) log(`Welcome, ${state.name}: you are registered.`, "me");
  log(`Logged in as ${line.split(" ")[1]}.`, "me");
  send("set boardstyle 3");
}

function onOwnInfo(info) {
  if (!info) return;
  state.own = info;
  // The toggles this page relies on: a board after every move and roll, login notices.
  for (const toggle of ["autoboard", "moreboards", "notify"]) {
    if (info[toggle] === "0") send(`toggle ${toggle}`);
  }
  send("show saved");
}

function onWho(who) {
  state.users.set(who.name, who);
  if (who.name.toLowerCase() === state.name.toLowerCase()) {
    state.name = who.name;
    $("ready").checked = who.ready;
    $("away").checked = who.away;
  }
}

function onChat({ kind, from, text }) {
  if (kind.startsWith("you")) {
    const to = kind === "you tell" ? ` ${from}` : "";
    return log(`${kind}${to}: ${text}`, "me");
  }
  log(`${from} ${kind}: ${text}`, "chat");
}

// FIBS's sentences that change what the page offers; everything else is shown as is.
function onText(line) {
  let m;
  if ((m = /^(\S+) wants to (play an? .+? match|resume a saved match) with you\.$/.exec(line))) {
    state.invitations.set(m[1], line);
    renderLobby();
  } else if (/^Type 'join \S+' to accept\.$/.test(line)) {
    return;  // the invitation has a Join button
  } else if ((m = /^\*\* You are now playing .* with (\S+)$|^You are now playing with (\S+)\./.exec(line))
             || (m = /^\*\* Player (\S+) has joined you|^Player (\S+) has joined you|^(\S+) has joined you\./.exec(line))) {
    state.invitations.clear();
    state.nextGame = false;
    renderLobby();
  } else if (/^It's your turn\. Please roll or double/.test(line)) {
    state.rollPrompt = true;
  } else if (/ Type 'accept'(, 'reject' or 'redouble'| or 'reject')\.$/.test(line)) {
    state.answer = line;
  } else if (/^Type 'join' if you want to play the next game/.test(line)) {
    state.nextGame = true;
    state.answer = null;
  } else if ((m = /^(\S+) moves (.*) \.$/.exec(line))) {
    state.steps = { who: m[1], text: m[2] };
  } else if (/^  opponent +matchlength/.test(line)) {
    state.saved = []; state.readingSaved = true; return;
  } else if (state.readingSaved && (m = /^[ *]{2}(\S+) +(\d+|unlimited) +(\d+) - +(\d+)$/.exec(line))) {
    state.saved.push({ name: m[1], length: m[2], score: `${m[3]}–${m[4]}` });
    renderLobby(); return;
  } else if (line === "no saved games.") {
    state.saved = []; renderLobby(); return;
  } else if (/(wins|win) the \d+ point match|wins a \d+ point match/.test(line)) {
    state.nextGame = false; state.answer = null;
    send("show saved");
  } else if (/The game was saved\.$|You're not watching anymore|You stop watching/.test(line)) {
    state.answer = null; state.rollPrompt = false; state.nextGame = false;
    send("show saved");
  }
  if (state.readingSaved && !/^[ *]{2}\S/.test(line)) state.readingSaved = false;
  log(line, line.startsWith("** ") ? "notice" : "");
  if (line.startsWith("** ") && state.moves.length && state.board) resetMoves();  // refused
  renderControls();
}

// --- the match -----------------------------------------------------------------------

function playing() { return state.board && state.board.player === "You"; }
function myTurn() { return playing() && state.board.turn !== 0 && state.board.turn === state.board.colour; }

function onBoard(board) {
  if (!board) return;
  const previous = state.shown;
  state.board = board;
  state.rollPrompt = state.rollPrompt && board.dice[0] === 0 && myTurn();
  if (board.turn === 0) state.answer = null;
  $("match-view").hidden = false;
  const steps = state.steps;
  state.steps = null;
  resetMoves(false);
  // Show an opponent's (or, watching, either player's) move checker by checker.
  const id = ++state.animation;
  if (steps && previous && previous.player === board.player && previous.opponent === board.opponent) {
    const mover = board.player !== "You" && steps.who === board.player ? 1 : -1;
    const moves = parseMoveText(steps.text, previous, mover);
    let shown = previous;
    moves.forEach(([from, to], i) => {
      setTimeout(() => {
        if (id !== state.animation) return;
        shown = applyMove({ ...shown, dice: [0, 0], opponentDice: board.opponentDice }, from, to, mover);
        state.shown = shown;
        render();
      }, STEP_MS * i);
    });
    setTimeout(() => { if (id === state.animation) { state.shown = board; render(); } }, STEP_MS * moves.length);
    return;
  }
  render();
}

function resetMoves(redraw = true) {
  const b = state.board;
  state.shown = b;
  state.moves = [];
  state.selected = null;
  const rolled = b && myTurn() && b.dice[0] > 0 && b.canMove > 0;
  state.dice = !rolled ? [] : b.dice[0] === b.dice[1] ? Array(4).fill(b.dice[0]) : b.dice.slice();
  if (redraw) render();
}

function targetsFrom(from) {
  const out = new Map();  // destination -> the die it uses (the smallest that gets there)
  for (const die of [...new Set(state.dice)].sort((a, b) => a - b)) {
    const to = destination(state.shown, from, die);
    if (to !== null && !out.has(to)) out.set(to, die);
  }
  return out;
}

function anyMoveLeft() {
  const b = state.shown;
  for (let p = 0; p <= 25; p++) if (targetsFrom(p).size) return true;
  return b.onBar[0] > 0 && targetsFrom(b.bar).size > 0;
}

function onPoint(p, event) {
  if (!state.dice.length || state.moves.length >= state.board.canMove) return;
  const targets = state.selected === null ? new Map() : targetsFrom(state.selected);
  if (targets.has(p)) return makeMove(state.selected, p, targets.get(p));
  if (targetsFrom(p).size) {
    state.selected = p;
    render();
    startDrag(event);
  } else if (state.selected !== null) {
    state.selected = null;
    render();
  }
}

function onDrop(p) {
  stopDrag();
  if (state.selected === null || p === state.selected) return;
  const targets = targetsFrom(state.selected);
  if (targets.has(p)) makeMove(state.selected, p, targets.get(p));
}

function makeMove(from, to, die) {
  state.moves.push([from, to]);
  state.dice.splice(state.dice.indexOf(die), 1);
  state.shown = applyMove(state.shown, from, to);
  state.selected = null;
  if (state.moves.length >= state.board.canMove || !state.dice.length || !anyMoveLeft()) {
    send(`move ${state.moves.map(([f, t]) => moveText(state.board, f, t)).join(" ")}`);
  }
  render();
}

// Dragging: a ghost checker follows the pointer; dropping on a target moves there.
let ghost = null;
function startDrag(event) {
  const svg = $("board");
  const point = (e) => {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };
  const p = point(event);
  ghost = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  ghost.setAttribute("r", 15);
  ghost.setAttribute("class", "ghost");
  ghost.setAttribute("cx", p.x); ghost.setAttribute("cy", p.y);
  ghost.style.display = "none";  // shown only once the pointer really moves
  svg.appendChild(ghost);
  svg.onpointermove = (e) => {
    const q = point(e);
    ghost.style.display = "";
    ghost.setAttribute("cx", q.x); ghost.setAttribute("cy", q.y);
  };
  // A release over the board's points is a drop (their handlers); elsewhere, stop.
  window.addEventListener("pointerup", stopDrag, { once: true });
}

function stopDrag() {
  $("board").onpointermove = null;
  if (ghost) ghost.remove();
  ghost = null;
}

function render() {
  renderControls();
  const b = state.shown;
  if (!b) return;
  const targets = state.selected === null ? new Set() : new Set(targetsFrom(state.selected).keys());
  drawBoard($("board"), b, { selected: state.selected, targets, onPoint, onDrop });
  const text = describe(b);
  $("score").textContent = text.score;
  $("match-info").textContent = text.match;
  $("pips").textContent = text.pips;
}

function renderControls() {
  const b = state.board;
  const mine = playing() && b.turn !== 0;
  show("roll", state.rollPrompt);
  show("double", state.rollPrompt && b && b.mayDouble[0]);
  show("accept", !!state.answer);
  show("reject", !!state.answer);
  show("undo", state.moves.length > 0);
  show("join-next", state.nextGame);
  show("resign-box", mine && !state.answer);
  show("leave", playing() && (b.turn !== 0 || state.nextGame));
  show("unwatch", !!b && b.player !== "You");
  let info = "";
  if (b && !playing()) info = `Watching ${b.player}.`;
  else if (state.answer) info = state.answer;
  else if (state.rollPrompt) info = "Your turn: roll or double.";
  else if (myTurn() && state.dice.length) info = `Your move: ${state.dice.join(" ")} to play (click or drag a checker).`;
  else if (myTurn() && b.dice[0] && state.moves.length) info = "Move sent.";
  else if (playing() && b.turn !== 0) info = `${b.opponent}'s turn.`;
  else if (state.nextGame) info = "Game over: next game?";
  $("turn-info").textContent = info;
}

function show(id, visible) { $(id).hidden = !visible; }

// --- the lobby -----------------------------------------------------------------------

function renderLobby() {
  const body = $("who").tBodies[0];
  body.replaceChildren();
  const users = [...state.users.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const u of users) {
    const row = body.insertRow();
    row.dataset.user = u.name;
    const me = u.name === state.name;
    if (me) row.className = "me";
    const status = u.opponent ? `playing ${u.opponent}` : u.watching ? `watching ${u.watching}`
      : u.away ? "away" : u.ready ? "ready" : "not ready";
    for (const text of [u.name, u.rating, u.experience, status]) row.insertCell().textContent = text;
    const cell = row.insertCell();
    if (me) continue;
    if (u.opponent) cell.append(button("Watch", () => send(`watch ${u.name}`), "watch"));
    else if (u.ready && !u.away) {
      cell.append(button("Invite", () => {
        const length = $("invite-length").value;
        send(`invite ${u.name} ${length}`);
      }, "invite"));
    }
  }
  const invitations = $("invitations");
  invitations.replaceChildren();
  for (const [from, text] of state.invitations) {
    const div = document.createElement("div");
    div.className = "invitation";
    div.dataset.from = from;
    const span = document.createElement("span");
    span.textContent = text;
    div.append(span, button("Join", () => { state.invitations.delete(from); send(`join ${from}`); renderLobby(); }, "join"),
      button("Decline", () => {
        state.invitations.delete(from);
        send(`tell ${from} Sorry, I decline your invitation.`);
        renderLobby();
      }, "decline"));
    invitations.append(div);
  }
  const saved = $("saved");
  saved.replaceChildren();
  for (const s of state.saved) {
    const div = document.createElement("div");
    div.className = "saved-row";
    const span = document.createElement("span");
    span.textContent = `Saved ${s.length === "unlimited" ? "unlimited" : s.length + "-point"} match with ${s.name} (${s.score})`;
    const online = state.users.has(s.name);
    div.append(span);
    if (online) div.append(button("Resume", () => send(`invite ${s.name}`), "resume"));
    saved.append(div);
  }
}

function button(text, action, name) {
  const b = document.createElement("button");
  b.textContent = text;
  b.type = "button";
  b.dataset.action = name;
  b.addEventListener("click", action);
  return b;
}

// --- messages ------------------------------------------------------------------------

function log(text, cls = "") {
  const box = $("log");
  const div = document.createElement("div");
  if (cls) div.className = cls;
  div.textContent = text;
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.append(div);
  while (box.childElementCount > 500) box.firstElementChild.remove();
  if (atEnd) box.scrollTop = box.scrollHeight;
}

function showLoggedOut() {
  $("login-view").hidden = false;
  for (const id of ["lobby-view", "chat-view", "match-view", "logout"]) $(id).hidden = true;
  state.board = state.shown = null;
}

// --- wiring --------------------------------------------------------------------------

function credentials() {
  state.name = $("login-name").value.trim();
  state.password = $("login-password").value;
  $("login-error").textContent = "";
  if (!/^[A-Za-z_]{1,20}$/.test(state.name)) { $("login-error").textContent = "A name is 1 to 20 letters or _."; return false; }
  if (state.password.length < 4 || /[\s:]/.test(state.password)) {
    $("login-error").textContent = "A password has at least 4 characters, no spaces or colons.";
    return false;
  }
  return true;
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!credentials()) return;
  state.loginSent = false;
  state.afterRegister = false;
  connect("login");
});
$("register-button").addEventListener("click", () => {
  if (!credentials()) return;
  state.registerStep = null;
  connect("register");
});
$("logout").addEventListener("click", () => { send("bye"); state.mode = "idle"; showLoggedOut(); setStatus("logged out"); });
$("roll").addEventListener("click", () => { state.rollPrompt = false; send("roll"); renderControls(); });
$("double").addEventListener("click", () => { state.rollPrompt = false; send("double"); renderControls(); });
$("accept").addEventListener("click", () => { state.answer = null; send("accept"); renderControls(); });
$("reject").addEventListener("click", () => { state.answer = null; send("reject"); renderControls(); });
$("undo").addEventListener("click", () => resetMoves());
$("join-next").addEventListener("click", () => { state.nextGame = false; send("join"); renderControls(); });
$("resign").addEventListener("click", () => send(`resign ${$("resign-kind").value}`));
$("leave").addEventListener("click", () => send("leave"));
$("unwatch").addEventListener("click", () => { send("unwatch"); state.board = state.shown = null; $("match-view").hidden = true; });
$("ready").addEventListener("change", () => send("toggle ready"));
$("away").addEventListener("change", (e) => send(e.target.checked ? "away playing elsewhere" : "back"));
$("chat-kind").addEventListener("change", () => { $("chat-to").hidden = $("chat-kind").value !== "tell"; });
$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  const kind = $("chat-kind").value;
  if (kind === "command") send(text);
  else if (kind === "tell") send(`tell ${$("chat-to").value.trim()} ${text}`);
  else send(`${kind} ${text}`);
  $("chat-text").value = "";
});
