// The match clocks (docs/clocks.md): fibsd's clock line drawn as two clocks above the
// board, the viewer's on the right, the running one counting down its delay, then its
// reserve, from the line's arrival; a loss on time stops both.

import { $, onLines, state } from "./client.js";

onLines((line) => {
  let m;
  // A match lost on time: the clocks stop, the result will say so.
  if ((m = /^\*\* (You|\S+) ran out of time and loses? the match\.$/.exec(line))) {
    state.onTime = m[1] === "You" ? "Your clock" : `${m[1]}'s clock`;
    stopClock(m[1] === "You" ? state.name : m[1]);
    return line.slice(3);  // (news, not an error)
  }
  // The match clock (fibsd's extension line, docs/clocks.md).
  if ((m = /^clock: (\S+) (\d+) (\S+) (\d+) (\d+) (\d+) (\S+) (delay|days)$/.exec(line))) {
    state.clock = { names: [m[1], m[3]], reserve: [Number(m[2]), Number(m[4])], delayLeft: Number(m[6]),
      mover: m[7], kind: m[8], at: Date.now() };
    tickClock();
    return true;
  }
  return false;
});

// The clocks: the running one counts down its delay, then its reserve, from the line's arrival.
function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  return (hms[0] ? `${hms[0]}:${String(hms[1]).padStart(2, "0")}` : `${hms[1]}`) + `:${String(hms[2]).padStart(2, "0")}`;
}

// The clocks stop (the match is over): each shows what it had left; the loser's, if named,
// shows 0:00.
export function stopClock(loser = null) {
  const c = state.clock;
  if (!c) return;
  const gone = (Date.now() - c.at) / 1000;
  c.reserve = c.reserve.map((left, i) => (c.names[i] === loser ? 0
    : c.names[i] === c.mover ? Math.max(0, left - Math.max(0, gone - c.delayLeft)) : left));
  c.mover = "-";
  c.delayLeft = 0;
  c.at = Date.now();
  tickClock();
}

export function tickClock() {
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
