import { describe, expect, it } from 'vitest';
import { filterCommands, matchScore } from './filter-commands.ts';

const commands = [
  { id: 'undo', label: 'Undo' },
  { id: 'new-question', label: 'New question' },
  { id: 'new-note', label: 'New note' },
  { id: 'auto-layout', label: 'Auto-layout the canvas' },
  { id: 'replay', label: 'Replay stale answers…' },
];

describe('filterCommands', () => {
  it('finds commands by the initials or a fragment of their words, best match first', () => {
    expect(filterCommands(commands, 'nq').map((command) => command.id)).toEqual(['new-question']);
    expect(filterCommands(commands, 'layout')[0]!.id).toBe('auto-layout');
    expect(filterCommands(commands, 'new').map((command) => command.id)).toEqual(['new-question', 'new-note']);
  });

  it('an empty query lists every command in registry order; a query matching nothing lists none', () => {
    expect(filterCommands(commands, '').map((command) => command.id)).toEqual(commands.map((command) => command.id));
    expect(filterCommands(commands, 'xyzzy')).toEqual([]);
    expect(matchScore('zz', { id: 'undo', label: 'Undo' })).toBeNull();
  });
});
