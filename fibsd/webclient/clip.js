// CLIP, the FIBS client protocol, as the page needs it: the connection's lines, the
// numbered CLIP lines, the board: line, and the backgammon arithmetic the board view uses
// (pip counts, the destinations of a single checker). Pure functions, no DOM.

// --- the byte stream -------------------------------------------------------------------

// Turns the WebSocket's binary frames into CRLF-terminated lines plus the unterminated rest
// (prompts such as "login: "), dropping telnet's IAC WILL/WONT ECHO around passwords.
export class LineSplitter {
  constructor() {
    this.decoder = new TextDecoder("utf-8");
    this.pending = "";
  }

  // Returns the complete lines in `bytes` (an ArrayBuffer); `this.pending` keeps the rest.
  feed(bytes) {
    const input = new Uint8Array(bytes);
    const kept = [];
    for (let i = 0; i < input.length; i++) {
      // IAC WILL/WONT ECHO: three bytes, never split (the server sends them whole).
      if (input[i] === 0xff) { i += 2; continue; }
      kept.push(input[i]);
    }
    this.pending += this.decoder.decode(new Uint8Array(kept), { stream: true });
    const parts = this.pending.split("\r\n");
    this.pending = parts.pop();
    return parts;
  }
}

// --- numbered CLIP lines -----------------------------------------------------------------

// CLIP 5: "5 NAME OPPONENT WATCHING READY AWAY RATING EXPERIENCE IDLE LOGIN HOST CLIENT EMAIL"
export function parseWho(line) {
  const f = line.split(" ");
  if (f[0] !== "5" || f.length < 13) return null;
  const dash = (s) => (s === "-" ? null : s);
  return {
    name: f[1], opponent: dash(f[2]), watching: dash(f[3]), ready: f[4] === "1",
    away: f[5] === "1", rating: f[6], experience: Number(f[7]), client: dash(f[11]),
  };
}

// CLIP 2 field names in order (fibs-protocol.md §3.2); toggles are 0/1.
const OWN_FIELDS = ["name", "allowpip", "autoboard", "autodouble", "automove", "away", "bell",
  "crawford", "double", "experience", "greedy", "moreboards", "moves", "notify", "rating",
  "ratings", "ready", "redoubles", "report", "silent", "timezone"];

export function parseOwnInfo(line) {
  const f = line.split(" ");
  if (f[0] !== "2" || f.length < 22) return null;
  const info = {};
  OWN_FIELDS.forEach((key, i) => { info[key] = f[i + 1]; });
  return info;
}

// The chat lines CLIP numbers (fibs-protocol.md §3.7), as {kind, from, text}.
export function parseChat(line) {
  const m = /^(1[2-9]|20) (\S+)(?: (.*))?$/.exec(line);
  if (!m) return null;
  const code = Number(m[1]);
  const kinds = { 12: "says", 13: "shouts", 14: "whispers", 15: "kibitzes", 16: "you tell",
    17: "you shout", 18: "you whisper", 19: "you kibitz", 20: "alerts" };
  if (code >= 17 && code <= 19) return { kind: kinds[code], from: "", text: line.slice(3) };
  return { kind: kinds[code], from: m[2], text: m[3] || "" };
}

// --- the board: line (fibs-protocol.md §4.2) ---------------------------------------------

export function parseBoard(line) {
  const f = line.split(":");
  if (f[0] !== "board" || f.length !== 53) return null;
  const n = f.map(Number);
  return {
    player: f[1], opponent: f[2], matchLength: n[3], score: [n[4], n[5]],
    points: n.slice(6, 32),  // b[0..25]: + for O, - for X, absolute numbering
    turn: n[32], dice: [n[33], n[34]], opponentDice: [n[35], n[36]], cube: n[37],
    mayDouble: [n[38] === 1, n[39] === 1], wasDoubled: n[40] === 1, colour: n[41],
    direction: n[42], home: n[43], bar: n[44], off: [n[45], n[46]], onBar: [n[47], n[48]],
    canMove: n[49], postCrawford: n[51] === 1, line,
  };
}

// The player's checkers count positive in `owned(board, p)`, the opponent's negative.
export function owned(board, p) {
  return board.points[p] * board.colour;
}

// Pips each side needs to bear off: [player's, opponent's].
export function pipCounts(board) {
  let mine = board.onBar[0] * 25, theirs = board.onBar[1] * 25;
  for (let p = 1; p <= 24; p++) {
    const c = owned(board, p);
    // The player's distance to home: p when moving down (direction -1), 25 - p up.
    const dist = board.direction === -1 ? p : 25 - p;
    if (c > 0) mine += c * dist; else theirs += -c * (25 - dist);
  }
  return [mine, theirs];
}

export function isCrawfordGame(board) {
  const n = board.matchLength;
  if (n === 9999 || board.postCrawford) return false;
  const [a, b] = board.score;
  if (a >= n || b >= n) return false;  // the match is over
  return (a === n - 1) !== (b === n - 1);
}

// Where one of the player's checkers may go from `from` with a die of `die` (or null):
// the usual single-checker rules (enter from the bar first, no point held by two or more
// opposing checkers, bear off only with every checker home, a higher die only from the
// highest point). The server checks the whole play; the page only shows likely targets.
// Positions are absolute: the player's bar is `board.bar`, "off" is `board.home`.
export function destination(board, from, die) {
  const dir = board.direction;
  if (owned(board, from) <= 0 && from !== board.bar) return null;
  if (from === board.bar && board.onBar[0] === 0) return null;
  if (from !== board.bar && board.onBar[0] > 0) return null;
  const start = from === board.bar ? (dir === -1 ? 25 : 0) : from;
  const to = start + dir * die;
  if (to >= 1 && to <= 24) return owned(board, to) >= -1 ? to : null;
  // Bearing off: every checker in the home board (distance to home at most 6).
  for (let p = 1; p <= 24; p++) {
    const dist = dir === -1 ? p : 25 - p;
    if (owned(board, p) > 0 && dist > 6) return null;
  }
  if (board.onBar[0] > 0) return null;
  const dist = dir === -1 ? start : 25 - start;
  if (die === dist) return board.home;
  // A higher die bears off only the checker farthest from home.
  for (let p = 1; p <= 24; p++) {
    const d = dir === -1 ? p : 25 - p;
    if (owned(board, p) > 0 && d > dist) return null;
  }
  return board.home;
}

// A copy of `board` after the player's checker moved from -> to, hitting a lone opposing
// checker (which goes to the opponent's bar).
export function applyMove(board, from, to, mover = 1) {
  const b = { ...board, points: board.points.slice(), onBar: board.onBar.slice(), off: board.off.slice() };
  const sign = board.colour * mover;  // the moving side's sign in `points`
  const side = mover === 1 ? 0 : 1;
  const moverBar = mover === 1 ? board.bar : 25 - board.bar;
  const moverHome = mover === 1 ? board.home : 25 - board.home;
  if (from === moverBar) { b.onBar[side] -= 1; b.points[from] -= sign; }
  else b.points[from] -= sign;
  if (to === moverHome) { b.off[side] += 1; return b; }
  if (b.points[to] === -sign) {  // a blot is hit
    b.points[to] = 0;
    const otherBar = 25 - moverBar;
    b.points[otherBar] -= sign;
    b.onBar[1 - side] += 1;
  }
  b.points[to] += sign;
  return b;
}

// "bar" and "off" in move notation become the mover's absolute positions.
export function parseMoveText(text, board, mover) {
  const bar = mover === 1 ? board.bar : 25 - board.bar;
  const home = mover === 1 ? board.home : 25 - board.home;
  const pos = (s) => (s === "bar" ? bar : s === "off" ? home : Number(s));
  return text.trim().split(/\s+/).filter((s) => /^(\d+|bar)-(\d+|off)$/.test(s))
    .map((s) => s.split("-").map(pos));
}

export function moveText(board, from, to) {
  const name = (p, end) => (p === board.bar && !end ? "bar" : p === board.home && end ? "off" : String(p));
  return `${name(from, false)}-${name(to, true)}`;
}

// The opening position, from the first name's side (he moves down, from 24 to 1).
export function startBoard(names, score, length) {
  const points = Array(26).fill(0);
  for (const [p, n] of [[24, 2], [13, 5], [8, 3], [6, 5]]) { points[p] = n; points[25 - p] = -n; }
  return { player: names[0], opponent: names[1], matchLength: length || 9999, score, points, turn: 0,
    dice: [0, 0], opponentDice: [0, 0], cube: 1, mayDouble: [true, true], wasDoubled: false, colour: 1,
    direction: -1, home: 0, bar: 25, off: [0, 0], onBar: [0, 0], canMove: 0, postCrawford: false };
}
