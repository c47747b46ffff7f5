// The CLIP client: the page's one connection to the server (its WebSocket, /fibs), the
// login and registration dialogues, the page's shared state, and the routing of each line
// the server sends to the views that registered for lines. It sends what any FIBS client
// sends (login CLIENT 1008 NAME PASSWORD, set boardstyle 3, toggles, commands). Small
// helpers every view uses (the log, the notice on top, buttons, calling a background tab
// back) live here too. It imports no view: views import it and register their handlers.

import { LineSplitter, parseOwnInfo } from "./clip.js";

const CLIENT_NAME = "fibsd-web";

export const $ = (id) => document.getElementById(id);
export const stored = (area, key) => { try { return area.getItem(key); } catch { return null; } };
export const store = (area, key, value) => {
  try { if (value === null) area.removeItem(key); else area.setItem(key, value); } catch { /* private mode */ }
};

export const state = {
  ws: null, splitter: null, mode: "idle",  // idle | login | register | registered | online
  name: "", password: "", afterRegister: false,
  own: null, users: new Map(), invitations: new Map(), saved: [],
  bots: new Set(),  // the users online the server marks as bots (`bot: NAME on`, an extension)
  outgoing: null,   // {name, text}: the invitation this user made and may withdraw
  quiet: 0,         // answers to the page's own set-up commands still to swallow
  sentChat: [],     // {kind, text} of says and tells sent, to label their echoes
  departed: new Map(),  // name -> timer: a logout shown only if no login follows at once
  board: null,      // the last board: line, parsed
  puzzle: null,     // {number}: the puzzle being solved (puzzles.js), its board the board's
  shown: null,      // what the board view shows (the board plus moves being made)
  dice: [],         // the dice not yet used by the moves being made
  moves: [],        // [from, to] of the moves being made
  selected: null, rollPrompt: false,
  offer: null,      // waiting for MY answer: {kind: "double"|"resign", from, cube, points, beaver}
  waiting: null,    // waiting for THEIR answer: {kind: "double"|"resign"|"join", cube, points}
  result: null,     // the game or match just ended: {text, score, next, matchOver, stopped}
  grace: null,      // the opponent dropped: {name, until}
  watchDropped: null,  // the player watched dropped a moment ago (maybe a reload): {name}
  readyToSend: false,
  steps: null,      // an opponent's move waiting for its board, to be shown step by step
  animation: 0,     // the running animation's id (a newer board cancels it)
  inMotd: false, lastRoll: {}, moveList: [], lastInvitation: null, unseen: 0,
  chouette: null,   // the chouette module, once loaded
  reading: null,    // a multi-line answer's reader: (line) => true while the lines are its
};
window.fibsd = state;  // for the curious (and the tests)

// A connection that comes back within this long (a reload) was never dropped, as far as
// the other players' pages show.
export const RELOAD_MS = 5000;

// What the match view provides to the others (set by match.js and moves.js).
export const view = { render() {}, renderControls() {}, resetMoves() {}, newGame() {} };

export function playing() { return !!state.board && state.board.player === "You"; }
export function myTurn() { return playing() && state.board.turn !== 0 && state.board.turn === state.board.colour; }

// --- the connection ----------------------------------------------------------------------

export function connect(mode) {
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
    for (const line of state.splitter.feed(data)) {
      onLine(line);
      if (state.afterLine) state.afterLine(line);  // (a test's check after every line)
    }
    onPrompt(state.splitter.pending);
  };
  ws.onclose = () => {
    if (ws !== state.ws) return;
    state.ws = null;
    if (state.mode === "online") {
      log("Connection closed.", "error");
      setStatus("not connected");
      loggedOut();
    } else if (state.mode === "login" || state.mode === "register") {
      const error = $("login-error").textContent;
      return loginFailed(error || "Could not reach the server (or it closed the connection).");
    }
    state.mode = "idle";
  };
}

export function send(line) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.ws.send(new TextEncoder().encode(line + "\r\n"));
}

export function quietly(line) { state.quiet++; send(line); }

export function setStatus(text) { $("status").textContent = text; }

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

export function logIn(name, password, register = false) {
  state.name = name;
  state.password = password;
  state.loginSent = false;
  state.afterRegister = false;
  state.registerStep = null;
  connect(register ? "register" : "login");
}

export function loginFailed(message) {
  $("login-error").textContent = message;
  state.mode = "idle";
  store(sessionStorage, "fibsd-login", null);
  if (state.ws) state.ws.close();
  state.ws = null;
  setStatus("not connected");
}

function onRegisterLine(line) {
  if (line.startsWith("You are registered")) {
    state.mode = "registered";  // the telnet session that follows is only left
    send("bye");
    state.afterRegister = true;
    // Log in with CLIP on a fresh connection, as any client does after registering, once
    // the server closed this one (others then see one logout, then one login).
    const login = () => { if (state.mode === "registered") { state.loginSent = false; connect("login"); } };
    state.ws.onclose = login;
    setTimeout(login, 3000);  // (a close that never comes)
  } else if (line.startsWith("** ")) {
    loginFailed(line.slice(3));
  }
}

function loggedIn(line) {
  state.mode = "online";
  state.users.clear();
  state.invitations.clear();
  state.saved = [];
  state.outgoing = null;
  state.quiet = 0;
  $("login-error").textContent = "";
  setStatus(`logged in as ${state.name}`);
  store(sessionStorage, "fibsd-login", JSON.stringify({ name: state.name, password: state.password }));
  store(localStorage, "fibsd-name", state.name);
  $("login-view").hidden = true;
  $("retype-label").hidden = true;
  for (const id of ["lobby-view", "chat-view", "logout"]) $(id).hidden = false;
  if (state.afterRegister) log(`Welcome, ${state.name}: you are registered.`, "me");
  log(`Logged in as ${line.split(" ")[1]}.`, "me");
  quietly("set boardstyle 3");
  quietly("toggle extensions");  // fibsd's own lines: a dropped opponent's grace period
}

function onOwnInfo(info) {
  if (!info) return;
  const first = !state.own;
  state.own = info;
  $("greedy").checked = info.greedy === "1";  // FIBS's automatic bear-off, the user's setting
  // The toggles this page relies on: a board after every move and roll, login notices.
  for (const toggle of ["autoboard", "moreboards", "notify"]) {
    if (info[toggle] === "0") quietly(`toggle ${toggle}`);
  }
  // A new account starts "not ready": nobody could invite it. The page turns it on once.
  if (state.afterRegister && info.ready === "0") quietly("toggle ready");
  state.afterRegister = false;
  if (first) send("show saved");
}

export function logOut() {
  send("bye");
  state.mode = "idle";
  loggedOut();
  setStatus("logged out");
  store(sessionStorage, "fibsd-login", null);
}

function loggedOut() {
  $("login-view").hidden = false;
  for (const id of ["lobby-view", "chat-view", "match-view", "logout"]) $(id).hidden = true;
  state.board = state.shown = null;
  state.own = null;
}

// --- the lines ---------------------------------------------------------------------------

// A handler takes a line and answers true (the line is its own, done), a string (the line
// to log in place of it, then the usual end), or nothing (not its line). The numbered CLIP
// lines and board: lines go to `onClipLines` handlers before any multi-line answer's reader
// (they may arrive in the middle of one), the sentences to `onLines` handlers after it.
const clipHandlers = [];
const handlers = [];
export function onClipLines(handler) { clipHandlers.push(handler); }
// (A module loaded later asks to come `first`: its lines are its own before the views'.)
export function onLines(handler, first = false) { if (first) handlers.unshift(handler); else handlers.push(handler); }

export function handleLine(line) { onLine(line); }

function onLine(line) {
  if (state.mode === "register") return onRegisterLine(line);
  if (state.mode === "login") {
    if (/^1 \S+ /.test(line)) return loggedIn(line);
    if (line.startsWith("** ")) $("login-error").textContent = line.slice(3);
    return;
  }
  if (state.mode !== "online") return;
  if (line === "3") { state.inMotd = true; state.motd = null; return; }
  if (line === "4") { state.inMotd = false; fitMotd(); return; }
  if (state.inMotd) return motdLine(line);
  if (/^2 /.test(line)) return onOwnInfo(parseOwnInfo(line));
  for (const handler of clipHandlers) if (handler(line)) return;
  if (state.reading) { if (state.reading(line)) return; state.reading = null; }
  if (state.quiet > 0 && /^(\*\* )?(Value of '|Will |Won't |You('ll| will| won't| are now| are no longer|'re now))/.test(line)) {
    state.quiet--;
    return;
  }
  for (const handler of handlers) {
    const answer = handler(line);
    if (answer === true) return;
    if (typeof answer === "string") { line = answer; break; }
  }
  const error = line.startsWith("** ") && !INFO.test(line);
  if (error) {
    notice(line.slice(3));
    if (state.moves.length && state.board) view.resetMoves();  // refused
  }
  log(line.replace(/^\*\* /, ""), error ? "error" : "");
  view.renderControls();
}

// Informational `** ` lines; every other `** ` line is a refusal or an error, shown on top.
const INFO = /^\*\* (You invited|Player \S+ has joined|You are now playing|You terminated|Player \S+ has left|\S+ has \d+ seconds to come back|\S+ did not come back|You withdrew|\S+ withdrew|The invitation's rules|You will|You won't|You'll|You're now|The dice|Please wait for \S+ to join|\S+'s reserve is used up|\S+ ran out of time|You ran out of time|Your move against|The analysis of match|Match \d+ is)/;

// --- what every view uses ------------------------------------------------------------------

export function log(text, cls = "") {
  const box = $("log");
  const div = document.createElement("div");
  if (cls) div.className = cls;
  div.textContent = text;
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.append(div);
  while (box.childElementCount > 500) box.firstElementChild.remove();
  if (atEnd) box.scrollTop = box.scrollHeight;
}

// The message of the day: one block of preformatted lines (a box drawn in characters), its
// font made smaller until the widest line fits the pane (and wrapped below 8 px).
function motdLine(line) {
  if (!state.motd) { log("", "motd"); state.motd = $("log").lastElementChild; }
  state.motd.textContent += (state.motd.textContent ? "\n" : "") + line;
}

export function fitMotd() {
  for (const block of document.querySelectorAll("#log .motd")) {
    block.style.fontSize = "";
    block.style.whiteSpace = "";
    const size = parseFloat(getComputedStyle(block).fontSize);
    if (block.scrollWidth <= block.clientWidth) continue;
    const fitted = Math.floor(size * (block.clientWidth / block.scrollWidth) * 2) / 2;
    if (fitted >= 8) block.style.fontSize = `${fitted}px`;
    if (fitted < 8 || block.scrollWidth > block.clientWidth) block.style.whiteSpace = "pre-wrap";
  }
}
window.addEventListener("resize", fitMotd);

// A top-of-screen notice (a refusal, an error): seen on a phone too, gone after a while.
export function notice(text, cls = "") {
  const box = $("notice");
  box.textContent = text;
  box.className = cls;
  box.hidden = false;
  clearTimeout(state.noticeTimer);
  state.noticeTimer = setTimeout(() => { box.hidden = true; }, 8000);
}

export function button(text, action, name) {
  const b = document.createElement("button");
  b.textContent = text;
  b.type = "button";
  b.dataset.action = name;
  b.addEventListener("click", action);
  return b;
}

// An element with properties (data* ones become data- attributes) and children.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("data")) node.dataset[k.slice(4).toLowerCase()] = v; else node[k] = v;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// A tab in the background is called back: the title, a short tone, a notification.
let audio = null;
export function attention(kind, text) {
  if (!$("alerts").checked) return;
  if (!document.hidden && document.hasFocus()) return;
  state.unseen++;
  document.title = `(${state.unseen}) ${text} – fibsd`;
  document.body.dataset.attention = kind;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = kind === "message" ? 660 : 880;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start(); osc.stop(audio.currentTime + 0.15);
  } catch { /* no sound: the title still says it */ }
  if (window.Notification && Notification.permission === "granted") {
    try { new Notification("fibsd", { body: text, tag: kind }); } catch { /* not allowed here */ }
  }
}

function seen() {
  if (document.hidden) return;
  state.unseen = 0;
  document.title = "fibsd";
  delete document.body.dataset.attention;
}
document.addEventListener("visibilitychange", seen);
window.addEventListener("focus", seen);
