interface Named {
  id: string;
  label: string;
}

/**
 * How well `query` names a command: every query character in order in its label (or id), scored higher for
 * matches at word starts and in a run; null when it does not match. An empty query matches everything equally.
 */
export function matchScore(query: string, command: Named): number | null {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return 0;
  let best: number | null = null;
  for (const text of [command.label.toLowerCase(), command.id.toLowerCase()]) {
    let score = 0;
    let at = 0;
    let previous = -2;
    for (const character of wanted) {
      if (character === ' ') continue;
      const found = text.indexOf(character, at);
      if (found < 0) {
        score = -1;
        break;
      }
      const wordStart = found === 0 || /[\s\-/·(]/.test(text[found - 1]!);
      score += 1 + (wordStart ? 3 : 0) + (found === previous + 1 ? 2 : 0);
      previous = found;
      at = found + 1;
    }
    if (score >= 0 && (best === null || score > best)) best = score;
  }
  return best;
}

/** The commands `query` names, best match first; ties keep registry order. */
export function filterCommands<Command extends Named>(commands: readonly Command[], query: string): Command[] {
  return commands
    .map((command, index) => ({ command, index, score: matchScore(query, command) }))
    .filter((entry): entry is { command: Command; index: number; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.command);
}
