// The lobby: who is on (CLIP 5/6, with Invite and Watch), logins and logouts (CLIP 7/8),
// the invitation form and the invitations both ways (with their rules and clock terms),
// and the saved matches (`show saved`, with Resume); a name in the list shows the
// player's card (record.js).

import { parseWho } from "./clip.js";
import { $, RELOAD_MS, attention, button, h, log, onClipLines, onLines, playing, send, state, view } from "./client.js";

export const DECLINE = "Sorry, I decline your invitation.";  // FIBS has no decline: a tell

onClipLines((line) => {
  if (/^5 /.test(line)) { const who = parseWho(line); if (who) onWho(who); return true; }
  if (line === "6") { renderLobby(); return true; }
  const m = /^([78]) (\S+) (.*)$/.exec(line);
  if (m) { onPresence(m[1] === "7", m[2], m[3]); return true; }
  return false;
});

function onWho(who) {
  state.users.set(who.name, who);
  if (who.name.toLowerCase() === state.name.toLowerCase()) {
    state.name = who.name;
    $("ready").checked = who.ready;
    $("away").checked = who.away;
  }
  // A watcher learns that the match stopped (the player left or saved it) from here; not
  // at once: an opponent's reload stops the match for a moment only.
  const b = state.board;
  const stopped = () => b === state.board && !playing() && !state.result && !(state.chouette && state.chouette.active())
    && state.users.has(b.player) && !state.users.get(b.player).opponent;
  if (b && who.name === b.player && stopped()) {
    setTimeout(() => {
      if (!stopped()) return;
      state.result = { text: `${b.player}'s match with ${b.opponent} stopped (saved or over).`, stopped: true };
      view.renderControls();
    }, RELOAD_MS);
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

// Invitations both ways, their rules and clock terms, and the saved matches.
onLines((line) => {
  let m;
  if ((m = /^bot: (\S+) (on|off)$/.exec(line))) {  // (fibsd's extension: who is a bot)
    if (m[2] === "on") state.bots.add(m[1]); else state.bots.delete(m[1]);
    renderLobby();
    return true;
  }
  if ((m = /^Clock: (.*)\.$/.exec(line))) {
    if (state.invitations.has(state.lastInvitation) && !state.outgoingSent) {
      const name = state.lastInvitation;
      state.invitations.set(name, `${state.invitations.get(name).replace(/\.$/, "")} (clock: ${m[1]}).`);
    } else if (state.outgoing) state.outgoing.text += ` (clock: ${m[1]})`;
    renderLobby();
    return true;
  }
  if ((m = /^(\S+) wants to (play an? .+? match|resume a saved match) with you\.$/.exec(line))) {
    state.invitations.set(m[1], line.replace(/ with you\.$/, "."));
    state.lastInvitation = m[1];
    state.outgoingSent = false;
    attention("invitation", `${m[1]} invites you`);
    renderLobby();
    return line;
  }
  if (/^Type 'join \S+' to accept\.$/.test(line)) return true;  // the invitation has a Join button
  if ((m = /^\*\* The invitation's rules: (.*)\.$/.exec(line)) && state.invitations.has(state.lastInvitation)) {
    const name = state.lastInvitation;
    state.invitations.set(name, `${state.invitations.get(name).replace(/\.$/, "")} (${m[1]}).`);
    renderLobby();
    return true;
  }
  if ((m = /^\*\* (\S+) withdrew the invitation\.$/.exec(line))) {
    state.invitations.delete(m[1]);
    renderLobby();
    return line;
  }
  if ((m = /^\*\* You invited (\S+) to (.*)\.$/.exec(line))) {
    state.outgoing = { name: m[1], text: m[2] };
    state.outgoingSent = true;
    renderLobby();
    return true;
  }
  if (/^\*\* You withdrew your invitation/.test(line)) {
    state.outgoing = null;
    renderLobby();
    return true;
  }
  // The saved matches (show saved): " *" marks the match being played now.
  if (/^  opponent +matchlength/.test(line)) {
    state.saved = [];
    state.reading = (l) => {
      const r = /^([ *]{2})(\S+) +(\d+|unlimited) +(\d+) - +(\d+)$/.exec(l);
      if (!r) return false;
      state.saved.push({ name: r[2], length: r[3], score: `${r[4]}–${r[5]}`, now: r[1] === " *" });
      renderLobby();
      return true;
    };
    return true;
  }
  if (line === "no saved games.") { state.saved = []; renderLobby(); return true; }
  return false;
});

export function inviteCommand(name) {
  const unlimited = $("invite-kind").value === "unlimited";
  const words = ["invite", name, unlimited ? "unlimited" : String(Math.max(1, Math.min(99, Number($("invite-length").value) || 1)))];
  if (!unlimited && $("opt-holland").checked) words.push("holland");
  if (!unlimited && !$("opt-crawford").checked) words.push("nocrawford");
  if (unlimited && $("opt-jacoby").checked) words.push("jacoby");
  if (unlimited && $("opt-beavers").checked) words.push("beavers");
  const clock = $("invite-clock").value;
  if (clock) words.push(...clock.split(" "));
  if (clock.startsWith("clock") && $("invite-overtime").value) words.push(...$("invite-overtime").value.split(" "));
  return words.join(" ");
}

// Issue 36: the house bots the server runs (name, strength, the accounts of its copies:
// one per match it plays at once), each offered once while a copy is online and free.
// The server marks the page's body with them (no request of its own).
const houseBots = JSON.parse(document.body.dataset.houseBots || "[]");
const freeCopies = (bot) => (bot.copies || [bot.name]).filter((name) => {
  const u = state.users.get(name);
  return u && u.ready && !u.opponent;
});

function renderComputer() {
  const free = houseBots.filter((b) => freeCopies(b).length > 0);
  const select = $("computer-bot");
  const chosen = select.value;
  select.replaceChildren(...free.map((b) => {
    // One copy: its name; several: how many are free (the Play button picks one).
    const copies = (b.copies || [b.name]).length;
    const text = copies > 1 ? `${b.strength}: ${freeCopies(b).length} of ${copies} free` : `${b.strength} (${b.name})`;
    return new Option(text, b.name);
  }));
  if (free.some((b) => b.name === chosen)) select.value = chosen;
  $("computer").hidden = free.length === 0 || playing();
}

// The chosen strength's first free copy (the server names another if it is taken meanwhile).
function computerOpponent() {
  const bot = houseBots.find((b) => b.name === $("computer-bot").value);
  return bot ? (freeCopies(bot)[0] || bot.name) : $("computer-bot").value;
}

export function renderLobby() {
  renderComputer();
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
    // The name opens the player's card with his record (record.js, loaded on first use).
    const card = button(u.name, async () => (await import("./record.js")).showRecord(u.name), "record");
    card.className = "name-link";
    card.title = `${u.name}'s record`;
    row.insertCell().append(card);
    for (const text of [u.rating, u.experience, status]) row.insertCell().textContent = text;
    if (state.bots.has(u.name)) row.cells[0].append(h("span", { className: "bot-mark", title: "a bot" }, "bot"));
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
    if (state.correspondence?.has(s.name)) continue;  // (listed with its clock: correspondence.js)
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

$("computer-play").addEventListener("click", () => send(inviteCommand(computerOpponent())));
$("ready").addEventListener("change", () => send("toggle ready"));
$("away").addEventListener("change", (e) => send(e.target.checked ? "away playing elsewhere" : "back"));
// Overtime is for a delay clock only (not for correspondence, nor without a clock).
const clockKind = () => { $("invite-overtime").hidden = !$("invite-clock").value.startsWith("clock"); };
$("invite-clock").addEventListener("change", clockKind);
clockKind();
$("invite-kind").addEventListener("change", () => {
  const money = $("invite-kind").value === "unlimited";
  $("invite-length").hidden = money;
  document.querySelector(".match-only").hidden = money;
  document.querySelector(".money-only").hidden = !money;
});
