import 'fake-indexeddb/auto';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DossierView } from '../../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { StoreContext } from '../kit/index.ts';
import { TestApp } from '../store/test-app.ts';
import { DossierPanel } from './DossierPanel.tsx';

// The dossier panel as the renderer draws it (#30.4), over a real store reading a real server: Build is disabled and
// says why while the default model is the offline receipt.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const view: DossierView = {
  topicId: 'topic-1',
  dossier: null,
  retired: [],
  dropped: [],
  history: [],
  validity: {},
  citationKnownAs: {},
  pendingFacts: [],
  unreadTurns: 1,
  struck: 0,
};

function drawn(app: TestApp, element: React.ReactElement): string {
  return renderToStaticMarkup(<StoreContext.Provider value={app.store}>{element}</StoreContext.Provider>);
}

describe('the dossier panel', () => {
  // A static render reads the store's first state (a fresh install's: the offline receipt is the default); the
  // switch to enabled once a chat model is the default is checked in Chromium (e2e/memory-page.e2e.ts).
  it('on a fresh install disables Build, names the setting it needs and links to it', async () => {
    const app = await new TestApp(server, `dossier-panel-${Math.random()}`).start();
    expect(app.state.defaultModelId).toBe('offline/receipt');
    const offline = drawn(app, <DossierPanel view={view} onChanged={() => {}} />);
    expect(offline).toMatch(/<button class="button small" disabled="">Build…<\/button>/);
    expect(offline).toContain('data-testid="dossier-needs-model"');
    expect(offline).toContain('Choose a default chat model in Settings → Models');
    expect(offline).toContain('data-testid="dossier-open-settings"');
    expect(offline).not.toContain('dossier-no-model');
  });

  it('marks each sentence inferred, says since when it holds and names its reconstructed citations (#29)', async () => {
    const app = await new TestApp(server, `dossier-panel-known-${Math.random()}`).start();
    const cut = 'claude:s1#2';
    const built: DossierView = {
      ...view,
      dossier: {
        format: 'weft.dossier',
        topicId: 'topic-1',
        version: 2,
        writtenAt: Date.UTC(2026, 2, 4),
        sections: {
          what: [{ id: 'a', text: 'The sync engine uses SQLite.', citations: ['canvas:c#n@v', cut] }],
          decisions: [],
          status: [],
          open: [],
        },
      },
      validity: { a: { from: Date.UTC(2026, 0, 15, 12), to: null } },
      citationKnownAs: { [cut]: 'reconstructed' },
    };
    const html = drawn(app, <DossierPanel view={built} onChanged={() => {}} />);
    expect(html).toMatch(
      /data-testid="dossier-known-as" data-known-as="inferred" title="A model’s summary[^"]*">inferred by a model</,
    );
    expect(html).toMatch(/data-testid="dossier-holds-since"[^>]*>\s*holds since [^<]*2026/);
    expect(html).toContain('title="Holds since');
    // The canvas turn is read as written (no word); the interrupted session turn is named reconstructed.
    expect(html).toMatch(/data-known-as="observed"[^>]*>\[1\]</);
    expect(html).toMatch(/data-known-as="reconstructed"[^>]*>\[2 · reconstructed from partial data\]</);
  });
});
