import { mkdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsStore } from '../runtime/fs/index.ts';
import { copyFixtures, type FixtureWorkspace } from '../runtime/index/fixture-roots.ts';
import { agentLaneCodexSessions } from '../runtime/atlas/index.ts';
import { runWeft } from './run-weft.ts';

let space: FixtureWorkspace;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  space = copyFixtures('weft-cli-chosen-roots-');
  mkdirSync(space.env.HOME!, { recursive: true });
  mkdirSync(space.weftHome, { recursive: true });
  env = { ...space.env };
  delete env.WEFT_SESSION_ROOTS;
  // What the app's Settings writes when a person adds a root.
  await new SettingsStore(space.weftHome).update((current) => ({ ...current, sessionRoots: [space.roots[1]!] }));
});
afterAll(() => rmSync(space.directory, { recursive: true, force: true }));

type Status = { roots: string[]; sessions: number };
const status = async (environment: NodeJS.ProcessEnv) =>
  JSON.parse((await runWeft(['status', '--json'], { env: environment })).stdout) as Status;

// Each command is a spawned Node with tsx: slow on a shared machine.
describe('weft status and the roots chosen in Settings (the CLI, spawned)', { timeout: 180_000 }, () => {
  it('reads the roots chosen in the app, and WEFT_SESSION_ROOTS over them', async () => {
    const chosen = await status(env);
    expect(chosen.roots).toEqual([space.roots[1], agentLaneCodexSessions(space.weftHome)]);
    expect(chosen.sessions).toBeGreaterThan(0);
    const overridden = await status({ ...env, WEFT_SESSION_ROOTS: space.roots[0] });
    expect(overridden.roots).toEqual([space.roots[0]]);
    // The real recorded sessions are fewer than the synthetic ones of the chosen root: the index followed the switch.
    expect(overridden.sessions).toBeGreaterThan(0);
    expect(overridden.sessions).toBeLessThan(chosen.sessions);
  });
});
