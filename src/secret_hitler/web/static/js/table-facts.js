// What the table page's views read out of its state (table-state.js), as data: the last vote, what
// this seat knows of the others, whose decision it is, the rules shown in the status bar. Pure:
// the views turn these into words and elements.

/** The last revealed vote and the nomination it was about: {votes, nominated} (the events), or
 * null before the first reveal. */
export function lastVote(events) {
  let i = events.length - 1;
  while (i >= 0 && events[i].type !== "votes") i--;
  if (i < 0) return null;
  let nominated = null;
  for (let j = i - 1; j >= 0; j--) if (events[j].type === "nominated") { nominated = events[j]; break; }
  return { votes: events[i], nominated };
}

/** Who voted what in a `votes` event: {ja: [seats], nein: [seats]}. */
export function ballots(votes) {
  const ja = [];
  const nein = [];
  (votes.votes || []).forEach((x, s) => { if (x === true) ja.push(s); else if (x === false) nein.push(s); });
  return { ja, nein };
}

/** What this seat knows of the others, from the view's `known_roles` and `known_parties` (the
 * party of every role it knows, and of the seats it was shown by party): the fascist-party
 * seats it knows (`fascists`: Merlin's knowledge), those but Hitler (`fellows`: a fascist's
 * teammates) and Hitler (null: not known). */
export function knownOthers(view, seat) {
  const roles = view.known_roles || [];
  const fascists = [];
  (view.known_parties || []).forEach((party, s) => { if (s !== seat && party === "fascist") fascists.push(s); });
  const hitlerAt = roles.findIndex((role, s) => s !== seat && role === "hitler");
  const hitler = hitlerAt >= 0 ? hitlerAt : null;
  return { fellows: fascists.filter((s) => s !== hitler), hitler, fascists };
}

/** The role cards of this game beyond the official three ({role: count} in card order, the
 * view's `composition`), as [role, count] pairs; empty in an official game. */
export function specialRoles(view) {
  const all = Object.entries(view.composition || {});
  return all.some(([role]) => !["liberal", "fascist", "hitler"].includes(role)) ? all : [];
}

/** This seat's decision now, if any: {mine, key}; `key` changes with each new decision (round,
 * phase and the kinds of action offered), so that it is announced once. Claims are no decision. */
export function decision(view, legal) {
  const plays = legal.filter((a) => a.type !== "claim");
  const mine = plays.length > 0 && view.phase !== "game_over";
  return { mine, key: `${view.round}:${view.phase}:${[...new Set(plays.map((a) => a.type))].join(",")}` };
}

/** The name of the rules in the status bar (a message, as the server's narrator names them): the
 * table's (`rules_name`), else the game's, as its first log line told it (`game_started`). */
export function rulesShown(table, view) {
  if (table && table.rules_name) return table.rules_name;
  const started = (view.events || []).find((e) => e.type === "game_started");
  const told = started && (started.told || []).find((m) => m.key === "log.game_started");
  return told ? told.params.rules : { key: `preset.${(view.rules && view.rules.preset) || "official"}.name` };
}
