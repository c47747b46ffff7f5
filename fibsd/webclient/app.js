// fibsd's web client, the page's entry: a FIBS client speaking CLIP over the server's
// WebSocket. It loads the views (the CLIP client, the lobby, the match view and its board)
// and wires the login form, the message box and the lobby's More buttons; the chouette,
// tournaments, the lists and analysis are modules of their own, loaded when first needed
// (a page that never uses them does not fetch them).

import { $, attention, handleLine, log, logIn, logOut, onClipLines, playing, send, state, store, stored } from "./client.js";
import { parseChat } from "./clip.js";
import { DECLINE, renderLobby } from "./lobby.js";
import "./match.js";
import "./correspondence.js";
import "./moves.js";

// --- messages: CLIP 9-11 and the chat lines 12-20 --------------------------------------------

onClipLines((line) => {
  let m;
  if ((m = /^9 (\S+) (\d+) (.*)$/.exec(line))) {
    attention("message", `Message from ${m[1]}`);
    log(`Message from ${m[1]}: ${m[3]}`, "private");
    return true;
  }
  if ((m = /^1[01] (\S+)$/.exec(line))) {
    log(line[1] === "0" ? `Message delivered to ${m[1]}.` : `Message saved for ${m[1]}.`);
    return true;
  }
  const chat = parseChat(line);
  if (!chat) return false;
  onChat(chat);
  return true;
});

function onChat({ kind, from, text }) {
  if (kind === "you tell") {
    const i = state.sentChat.findIndex((c) => c.text === text);
    const sent = i >= 0 ? state.sentChat.splice(i, 1)[0] : { kind: "tell" };
    return log(sent.kind === "say" ? `You say to ${from}: ${text}` : `You tell ${from}: ${text}`, "me");
  }
  if (kind.startsWith("you")) return log(`You ${kind.slice(4)}: ${text}`, "me");
  if (kind === "says") {
    if (state.outgoing && state.outgoing.name === from && text === DECLINE) { state.outgoing = null; renderLobby(); }
    const opponent = playing() && state.board.opponent === from;
    attention("message", `${from}: ${text}`);
    if (opponent) return log(`${from} says: ${text}`, "chat");
    return log(`${from} tells you: ${text}`, "private");
  }
  log(`${from} ${kind}: ${text}`, "chat");
}

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

// --- the modules loaded when first needed -------------------------------------------------------

const loaded = new Set();
const loader = (name, path) => () => import(path).then((module) => { loaded.add(name); return module; });
const load = {
  chouette: loader("chouette", "./chouette.js"),
  tournaments: loader("tournaments", "./tournaments.js"),
  history: loader("history", "./history.js"),
  puzzles: loader("puzzles", "./puzzles.js"),
};
$("show-ratings").addEventListener("click", async () => (await load.history()).ratings());
$("show-history").addEventListener("click", async () => (await load.history()).history());
$("show-chouettes").addEventListener("click", async () => (await load.chouette()).chouettes());
$("show-tournaments").addEventListener("click", async () => (await load.tournaments()).tournaments());
$("show-puzzle").addEventListener("click", async () => (await load.puzzles()).puzzle());
// A chouette's or a tournament's news before its module is loaded: load it, then hand it
// the lines that came meanwhile.
const early = [];
onClipLines((line) => {
  const m = /^(Chouette|Tournament)[: ]/.exec(line);
  const name = m && (m[1] === "Chouette" ? "chouette" : "tournaments");
  if (!m || loaded.has(name)) return false;
  early.push(line);
  load[name]().then(() => { for (const l of early.splice(0)) handleLine(l); });
  return true;
});

// --- logging in, registering, logging out -------------------------------------------------------

function credentials() {
  const name = $("login-name").value.trim();
  const password = $("login-password").value;
  $("login-error").textContent = "";
  if (!/^[A-Za-z_]{1,20}$/.test(name)) { $("login-error").textContent = "A name is 1 to 20 letters or _."; return null; }
  if (password.length < 4 || /[\s:]/.test(password)) {
    $("login-error").textContent = "A password has at least 4 characters, no spaces or colons.";
    return null;
  }
  return { name, password };
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const given = credentials();
  if (given) logIn(given.name, given.password);
});
$("register-button").addEventListener("click", () => register());
// Enter in the retype field registers (the form's Enter would log in, with no account yet).
$("login-password2").addEventListener("keydown", (e) => {
  if (e.key === "Enter") { e.preventDefault(); register(); }
});
function register() {
  const given = credentials();
  if (!given) return;
  if ($("retype-label").hidden) {
    $("retype-label").hidden = false;
    if (!$("login-password2").value) {  // (a browser may have filled it in)
      $("login-password2").focus();
      $("login-error").textContent = "Retype the password, then press Register again.";
      return;
    }
  }
  if ($("login-password2").value !== given.password) {
    $("login-error").textContent = "The two passwords differ.";
    return;
  }
  logIn(given.name, given.password, true);
}
$("logout").addEventListener("click", logOut);
$("alerts").checked = stored(localStorage, "fibsd-alerts") !== "off";
$("alerts").addEventListener("change", (e) => {
  store(localStorage, "fibsd-alerts", e.target.checked ? "on" : "off");
  if (e.target.checked && window.Notification && Notification.permission === "default") Notification.requestPermission();
});
$("notice").addEventListener("click", () => { $("notice").hidden = true; });

// A reload logs in again with the name and password this tab used (kept for the tab only).
$("login-name").value = stored(localStorage, "fibsd-name") || "";
const again = stored(sessionStorage, "fibsd-login");
if (again) {
  try {
    const { name, password } = JSON.parse(again);
    $("login-name").value = name;
    logIn(name, password);
  } catch { store(sessionStorage, "fibsd-login", null); }
}
