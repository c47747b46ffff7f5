// fibsd's web client: a FIBS client speaking CLIP over the server's WebSocket (/fibs).
// It sends what any FIBS client sends (login CLIENT 1008 NAME PASSWORD, set boardstyle 3,
// toggles, commands) and reads what every client reads (CLIP lines, board: lines, FIBS's
// sentences, and fibsd's extension lines after `toggle extensions`). FIBS's telnet wording
// ("Type 'accept' or 'reject'") never reaches the user: the page says what it means.

import { LineSplitter, applyMove, destination, moveText, parseBoard, parseChat,
  parseMoveText, parseOwnInfo, parseWho } from "./clip.js";
import { describe, drawBoard } from "./board.js";

const CLIENT_NAME = "fibsd-web";
const STEP_MS = 350;
const DECLINE = "Sorry, I decline your invitation.";  // FIBS has no decline: a tell  // one checker of an opponent's move, when it is shown step by step

const $ = (id) => document.getElementById(id);
const stored = (area, key) => { try { return area.getItem(key); } catch { return null; } };
const store = (area, key, value) => {
  try { if (value === null) area.removeItem(key); else area.setItem(key, value); } catch { /* private mode */ }
};

const state = {
  ws: null, splitter: null, mode: "idle",  // idle | login | register | online
  name: "", password: "", afterRegister: false,
  own: null, users: new Map(), invitations: new Map(), saved: [], readingSaved: false,
  outgoing: null,   // {name, text}: the invitation this user made and may withdraw
  quiet: 0,         // answers to the page's own set-up commands still to swallow
  sentChat: [],     // {kind, text} of says and tells sent, to label their echoes
  departed: new Map(),  // name -> timer: a logout shown only if no login follows at once
  board: null,      // the last board: line, parsed
  shown: null,      // what the board view shows (the board plus moves being made)
  dice: [],         // the dice not yet used by the moves being made
  moves: [],        // [from, to] of the moves being made
  selected: null, rollPrompt: false,
  offer: null,      // waiting for MY answer: {kind: "double"|"resign", from, cube, points, beaver}
  waiting: null,    // waiting for THEIR answer: {kind: "double"|"resign"|"join", cube, points}
  result: null,     // the game or match just ended: {text, score, next, matchOver, stopped}
  grace: null,      // the opponent dropped: {name, until}
  readyToSend: false,
  steps: null,      // an opponent's move waiting for its board, to be shown step by step
  animation: 0,     // the running animation's id (a newer board cancels it)
  inMotd: false, lastRoll: {}, moveList: [], lastInvitation: null, unseen: 0,
  chouette: null,   // the chouette module's state, once loaded
};
window.fibsd = state;  // for the curious (and the tests)

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

export function send(line) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.ws.send(new TextEncoder().encode(line + "\r\n"));
}

function quietly(line) { state.quiet++; send(line); }

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
  store(sessionStorage, "fibsd-login", null);
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
  if ((m = /^([78]) (\S+) (.*)$/.exec(line))) return onPresence(m[1] === "7", m[2], m[3]);
  if ((m = /^9 (\S+) (\d+) (.*)$/.exec(line))) {
    attention("message", `Message from ${m[1]}`);
    return log(`Message from ${m[1]}: ${m[3]}`, "private");
  }
  if ((m = /^1[01] (\S+)$/.exec(line))) return log(line[1] === "0" ? `Message delivered to ${m[1]}.` : `Message saved for ${m[1]}.`);
  const chat = parseChat(line);
  if (chat) return onChat(chat);
  if (state.chouette && state.chouette.onLine(line)) return;
  if (/^(Chouette|Tournament)[: ]/.test(line)) return onChouetteLine(line);
  onText(line);
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
  // The toggles this page relies on: a board after every move and roll, login notices.
  for (const toggle of ["autoboard", "moreboards", "notify"]) {
    if (info[toggle] === "0") quietly(`toggle ${toggle}`);
  }
  // A new account starts "not ready": nobody could invite it. The page turns it on once.
  if (state.afterRegister && info.ready === "0") quietly("toggle ready");
  state.afterRegister = false;
  if (first) send("show saved");
}

function onWho(who) {
  state.users.set(who.name, who);
  if (who.name.toLowerCase() === state.name.toLowerCase()) {
    state.name = who.name;
    $("ready").checked = who.ready;
    $("away").checked = who.away;
  }
  // A watcher learns that the match stopped (the player left or saved it) from here.
  const b = state.board;
  if (b && !playing() && who.name === b.player && !who.opponent && !state.result
      && !(state.chouette && state.chouette.active())) {
    state.result = { text: `${b.player}'s match with ${b.opponent} stopped (saved or over).`, stopped: true };
    renderControls();
  }
}

// 7/8: logins and logouts. A logout followed at once by a login (registering, a reload)
// is shown as nothing; the user's own are never shown.
function onPresence(login, name, text) {
  if (!login) {
    state.users.delete(name);
    state.invitations.delete(name);
    renderLobby();
  }
  if (name.toLowerCase() === state.name.toLowerCase()) return;
  if (!login) {
    clearTimeout(state.departed.get(name));
    state.departed.set(name, setTimeout(() => { state.departed.delete(name); log(text, "notice"); }, 3000));
  } else if (state.departed.has(name)) {
    clearTimeout(state.departed.get(name));
    state.departed.delete(name);
  } else {
    log(text, "notice");
  }
}

function onChat({ kind, from, text }) {
  if (kind === "you tell") {
    const i = state.sentChat.findIndex((c) => c.text === text);
    const sent = i >= 0 ? state.sentChat.splice(i, 1)[0] : { kind: "tell" };
    return log(sent.kind === "say" ? `You say to ${from}: ${text}` : `You tell ${from}: ${text}`, "me");
  }
  if (kind.startsWith("you")) {
    const verb = kind.slice(4);
    return log(`You ${verb}: ${text}`, "me");
  }
  if (kind === "says") {
    if (state.outgoing && state.outgoing.name === from && text === DECLINE) { state.outgoing = null; renderLobby(); }
    const opponent = playing() && state.board.opponent === from;
    attention("message", `${from}: ${text}`);
    if (opponent) return log(`${from} says: ${text}`, "chat");
    return log(`${from} tells you: ${text}`, "private");
  }
  log(`${from} ${kind}: ${text}`, "chat");
}

// Informational `** ` lines; every other `** ` line is a refusal or an error, shown on top.
const INFO = /^\*\* (You invited|Player \S+ has joined|You are now playing|You terminated|Player \S+ has left|\S+ has \d+ seconds to come back|\S+ did not come back|You withdrew|\S+ withdrew|The invitation's rules|You will|You won't|You'll|You're now|The dice|Please wait for \S+ to join|\S+'s reserve is used up|\S+ ran out of time|Your move against|The analysis of match|Match \d+ is)/;

// FIBS's sentences that change what the page offers. Returns the line to log (or "").
function onText(line) {
  let m;
  const b = state.board;
  const opp = b ? b.opponent : "";
  if (state.quiet > 0 && /^(\*\* )?(Value of '|Will |Won't |You('ll| will| won't| are now| are no longer|'re now))/.test(line)) {
    state.quiet--;
    return;
  }
  // The match clock (fibsd's extension line, docs/clocks.md), and its terms.
  if ((m = /^clock: (\S+) (\d+) (\S+) (\d+) (\d+) (\d+) (\S+) (delay|days)$/.exec(line))) {
    state.clock = { names: [m[1], m[3]], reserve: [Number(m[2]), Number(m[4])], delayLeft: Number(m[6]),
      mover: m[7], kind: m[8], at: Date.now() };
    return tickClock();
  }
  if ((m = /^Clock: (.*)\.$/.exec(line))) {
    if (state.invitations.has(state.lastInvitation) && !state.outgoingSent) {
      const name = state.lastInvitation;
      state.invitations.set(name, `${state.invitations.get(name).replace(/\.$/, "")} (clock: ${m[1]}).`);
    } else if (state.outgoing) state.outgoing.text += ` (clock: ${m[1]})`;
    renderLobby();
    return;
  }
  // Invitations, both ways.
  if ((m = /^(\S+) wants to (play an? .+? match|resume a saved match) with you\.$/.exec(line))) {
    state.invitations.set(m[1], line.replace(/ with you\.$/, "."));
    state.lastInvitation = m[1];
    state.outgoingSent = false;
    attention("invitation", `${m[1]} invites you`);
    renderLobby();
  } else if (/^Type 'join \S+' to accept\.$/.test(line)) {
    return;  // the invitation has a Join button
  } else if ((m = /^\*\* The invitation's rules: (.*)\.$/.exec(line)) && state.invitations.has(state.lastInvitation)) {
    const name = state.lastInvitation;
    state.invitations.set(name, `${state.invitations.get(name).replace(/\.$/, "")} (${m[1]}).`);
    renderLobby();
    return;
  } else if ((m = /^\*\* (\S+) withdrew the invitation\.$/.exec(line))) {
    state.invitations.delete(m[1]);
    renderLobby();
  } else if ((m = /^\*\* You invited (\S+) to (.*)\.$/.exec(line))) {
    state.outgoing = { name: m[1], text: m[2] };
    state.outgoingSent = true;
    renderLobby();
    return;
  } else if (/^\*\* You withdrew your invitation/.test(line)) {
    state.outgoing = null;
    renderLobby();
    return;
  } else if ((m = /^\*\* You are now playing .* with (\S+)$|^You are now playing with (\S+)\./.exec(line))
             || (m = /^\*\* Player (\S+) has joined you|^Player (\S+) has joined you|^(\S+) has joined you\./.exec(line))) {
    newMatch(m[1] || m[2] || m[3]);
  } else if (/^Starting a new game with /.test(line)) {
    newGame();
  // The turn, the cube and resignations.
  } else if (/^It's your turn\. Please roll or double/.test(line)) {
    state.rollPrompt = true;
    attention("turn", "Your turn");
    return;
  } else if (/^It's your turn to move\.$/.test(line)) {
    attention("turn", "Your turn");
    return;
  } else if ((m = /^(\S+) (?:doubles|redoubles to (\d+))\. Type 'accept'(, 'reject' or 'redouble'| or 'reject')\.$/.exec(line))) {
    const cube = m[2] ? Number(m[2]) : (b ? b.cube * 2 : 2);
    state.offer = { kind: "double", from: m[1], cube, beaver: m[3].includes("redouble") };
    state.rollPrompt = false;
    attention("double", `${m[1]} doubles`);
    line = `${m[1]} doubles to ${cube}.`;
  } else if (/^You double\. Please wait/.test(line)) {
    state.waiting = { kind: "double", cube: b ? b.cube * 2 : 2 };
    line = `You double to ${state.waiting.cube}.`;
  } else if (/^(You accept|\S+ accepts) the (re)?double|^(You|\S+) beavers?\.|^(You|\S+) raccoons?\./.test(line)) {
    state.offer = null; state.waiting = null;
    addMove(/^You/.test(line) ? "You" : line.split(" ")[0], /beaver/.test(line) ? "beavers" : "takes");
  } else if ((m = /^You want to resign\. \S+ will win (.*)\.$/.exec(line))) {
    state.waiting = { kind: "resign", points: m[1] };
    line = `You offer to resign: ${opp} would win ${m[1]}.`;
  } else if ((m = /^(\S+) wants to resign\. You will win (.*)\. Type/.exec(line))) {
    state.offer = { kind: "resign", from: m[1], points: m[2] };
    attention("resign", `${m[1]} wants to resign`);
    line = `${m[1]} offers to resign: you would win ${m[2]}.`;
  } else if (/^(You reject|\S+ rejects)\. The game continues\.$/.test(line)) {
    state.offer = null; state.waiting = null;
  // The end of a game, of a match.
  } else if ((m = /^You accept and win (.*)\.$|^You give up\. \S+ wins (.*)\.$/.exec(line))) {
    const mine = line.startsWith("You accept");
    gameOver(mine ? "You win" : `${opp} wins`, m[1] || m[2]);
  } else if ((m = /^(\S+) accepts and wins (.*)\.$|^(\S+) gives up\. (\S+) wins? (.*)\.$/.exec(line))) {
    if (m[1]) gameOver(`${m[1]} wins`, m[2]);
    else gameOver(`${m[4] === "You" ? "You win" : `${m[4]} wins`}`, m[5]);
  } else if ((m = /^You win the game and get (.*)\. Congratulations!$|^(\S+) wins the game and gets (.*?)\.( Sorry\.)?$/.exec(line))) {
    gameOver(m[1] ? "You win" : `${m[2]} wins`, m[1] || m[3]);
  } else if ((m = /^score in (?:(\d+) point|unlimited) match: (\S+)-(\d+) (\S+)-(\d+)$/.exec(line))) {
    if (state.result) {
      const mine = b && (m[2] === b.player || (b.player === "You" && m[2] === state.name)) ? [m[3], m[5]] : [m[5], m[3]];
      state.result.score = b ? `Score: ${b.player} ${mine[0]} – ${mine[1]} ${b.opponent}${m[1] ? ` (${m[1]}-point match)` : ""}.` : line;
    }
    return renderControls();
  } else if (/^Type 'join' if you want to play the next game/.test(line)) {
    if (state.result) state.result.next = true;
    attention("turn", "Next game?");
    return renderControls();
  } else if ((m = /^\*\* Please wait for (\S+) to join too\.$/.exec(line))) {
    state.waiting = { kind: "join" };
    return renderControls();
  } else if ((m = /^(You|\S+) wins? the (\d+) point match (\d+)-(\d+) \.$/.exec(line))) {
    const who = m[1] === "You" ? "You win" : `${m[1]} wins`;
    state.result = { ...(state.result || {}), text: `${who} the ${m[2]}-point match ${m[3]}–${m[4]}.`,
      matchOver: true, next: false, stopped: false };
    state.offer = null; state.waiting = null; state.grace = null; state.rollPrompt = false;
    send("show saved");
  // The match stops: saved, or the opponent dropped.
  } else if (/^\*\* You terminated the game|^\*\* Player \S+ has left the game|^Your game with \S+ was saved\.$|^(\S+ logs out|Connection with \S+ timed out|Closed old connection with user \S+|Network error with \S+)\. The game was saved\.$/.test(line)) {
    matchClosed(`The match was saved: ${line.replace(/^\*\* /, "")} Resume it from the lobby.`);
    line = line.replace(/^\*\* /, "");
  } else if (/^\S+ drops connection\. The game was saved\.$/.test(line)) {
    // A grace period follows at once (fibsd's extension line) unless the server has none.
    clearTimeout(state.dropTimer);
    state.dropTimer = setTimeout(() => { if (!state.grace) matchClosed("The match was saved: your opponent dropped."); }, 800);
  } else if ((m = /^\*\* (\S+) has (\d+) seconds to come back\./.exec(line))) {
    clearTimeout(state.dropTimer);
    state.grace = { name: m[1], until: Date.now() + Number(m[2]) * 1000 };
    line = `${m[1]} dropped the connection and has ${m[2]} seconds to come back; then you may claim the match or leave it saved.`;
    tickGrace();
  } else if ((m = /^\*\* You may claim the match in (\d+) seconds\.$/.exec(line))) {
    if (state.grace) state.grace.until = Date.now() + Number(m[1]) * 1000;
  } else if (/^\*\* \S+ did not come back: you claim the match\.$/.test(line)) {
    state.grace = null;
  } else if (/^\S+ has joined you\. Your running match was loaded\.$/.test(line)) {
    state.grace = null;
  } else if (/You're not watching anymore|^You stop watching /.test(line)) {
    if (b && !playing()) {
      state.result = { text: line.replace(/\.\. You're not watching anymore\./, ": you are no longer watching."), stopped: true };
    }
  // Moves, for the move list and the step-by-step view.
  } else if ((m = /^(\S+) moves (.*) \.$/.exec(line))) {
    state.steps = { who: m[1], text: m[2] };
    addMove(m[1], `${state.lastRoll[m[1]] || ""} ${m[2]}`);
  } else if ((m = /^(You|\S+) rolls? (\d) and (\d)\.$/.exec(line))) {
    state.lastRoll[m[1]] = `${m[2]}${m[3]}`;
  } else if ((m = /^You rolled (\d), (\S+) rolled (\d)$|^(\S+) rolled (\d), (\S+) rolled (\d)$/.exec(line))) {
    const [a, da, o, dob] = m[1] ? ["You", m[1], m[2], m[3]] : [m[4], m[5], m[6], m[7]];
    state.lastRoll[da > dob ? a : o] = da > dob ? `${da}${dob}` : `${dob}${da}`;
  } else if ((m = /^(You|\S+) can't move\.$/.exec(line))) {
    addMove(m[1], `${state.lastRoll[m[1]] || ""} can't move`);
  } else if ((m = /^(\S+) doubles\.$/.exec(line))) {
    addMove(m[1], "doubles");
  // The saved matches (show saved): " *" marks the match being played now.
  } else if (/^  opponent +matchlength/.test(line)) {
    state.saved = []; state.readingSaved = true; return;
  } else if (state.readingSaved && (m = /^([ *]{2})(\S+) +(\d+|unlimited) +(\d+) - +(\d+)$/.exec(line))) {
    state.saved.push({ name: m[2], length: m[3], score: `${m[4]}–${m[5]}`, now: m[1] === " *" });
    renderLobby(); return;
  } else if (line === "no saved games.") {
    state.saved = []; state.readingSaved = false; renderLobby(); return;
  }
  if (state.readingSaved && !/^[ *]{2}\S/.test(line)) state.readingSaved = false;
  const error = line.startsWith("** ") && !INFO.test(line);
  if (error) {
    notice(line.slice(3));
    if (state.moves.length && state.board) resetMoves();  // refused
  }
  log(line.replace(/^\*\* /, ""), error ? "error" : "");
  renderControls();
}

// A top-of-screen notice (a refusal, an error): seen on a phone too, gone after a while.
function notice(text, cls = "") {
  const box = $("notice");
  box.textContent = text;
  box.className = cls;
  box.hidden = false;
  clearTimeout(state.noticeTimer);
  state.noticeTimer = setTimeout(() => { box.hidden = true; }, 8000);
}

// --- calling the user back to a tab in the background ---------------------------------

let audio = null;
function attention(kind, text) {
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

// --- the match -----------------------------------------------------------------------

function playing() { return state.board && state.board.player === "You"; }
function myTurn() { return playing() && state.board.turn !== 0 && state.board.turn === state.board.colour; }

function newMatch(opponent) {
  state.clock = null;
  $("notice").hidden = true;
  if ($("next-pairing").textContent.includes(` with ${opponent} `)) $("next-pairing").hidden = true;
  state.invitations.clear();
  state.outgoing = null;
  state.grace = null;
  state.rematch = opponent;
  $("resign-kind").value = "n";
  newGame();
  send("show saved");  // the list marks the match being played now
  renderLobby();
}

function newGame() {
  state.result = null; state.offer = null; state.waiting = null; state.readyToSend = false;
  state.moveList = []; state.lastRoll = {};
  $("resign-kind").value = "n";
  $("resign-confirm").hidden = true;
  $("match-view").hidden = false;
  renderMoveList();
}

function gameOver(who, points) {
  state.result = { text: `${who} the game and ${points}.`, next: false };
  state.offer = null; state.waiting = null; state.rollPrompt = false; state.readyToSend = false;
  state.selected = null; state.dice = [];
  $("resign-confirm").hidden = true;
  if (state.board) { state.shown = state.board; render(); }
  addMove(who.replace(/ wins?$/, ""), `wins ${points}`);
}

// The match view closes: the match was saved (left, logged out) or is watched no more.
function matchClosed(text) {
  state.board = state.shown = null;
  state.offer = state.waiting = state.result = state.grace = null;
  state.rollPrompt = false;
  $("match-view").hidden = true;
  notice(text, "info");
  send("show saved");
}

function tickGrace() {
  clearTimeout(state.graceTimer);
  if (!state.grace) return;
  renderControls();
  state.graceTimer = setTimeout(tickGrace, 1000);
}

// The clocks: the running one counts down its delay, then its reserve, from the line's arrival.
function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  return (hms[0] ? `${hms[0]}:${String(hms[1]).padStart(2, "0")}` : `${hms[1]}`) + `:${String(hms[2]).padStart(2, "0")}`;
}

function tickClock() {
  clearTimeout(state.clockTimer);
  const c = state.clock, b = state.board;
  const box = $("clocks");
  if (!c || !b) { box.hidden = true; return; }
  const me = b.player === "You" ? state.name : b.player;
  const gone = (Date.now() - c.at) / 1000;
  const shown = [0, 1].map((i) => {
    if (c.names[i] !== c.mover) return { left: c.reserve[i], delay: 0 };
    return { left: c.reserve[i] - Math.max(0, gone - c.delayLeft), delay: Math.max(0, c.delayLeft - gone) };
  });
  const part = (i, id) => {
    const el = $(id);
    el.textContent = `${c.names[i] === me ? (b.player === "You" ? "You" : me) : c.names[i]} ${clockText(shown[i].left)}`
      + (shown[i].delay > 0 ? ` (+${Math.ceil(shown[i].delay)} s)` : "");
    el.className = c.names[i] === c.mover ? "running" : "";
  };
  const mine = c.names[0] === me ? 0 : 1;
  part(mine, "clock-me");
  part(1 - mine, "clock-them");
  box.hidden = false;
  if (c.mover !== "-") state.clockTimer = setTimeout(tickClock, 250);
}

function addMove(who, text) {
  state.moveList.push(`${who === state.name ? "You" : who}: ${text.trim()}`);
  renderMoveList();
}

function renderMoveList() {
  const list = $("movelist");
  list.replaceChildren(...state.moveList.map((t) => { const li = document.createElement("li"); li.textContent = t; return li; }));
}

function onBoard(board) {
  if (!board) return;
  const previous = state.shown;
  state.board = board;
  state.rollPrompt = state.rollPrompt && board.dice[0] === 0 && myTurn();
  if (board.turn === 0) { state.offer = null; state.rollPrompt = false; }
  if (board.turn !== 0 && state.result && !state.result.matchOver) state.result = null;
  if (state.waiting && state.waiting.kind === "join" && board.turn !== 0) state.waiting = null;
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
  state.readyToSend = false;
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
  if (!state.dice.length || state.readyToSend || state.moves.length >= state.board.canMove) return;
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
    state.readyToSend = true;
    if ($("auto-send").checked) sendMove();
  }
  render();
}

function sendMove() {
  const text = state.moves.map(([f, t]) => moveText(state.board, f, t)).join(" ");
  send(`move ${text}`);
  addMove("You", `${state.board.dice.join("")} ${text}`);
  state.readyToSend = false;
  state.dice = [];
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

export function render() {
  renderControls();
  const b = state.shown;
  if (!b) return;
  const targets = state.selected === null ? new Set() : new Set(targetsFrom(state.selected).keys());
  const pending = state.offer && state.offer.kind === "double" ? { value: state.offer.cube, toMe: true }
    : state.waiting && state.waiting.kind === "double" ? { value: state.waiting.cube, toMe: false } : null;
  const remaining = myTurn() && state.board.dice[0] && !state.rollPrompt ? state.dice : undefined;
  drawBoard($("board"), b, { selected: state.selected, targets, onPoint, onDrop, offer: pending, remaining });
  const text = describe(b);
  $("score").textContent = text.score;
  $("match-info").textContent = text.match;
  $("pips").textContent = text.pips;
  tickClock();
}

function cubeText(n) { return `${n} point${n === 1 ? "" : "s"}`; }

function renderControls() {
  const b = state.board;
  const me = playing();
  const watching = b && !me;
  const { offer, waiting, result, grace } = state;
  const over = !!result || (b && b.turn === 0);
  const free = me && !offer && !waiting && !over && !grace;
  const chouette = state.chouette && state.chouette.active();
  show("roll", free && state.rollPrompt);
  show("double", free && state.rollPrompt && b.mayDouble[0] && !chouette);
  show("accept", !!offer);
  show("reject", !!offer);
  show("beaver", !!offer && offer.kind === "double" && offer.beaver);
  $("accept").textContent = offer && offer.kind === "resign" ? "Accept" : "Take";
  $("reject").textContent = offer && offer.kind === "resign" ? "Reject" : "Pass";
  show("confirm-move", state.readyToSend);
  show("undo", state.moves.length > 0 && !over);
  show("join-next", me && !!result && !!result.next && !result.matchOver && !(waiting && waiting.kind === "join"));
  show("rematch", me && !!result && !!result.matchOver && !!state.rematch && !chouette);
  show("to-lobby", !!result && (result.matchOver || result.stopped));
  show("claim", !!grace);
  show("resign-box", free && b.turn !== 0 && $("resign-confirm").hidden && !chouette);
  show("leave", me && !(result && result.matchOver) && !chouette);
  show("unwatch", watching && !chouette && !(result && (result.matchOver || result.stopped)));
  show("result", !!result);
  if (result) {
    $("result-text").textContent = result.text;
    $("result-score").textContent = result.score || "";
  }
  let info = "";
  const opp = b ? b.opponent : "";
  if (grace) {
    const left = Math.max(0, Math.ceil((grace.until - Date.now()) / 1000));
    info = left > 0 ? `${grace.name} dropped: ${left} s left to come back. Then you may claim the match.`
      : `${grace.name} did not come back: you may claim the match, or leave it saved.`;
  } else if (waiting && waiting.kind === "join") info = `Waiting for ${opp} to start the next game.`;
  else if (result) info = "";
  else if (watching) info = `Watching ${b.player} play ${opp}.${b.turn !== 0 ? ` ${b.turn === b.colour ? b.player : opp} to play.` : ""}`;
  else if (offer && offer.kind === "double") {
    info = `${offer.from} doubles to ${offer.cube}: take and play on for ${cubeText(offer.cube)}, or pass and give up ${cubeText(offer.cube / 2)}.`;
  } else if (offer) info = `${offer.from} offers to resign: you win ${offer.points} if you accept.`;
  else if (waiting && waiting.kind === "double") info = `Waiting for ${opp} to take or pass your double to ${waiting.cube}.`;
  else if (waiting && waiting.kind === "resign") info = `Waiting for ${opp} to answer your resignation (${waiting.points}).`;
  else if (state.rollPrompt) info = b.mayDouble[0] ? "Your turn: roll or double." : "Your turn: roll.";
  else if (state.readyToSend) info = "Confirm your move, or undo it.";
  else if (myTurn() && state.dice.length) info = `Your move: ${state.dice.join(" ")} to play (click or drag a checker).`;
  else if (myTurn() && b.dice[0] && state.moves.length) info = "Move sent.";
  else if (me && b.turn !== 0) info = b.opponentDice[0] ? `${opp} is moving.` : `${opp} to roll or double.`;
  $("turn-info").textContent = info;
  if (state.chouette) state.chouette.render();
}

function show(id, visible) { $(id).hidden = !visible; }

// --- the lobby -----------------------------------------------------------------------

function inviteCommand(name) {
  const unlimited = $("invite-kind").value === "unlimited";
  const words = ["invite", name, unlimited ? "unlimited" : String(Math.max(1, Math.min(99, Number($("invite-length").value) || 1)))];
  if (!unlimited && $("opt-holland").checked) words.push("holland");
  if (!unlimited && !$("opt-crawford").checked) words.push("nocrawford");
  if (unlimited && $("opt-jacoby").checked) words.push("jacoby");
  if (unlimited && $("opt-beavers").checked) words.push("beavers");
  const clock = $("invite-clock").value;
  if (clock) words.push(...clock.split(" "));
  return words.join(" ");
}

export function renderLobby() {
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
    else if (u.ready && !u.away) cell.append(button("Invite", () => send(inviteCommand(u.name)), "invite"));
  }
  const outgoing = $("outgoing");
  outgoing.replaceChildren();
  if (state.outgoing) {
    const div = row("invitation pending", `You invited ${state.outgoing.name} to ${state.outgoing.text}: waiting for an answer.`);
    div.dataset.to = state.outgoing.name;
    div.append(button("Cancel", () => send("uninvite"), "uninvite"));
    outgoing.append(div);
  }
  const invitations = $("invitations");
  invitations.replaceChildren();
  for (const [from, text] of state.invitations) {
    const div = row("invitation", text);
    div.dataset.from = from;
    div.append(button("Join", () => { state.invitations.delete(from); send(`join ${from}`); renderLobby(); }, "join"),
      button("Decline", () => {
        state.invitations.delete(from);
        send(`tell ${from} ${DECLINE}`);
        renderLobby();
      }, "decline"));
    invitations.append(div);
  }
  const saved = $("saved");
  saved.replaceChildren();
  for (const s of state.saved) {
    const length = s.length === "unlimited" ? "unlimited" : `${s.length}-point`;
    const div = row("saved-row", `Saved ${length} match with ${s.name} (${s.score})${s.now ? ": playing now" : ""}`);
    div.dataset.name = s.name;
    if (state.users.has(s.name) && !s.now && !playing()) div.append(button("Resume", () => send(`invite ${s.name}`), "resume"));
    saved.append(div);
  }
}

function row(cls, text) {
  const div = document.createElement("div");
  div.className = cls;
  const span = document.createElement("span");
  span.textContent = text;
  div.append(span);
  return div;
}

export function button(text, action, name) {
  const b = document.createElement("button");
  b.textContent = text;
  b.type = "button";
  b.dataset.action = name;
  b.addEventListener("click", action);
  return b;
}

// --- messages ------------------------------------------------------------------------

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

function showLoggedOut() {
  $("login-view").hidden = false;
  for (const id of ["lobby-view", "chat-view", "match-view", "logout"]) $(id).hidden = true;
  state.board = state.shown = null;
  state.own = null;
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
  if ($("retype-label").hidden) {
    $("retype-label").hidden = false;
    $("login-password2").focus();
    $("login-error").textContent = "Retype the password, then press Register again.";
    return;
  }
  if ($("login-password2").value !== state.password) {
    $("login-error").textContent = "The two passwords differ.";
    return;
  }
  state.registerStep = null;
  connect("register");
});
$("logout").addEventListener("click", () => {
  send("bye"); state.mode = "idle"; showLoggedOut(); setStatus("logged out");
  store(sessionStorage, "fibsd-login", null);
});
const act = (id, fn) => $(id).addEventListener("click", () => { fn(); renderControls(); });
act("roll", () => { state.rollPrompt = false; send("roll"); });
act("double", () => { state.rollPrompt = false; send("double"); });
act("accept", () => { state.offer = null; send("accept"); });
act("reject", () => { state.offer = null; send("reject"); });
act("beaver", () => { state.offer = null; send("beaver"); });
act("confirm-move", sendMove);
$("undo").addEventListener("click", () => resetMoves());
act("join-next", () => { state.result.next = false; send("join"); });
act("rematch", () => { const name = state.rematch; state.result = null; toLobby(); send(inviteCommand(name)); });
act("claim", () => send("claim"));
act("to-lobby", () => { if (state.board && !playing()) send("unwatch"); toLobby(); });
act("resign", () => {
  const kind = $("resign-kind").value;
  const factor = { n: 1, g: 2, b: 3 }[kind];
  const cube = state.board ? state.board.cube : 1;
  const name = { n: "a single game", g: "a gammon", b: "a backgammon" }[kind];
  $("resign-text").textContent = `Resign ${name}? ${state.board.opponent} wins ${cubeText(cube * factor)}.`;
  $("resign-confirm").hidden = false;
});
act("resign-yes", () => { $("resign-confirm").hidden = true; send(`resign ${$("resign-kind").value}`); });
act("resign-no", () => { $("resign-confirm").hidden = true; });
act("leave", () => send("leave"));
act("unwatch", () => { send("unwatch"); toLobby(); });
$("ready").addEventListener("change", () => send("toggle ready"));
$("away").addEventListener("change", (e) => send(e.target.checked ? "away playing elsewhere" : "back"));
$("alerts").checked = stored(localStorage, "fibsd-alerts") !== "off";
$("alerts").addEventListener("change", (e) => {
  store(localStorage, "fibsd-alerts", e.target.checked ? "on" : "off");
  if (e.target.checked && window.Notification && Notification.permission === "default") Notification.requestPermission();
});
$("auto-send").checked = stored(localStorage, "fibsd-auto-send") === "on";
$("auto-send").addEventListener("change", (e) => store(localStorage, "fibsd-auto-send", e.target.checked ? "on" : "off"));
$("invite-kind").addEventListener("change", () => {
  const money = $("invite-kind").value === "unlimited";
  $("invite-length").hidden = money;
  document.querySelector(".match-only").hidden = money;
  document.querySelector(".money-only").hidden = !money;
});
$("notice").addEventListener("click", () => { $("notice").hidden = true; });
$("chat-kind").addEventListener("change", () => { $("chat-to").hidden = $("chat-kind").value !== "tell"; });
$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  const kind = $("chat-kind").value;
  if (kind === "command") send(text);
  else if (kind === "tell") { state.sentChat.push({ kind, text }); send(`tell ${$("chat-to").value.trim()} ${text}`); }
  else { if (kind === "say") state.sentChat.push({ kind, text }); send(`${kind} ${text}`); }
  $("chat-text").value = "";
});

function toLobby() {
  state.board = state.shown = null;
  state.result = state.offer = state.waiting = state.grace = null;
  $("match-view").hidden = true;
  send("show saved");
  renderLobby();
}

// The chouette, the leaderboard, the history and replays live in a module of their own,
// loaded when first needed (a page that never uses them does not fetch it).
async function more() {
  if (!state.chouette) {
    const module = await import("./more.js");
    state.chouette = module.install({ state, send, log, render, renderControls, renderLobby, button, notice, attention, newGame });
  }
  return state.chouette;
}
$("show-ratings").addEventListener("click", async () => (await more()).ratings());
$("show-history").addEventListener("click", async () => (await more()).history());
$("show-chouettes").addEventListener("click", async () => (await more()).chouettes());
$("show-tournaments").addEventListener("click", async () => (await more()).tournaments());
// Chouette lines before the module is loaded: load it, then hand it the lines.
const early = [];
function onChouetteLine(line) {
  early.push(line);
  if (early.length === 1) more().then((c) => { for (const l of early.splice(0)) if (!c.onLine(l)) onText(l); });
}

// A reload logs in again with the name and password this tab used (kept for the tab only).
$("login-name").value = stored(localStorage, "fibsd-name") || "";
const again = stored(sessionStorage, "fibsd-login");
if (again) {
  try {
    const { name, password } = JSON.parse(again);
    state.name = name; state.password = password;
    $("login-name").value = name;
    state.loginSent = false;
    connect("login");
  } catch { store(sessionStorage, "fibsd-login", null); }
}
