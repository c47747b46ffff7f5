// The match view: what FIBS's sentences about a match mean for the page (the turn, the
// cube, resignations, results, the match saved, a dropped opponent), and the
// buttons and the one line of plain words below the board. FIBS's telnet wording ("Type
// 'accept' or 'reject'") never reaches the user: the page says what it means. The board
// and the moving of checkers are moves.js's.

import { applyMove, parseMoveText } from "./clip.js";
import { $, RELOAD_MS, attention, log, notice, onClipLines, onLines, playing, myTurn, send, state, view } from "./client.js";
import { inviteCommand, renderLobby } from "./lobby.js";
import { stopClock } from "./clocks.js";

// A tournament's pairing for this user: the match it starts is named by the tournament and
// round. (Seen here, before tournaments.js is loaded: the match may start at once.)
onClipLines((line) => {
  const m = /^Tournament (\S+): round (\d+): your \d+-point (?:correspondence )?match with (\S+) /.exec(line);
  if (m) state.nextTournament = { title: `tournament ${m[1]}, round ${m[2]}`, opponent: m[3] };
  return false;
});

// FIBS's sentences that change what the page offers: true (done), or the line to log.
onLines((line) => {
  let m;
  const b = state.board;
  const opp = b ? b.opponent : "";
  if (/^\S+ has joined you\. Your running match was loaded\.$/.test(line) && state.board && playing()) {
    // The opponent is back (a reload, a reconnection): the match goes on as it was.
    state.grace = null;
    if (state.dropped) { state.dropped = null; clearTimeout(state.dropTimer); return true; }  // a reload
  } else if ((m = /^\*\* You are now playing .* with (\S+)$|^You are now playing with (\S+)\./.exec(line))
      || (m = /^\*\* Player (\S+) has joined you|^Player (\S+) has joined you|^(\S+) has joined you\./.exec(line))) {
    newMatch(m[1] || m[2] || m[3]);
  } else if (/^Starting a new game with /.test(line)) {
    newGame();
  // The turn, the cube and resignations.
  } else if (/^It's your turn\. Please roll or double/.test(line)) {
    state.rollPrompt = true;  // (after a dance no board follows: the buttons are drawn now)
    attention("turn", "Your turn");
    renderControls();
    return true;
  } else if (/^(turn: \S+\.|match length: \d+|points for \S+: \d+)$/.test(line)) {
    return true;  // FIBS's summary of a match sat down at again: the board says it
} else if (/^Please move \d+ pieces?\.$/.test(line)) {
    return true;  // FIBS's telnet prompt: the line below the board says it, and the dice
  } else if (/^It's your turn to move\.$/.test(line)) {
    attention("turn", "Your turn");
    return true;
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
      const mine = b && isPlayer(m[2]) ? [m[3], m[5]] : [m[5], m[3]];
      state.result.score = b ? `Score: ${b.player} ${mine[0]} – ${mine[1]} ${b.opponent}${m[1] ? ` (${m[1]}-point match)` : ""}.` : line;
      newScore(mine);
    }
    renderControls();
    return true;
  } else if (/^Type 'join' if you want to play the next game/.test(line)) {
    if (state.result) state.result.next = true;
    attention("turn", "Next game?");
    renderControls();
    return true;
  } else if (/^\*\* Please wait for (\S+) to join too\.$/.test(line)) {
    state.waiting = { kind: "join" };
    renderControls();
    return true;
  } else if ((m = /^(You|\S+) wins? the (\d+) point match (\d+)-(\d+) \.$/.exec(line))) {
    matchOver(m[1], m[2], m[3], m[4]);
    send("show saved");
  // The match stops: saved, or the opponent dropped.
  } else if (/^\*\* You terminated the game|^\*\* Player \S+ has left the game|^Your game with \S+ was saved\.$|^(\S+ logs out|Connection with \S+ timed out|Closed old connection with user \S+|Network error with \S+)\. The game was saved\.$/.test(line)) {
    matchClosed(`The match was saved: ${line.replace(/^\*\* /, "")} Resume it from the lobby.`);
    line = line.replace(/^\*\* /, "");
  } else if (/^\S+ drops connection\. The game was saved\.$/.test(line)) {
    // A grace period follows at once (fibsd's extension line) unless the server has none;
    // either way nothing is shown before RELOAD_MS: a reload comes back within it.
    const dropped = { lines: [line], grace: null };
    state.dropped = dropped;
    clearTimeout(state.dropTimer);
    state.dropTimer = setTimeout(() => {
      if (state.dropped !== dropped) return;
      state.dropped = null;
      for (const l of dropped.lines) log(l);
      if (!dropped.grace) return matchClosed("The match was saved: your opponent dropped.");
      state.grace = dropped.grace;
      tickGrace();
    }, RELOAD_MS);
    return true;
  } else if ((m = /^\*\* (\S+) has (\d+) seconds to come back\./.exec(line))) {
    const grace = { name: m[1], until: Date.now() + Number(m[2]) * 1000 };
    const text = `${m[1]} dropped the connection and has ${m[2]} seconds to come back; then you may claim the match or leave it saved.`;
    if (state.dropped) { state.dropped.grace = grace; state.dropped.lines.push(text); return true; }
    state.grace = grace;
    line = text;
    tickGrace();
  } else if ((m = /^\*\* You may claim the match in (\d+) seconds\.$/.exec(line))) {
    if (state.grace) state.grace.until = Date.now() + Number(m[1]) * 1000;
  } else if (/^\*\* \S+ did not come back: you claim the match\.$/.test(line)) {
    state.grace = null;
  } else if ((m = /^(\S+) drops connection\.\. You're not watching anymore\.$/.exec(line)) && b && !playing()) {
    // The watched player dropped: often a reload. The server puts us back (a new board)
    // when he sits down again; only if he is not back within RELOAD_MS is it shown.
    const gone = { name: m[1] };
    state.watchDropped = gone;
    setTimeout(() => {
      if (state.watchDropped !== gone) return;
      state.watchDropped = null;
      log(line);
      if (state.board !== b || state.result || playing()) return;
      state.result = { text: `${m[1]} drops connection: you are no longer watching.`, stopped: true };
      renderControls();
    }, RELOAD_MS);
    return true;
  } else if ((m = /^You're now watching (\S+)\.$/.exec(line)) && state.watchDropped && state.watchDropped.name === m[1]) {
    state.watchDropped = null;  // back within RELOAD_MS: as far as this page shows, never gone
    return true;
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
  } else {
    return false;
  }
  return line;
});

// A finger, not a mouse (a phone, a tablet): the page says "tap".
const touch = () => matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;

function newMatch(opponent) {
  clearTimeout(state.dropTimer);
  state.dropped = null;
  state.clock = null;
  state.onTime = null;
  $("notice").hidden = true;
  if ($("next-pairing").textContent.includes(` with ${opponent} `)) $("next-pairing").hidden = true;
  state.invitations.clear();
  state.outgoing = null;
  state.grace = null;
  state.rematch = opponent;
  const pairing = state.nextTournament;  // (tournaments.js: the pairing announced)
  state.matchTitle = pairing && pairing.opponent === opponent ? pairing.title : null;
  if (state.matchTitle) state.nextTournament = null;
  $("resign-kind").value = "n";
  newGame();
  $("match-view").scrollIntoView({ block: "start" });  // (the lobby may have been scrolled)
  send("show saved");  // the list marks the match being played now
  renderLobby();
}

export function newGame() {
  state.result = null; state.offer = null; state.waiting = null; state.readyToSend = false;
  state.moveList = []; state.lastRoll = {};
  $("resign-kind").value = "n";
  $("resign-confirm").hidden = true;
  $("match-view").hidden = false;
  renderMoveList();
}
view.newGame = newGame;

// A game ends: the result says who won, how many points and whether it was a gammon or a
// backgammon (points = cube x 1, 2 or 3); the board shows the final position (no board
// follows a winning move: it is the last move made on the last board).
// The match is over: WINNER ("You" or a name) won the LENGTH-point match WON-LOST.
function matchOver(winner, length, won, lost) {
  const who = winner === "You" ? "You win" : `${winner} wins`;
  const last = state.onTime ? `${state.onTime} ran out of time.`
    : state.result && state.result.kind ? `The last game: ${state.result.kind}, ${state.result.points}.` : "";
  const title = state.matchTitle ? `${state.matchTitle[0].toUpperCase()}${state.matchTitle.slice(1)}. ` : "";
  state.result = { ...(state.result || {}), text: `${who} the ${length}-point match ${won}–${lost}${state.onTime ? " on time" : ""}.`,
    score: `${title}${last}`.trim(), matchOver: true, next: false, stopped: false };
  state.onTime = null;
  stopClock();
  if (state.board) newScore(isPlayer(winner) ? [won, lost] : [lost, won]);
  state.offer = null; state.waiting = null; state.grace = null; state.rollPrompt = false;
}

function gameOver(who, points) {
  const b = state.board;
  const factor = b ? Number(points.split(" ")[0]) / b.cube : 1;
  const kind = { 2: "a gammon", 3: "a backgammon" }[factor] || "";
  state.result = { text: `${who} the game and ${points}${kind ? ` (${kind})` : ""}.`, next: true, kind, points };
  state.offer = null; state.waiting = null; state.rollPrompt = false; state.readyToSend = false;
  state.selected = null; state.dice = [];
  $("resign-confirm").hidden = true;
  if (b) {
    let final = state.played || b;
    if (state.steps) {  // the opponent's (or a watched player's) winning move
      const mover = b.player !== "You" && state.steps.who === b.player ? 1 : -1;
      for (const [from, to] of parseMoveText(state.steps.text, b, mover)) final = applyMove(final, from, to, mover);
      state.steps = null;
    }
    state.board = state.shown = { ...final, dice: [0, 0], opponentDice: [0, 0] };
    state.played = null;
    view.render();
  }
  addMove(who.replace(/ wins?$/, ""), `wins ${points}`);
  // Whether the match is over follows in the next lines; the score says it already, so the
  // page never shows a result with nothing to do (Next game, or the match's end).
  if (b && b.matchLength !== 9999) {
    const winner = who === "You win" ? "You" : who.replace(/ wins$/, "");
    const first = isPlayer(winner);
    const score = [b.score[0] + (first ? parseInt(points, 10) : 0), b.score[1] + (first ? 0 : parseInt(points, 10))];
    if (Math.max(...score) >= b.matchLength) {
      matchOver(winner, b.matchLength, Math.max(...score), Math.min(...score));
      view.render();
    }
  }
}

// Is NAME the board's first player (the viewer, or the watched player)?
function isPlayer(name) {
  const b = state.board;
  return !!b && (name === b.player || (b.player === "You" && (name === "You" || name === state.name)));
}

// The header's score once a game or the match is over (the next board would say it late).
function newScore([mine, theirs]) {
  const score = [Number(mine), Number(theirs)];
  state.board = { ...state.board, score };
  if (state.shown) state.shown = { ...state.shown, score };
  view.render();
}

// The match view closes: the match was saved (left, logged out) or is watched no more.
function matchClosed(text) {
  state.board = state.shown = state.clock = null;
  state.offer = state.waiting = state.result = state.grace = null;
  state.rollPrompt = false;
  $("match-view").hidden = true;
  notice(text, "info");
  send("show saved");
}

export function toLobby() {
  state.board = state.shown = state.clock = null;
  state.result = state.offer = state.waiting = state.grace = null;
  $("match-view").hidden = true;
  send("show saved");
  renderLobby();
}

function tickGrace() {
  clearTimeout(state.graceTimer);
  if (!state.grace) return;
  renderControls();
  state.graceTimer = setTimeout(tickGrace, 1000);
}


export function addMove(who, text) {
  state.moveList.push(`${who === state.name ? "You" : who}: ${text.trim()}`);
  renderMoveList();
}

function renderMoveList() {
  const list = $("movelist");
  list.replaceChildren(...state.moveList.map((t) => { const li = document.createElement("li"); li.textContent = t; return li; }));
}

export function cubeText(n) { return `${n} point${n === 1 ? "" : "s"}`; }

function show(id, visible) { $(id).hidden = !visible; }

export function renderControls() {
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
  const puzzle = !!state.puzzle;  // a puzzle (puzzles.js): nothing to resign or leave
  show("resign-box", free && b.turn !== 0 && $("resign-confirm").hidden && !chouette && !puzzle);
  show("leave", me && !(result && result.matchOver) && !chouette && !puzzle);
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
  else if (myTurn() && state.dice.length) info = `Your move: ${state.dice.join(" ")} to play (${touch() ? "tap" : "click"} or drag a checker).`;
  else if (myTurn() && b.dice[0] && state.moves.length) info = "Move sent.";
  else if (me && b.turn !== 0) info = b.opponentDice[0] ? `${opp} is moving.` : `${opp} to roll or double.`;
  $("turn-info").textContent = info;
  if (state.chouette) state.chouette.render();
}
view.renderControls = renderControls;

// The buttons below the board.
const act = (id, fn) => $(id).addEventListener("click", () => { fn(); renderControls(); });
act("roll", () => { state.rollPrompt = false; send("roll"); });
act("double", () => { state.rollPrompt = false; send("double"); });
act("accept", () => { state.offer = null; send("accept"); });
act("reject", () => { state.offer = null; send("reject"); });
act("beaver", () => { state.offer = null; send("beaver"); });
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
