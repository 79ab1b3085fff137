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
});
