// Loaded on first use: the chouette, the leaderboard, your matches and their replays.
export function install(app) {
  return { onLine: () => false, wants: () => false, render() {}, active: () => false,
    ratings() {}, history() {}, chouettes() {} };
}
