import 'fake-indexeddb/auto';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMORY_PROFILE_FORMAT,
  MEMORY_PROFILE_VERSION,
  type MemoryProfile,
  type ProfileLine,
} from '../../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { StoreContext } from '../kit/index.ts';
import { TestApp } from '../store/test-app.ts';
import { MemoryLine } from './MemoryLine.tsx';

// A memory line as the renderer draws it (#30.4): the person's words and a way to their turn on the line itself, not
// a bare evidence code; a line the person typed says so.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

function drawn(app: TestApp, element: React.ReactElement): string {
  return renderToStaticMarkup(<StoreContext.Provider value={app.store}>{element}</StoreContext.Provider>);
}

describe('a memory line', () => {
  const stated: ProfileLine = {
    id: 'line-1',
    text: 'Prefers tabs over spaces',
    evidence: 'stated',
    span: 'I prefer tabs over spaces',
    origin: { canvasId: 'canvas-1', nodeId: 'node-1', versionId: 'version-1', commitHash: 'a'.repeat(64), at: 1 },
    createdAt: 2,
    supersedes: [],
    ended: null,
  };
  const typed: ProfileLine = {
    ...stated,
    id: 'line-2',
    evidence: 'manual',
    span: null,
    origin: { canvasId: null, nodeId: null, versionId: null, commitHash: null, at: 3 },
  };
  const profile: MemoryProfile = {
    format: MEMORY_PROFILE_FORMAT,
    version: MEMORY_PROFILE_VERSION,
    documents: { preferences: [stated, typed], identity: [] },
    refusals: [],
  };

  it('shows the person’s words as the way to their turn, and says a typed line is theirs', async () => {
    const app = await new TestApp(server, `memory-line-${Math.random()}`).start();
    const line = (of: ProfileLine) =>
      drawn(app, <MemoryLine line={of} profile={profile} onEdit={async () => true} onDelete={() => {}} />);
    const said = line(stated);
    expect(said).toContain('data-testid="memory-line-evidence"');
    expect(said).toContain('You said “I prefer tabs over spaces” →');
    // The evidence code is only in the tooltip and the data attribute, never as the text a person reads.
    expect(said.replace(/ (title|data-evidence|class)="[^"]*"/g, '')).not.toMatch(/>\s*stated\s*</);
    const own = line(typed);
    expect(own).not.toContain('memory-line-evidence');
    expect(own).toContain('typed by you');
  });

  it('says how each line is known in words, with why on hover (#29), never the bare code', async () => {
    const app = await new TestApp(server, `memory-line-known-${Math.random()}`).start();
    const known = (of: ProfileLine) => {
      const html = drawn(app, <MemoryLine line={of} profile={profile} onEdit={async () => true} onDelete={() => {}} />);
      return /data-testid="memory-known-as" data-known-as="([a-z]+)" title="([^"]+)">([^<]+)</.exec(html)!.slice(1);
    };
    const [statedCode, statedWhy, statedWords] = known(stated);
    expect([statedCode, statedWords]).toEqual(['stated', 'stated by you']);
    expect(statedWhy).toContain('Your own words');
    expect(known(typed)[2]).toBe('stated by you');
    const [inferredCode, inferredWhy, inferredWords] = known({ ...stated, id: 'line-3', evidence: 'inferred' });
    expect([inferredCode, inferredWords]).toEqual(['inferred', 'inferred by a model']);
    expect(inferredWhy).toContain('only when its node includes inferred items');
    expect(known({ ...typed, id: 'line-4', evidence: 'folded' })[2]).toBe('reconstructed from partial data');
  });
});
