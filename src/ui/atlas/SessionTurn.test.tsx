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

describe('an attachment in a recorded prompt (issue 30.5, real Pi and Codex image sessions)', () => {
  const PI = 'real-sessions/pi/image/sessions/--tmp-realsessions-out-pi-image-repo--';
  const CODEX = 'real-sessions/codex/image/sessions/2026/11/29';

  it.each([
    ['Pi', `${PI}/2026-11-29T12-05-36-480Z_01a22732-485f-76a3-a7c5-c5f76e80771e.jsonl`, 'File'],
    ['Codex', `${CODEX}/rollout-2026-11-29T12-05-32-01a22732-3a77-7e61-b622-6bc464ddd6d1.jsonl`, 'Image'],
  ])('%s: shows the attachment as a chip named pixel.png, and no markup', async (_runner, file, kind) => {
    const [session] = await readFixtureSessions(file);
    const turn = session!.turns.find((candidate) => /pixel\.png/.test(candidate.userText))!;
    expect(turn.userText).toMatch(/<(file|image) name=/);
    const html = renderToStaticMarkup(<SessionTurn turn={turn} runs={new Map()} />);
    const question = /class="atlas-turn-question">([\s\S]*?)<\/div>/.exec(html)![1]!;
    expect(question).toContain('data-testid="attachment-chip"');
    expect(question).toMatch(new RegExp(`<span class="attachment-kind">${kind}</span>pixel.png</span>`));
    expect(question).toContain('What colour is this image?');
    // The markup the CLI wrote, escaped into text, is gone.
    expect(question).not.toMatch(/&lt;\/?(file|image)/);
  });
});
