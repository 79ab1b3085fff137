import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument } from '../protocol/canvas-document.ts';
import { CanvasStore } from '../runtime/fs/canvas-store.ts';
import { appendEvent } from '../src/core/event-log.ts';
import { sampleCanvas } from '../tests/support/sample-canvas.ts';
import { runWeft } from './run-weft.ts';

let home: string;
let env: NodeJS.ProcessEnv;
let logged: CanvasDocument;

function withEvents(document: CanvasDocument, count: number): CanvasDocument {
  const events = [...document.events];
  for (let index = 0; index < count; index += 1)
    events.push(
      appendEvent(
        events,
        { op: 'edit', objectId: 'note-1', meta: {} },
        { now: 1000 + index, newId: () => `ev-${index + 1}` },
      ),
    );
  return { ...document, events };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'weft-verify-'));
  env = { ...process.env, WEFT_HOME: home };
  mkdirSync(join(home, 'canvases'), { recursive: true });
  const store = new CanvasStore({ directory: join(home, 'canvases') });
  logged = withEvents(sampleCanvas('logged', 'Research plan'), 5);
  await store.write('logged', logged, { baseRevision: null });
  await store.write('intact', withEvents(sampleCanvas('intact', 'Clean canvas'), 2), { baseRevision: null });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('weft verify (the built CLI, spawned)', () => {
  it('says an untouched log is intact (by id or by name), exit 0', async () => {
    const byName = await runWeft(['verify', 'Clean canvas'], { env });
    expect(byName).toMatchObject({ code: 0, stderr: '' });
    expect(byName.stdout).toBe('Clean canvas (intact): Intact: all 2 events verify and match the chain head.\n');
    const json = await runWeft(['verify', 'intact', '--json'], { env });
    expect(JSON.parse(json.stdout) as unknown).toMatchObject({
      id: 'intact',
      verdict: { status: 'intact', eventCount: 2, anchored: true },
    });
  });

  it('names how many events are missing at the end when the file was cut short, exit 1', async () => {
    writeFileSync(
      join(home, 'canvases', 'logged.weft.json'),
      JSON.stringify({ ...logged, events: logged.events.slice(0, 3) }),
    );
    const run = await runWeft(['verify', 'Research plan'], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('2 events missing at the end');
  });

  it('names the first bad event when one was altered, exit 1', async () => {
    const altered = logged.events.map((event, index) => (index === 1 ? { ...event, op: 'delete' } : event));
    writeFileSync(join(home, 'canvases', 'logged.weft.json'), JSON.stringify({ ...logged, events: altered }));
    const run = await runWeft(['verify', 'logged', '--json'], { env });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { verdict: unknown; message: string };
    expect(report.verdict).toEqual({ status: 'bad-event', eventCount: 5, index: 1, eventId: 'ev-2' });
    expect(report.message).toContain('Broken at event 2 of 5 (id ev-2)');
  });

  it('refuses an unknown canvas with one line on stderr', async () => {
    const run = await runWeft(['verify', 'no-such-canvas'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^weft: No canvas record "no-such-canvas"\. \[not-found\]\n$/);
    expect((await runWeft(['verify'], { env })).code).toBe(2);
  });
});
