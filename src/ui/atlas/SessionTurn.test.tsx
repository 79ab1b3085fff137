import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { readFixtureSessions } from '../../../tests/support/read-fixture-session.ts';
import { SessionTurn } from './SessionTurn.tsx';

const SPOTTER = 'sessions/claude-code/marot-spotter/test/fixtures/transcripts';

/** The status labels each turn of a real transcript shows in the Atlas session view, in turn order. */
async function shownStatuses(file: string): Promise<(string | null)[]> {
  const [session] = await readFixtureSessions(`${SPOTTER}/${file}`);
  return session!.turns.map((turn) => {
    const html = renderToStaticMarkup(<SessionTurn turn={turn} runs={new Map()} />);
    expect(html).not.toContain('Request interrupted');
    return /data-testid="turn-status"[^>]*>([^<]*)</.exec(html)?.[1] ?? null;
  });
}

describe('an interrupted turn in the Atlas session view (real marot/spotter transcripts)', () => {
  it('shows "Interrupted" on the turns the person stopped, and nothing on a turn that ended normally', async () => {
    expect(await shownStatuses('tool_heavy.jsonl')).toEqual(['Interrupted', null, 'Interrupted']);
  });

  it('says when the interrupt came during a tool call', async () => {
    expect(await shownStatuses('short.jsonl')).toEqual(['Interrupted during a tool call']);
  });
});

describe('a put-aside turn in the Atlas session view (issue 29.2)', () => {
  it('is still shown, marked "Put aside", while the turns beside it are not marked', async () => {
    const [session] = await readFixtureSessions(`${SPOTTER}/tool_heavy.jsonl`);
    const [first, second] = session!.turns;
    const marked = renderToStaticMarkup(<SessionTurn turn={{ ...first!, putAside: true }} runs={new Map()} />);
    expect(marked).toContain('data-testid="turn-put-aside"');
    expect(marked).toContain('Put aside');
    expect(marked).toContain('data-put-aside="true"');
    const plain = renderToStaticMarkup(<SessionTurn turn={second!} runs={new Map()} />);
    expect(plain).not.toContain('turn-put-aside');
  });
});
