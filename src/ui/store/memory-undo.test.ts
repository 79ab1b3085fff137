import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptProfileFactsAutomatically } from '../../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // About Undo after an admission: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
});
afterAll(async () => {
  await server?.dispose();
});

const until = async (check: () => boolean, what: string) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** C14: each admission toast's Undo undoes that admission, never a newer one. */
describe('Undo from an admission toast', () => {
  it('names its own admission: an older toast cannot undo the newest one', async () => {
    const app = await new TestApp(server, `memory-undo-${Math.random()}`, { memory: true }).start();
    const memory = app.memory!;
    await app.state.createCanvas('Undo canvas');
    const preferences = () => memory.view.getState().loaded?.profile.documents.preferences ?? [];
    const current = () =>
      preferences()
        .filter((line) => line.ended === null)
        .map((line) => line.text);

    expect(await app.state.ask(app.addQuestion('I prefer answers in British English. What is a lift?'))).toBe(true);
    await until(() => current().length === 1, 'the first admission');
    const older = app.lastToast()!.action!;
    expect(await app.state.ask(app.addQuestion('I always use pnpm for installs. What is a lockfile?'))).toBe(true);
    await until(() => current().length === 2, 'the second admission');
    const newer = app.lastToast()!.action!;
    expect(older.argument).toBeDefined();
    expect(newer.argument).not.toBe(older.argument);

    // The older toast's Undo is about the older admission: the profile moved on since, so it is refused by code
    // and the newest admission stays.
    const refused = await memory.undo(older.argument!);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/changed since/);
    expect(current()).toEqual(['I prefer answers in British English.', 'I always use pnpm for installs.']);

    // The newer toast undoes exactly its own admission.
    const undone = await memory.undo(newer.argument!);
    expect(undone.ok).toBe(true);
    expect(current()).toEqual(['I prefer answers in British English.']);
  });
});
