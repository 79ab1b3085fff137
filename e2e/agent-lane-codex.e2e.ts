import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentRoute } from '../server/routes/agent-route.ts';
import {
  installRealClis,
  makeScratch,
  startScriptedModel,
  sandboxedRecorder,
  type Scratch,
  type ScriptedModel,
} from '../tests/support/agents/real-agent-harness.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

/**
 * C24 with the real Codex from the app: the person's own Codex config (MCP server, notify hook, a trusted project)
 * never reaches Weft's Codex home and stays byte-identical; a shell command's file shows in the footprints and the
 * downstream line; "allow for this turn" is recorded twice (the card, then the gate); the materials folder leaves
 * no `.weft` in the repository; and the canvas's network switch is what `turn/start` carries to Codex's sandbox.
 */
const FIRST = '[codex-ui-first]';
const SECOND = '[codex-ui-second]';
let app: LaunchedApp | null = null;
let canvas: CanvasDriver;
let scratch: Scratch;
let model: ScriptedModel;
let stdinLog = '';
let skipReason = '';
let personalConfig = '';
let personalText = '';
let weftCodexHome = '';

type Events = { op: string; meta: Record<string, unknown> }[];
type StoreWindow = { weft: { store: { getState(): { graph: { events: Events; nodes: Map<string, unknown> } } } } };

beforeAll(async () => {
  const clis = installRealClis();
  if ('skip' in clis) {
    skipReason = clis.skip;
    process.stdout.write(`agent-lane-codex: skipped — ${skipReason}\n`);
    return;
  }
  scratch = makeScratch('weft-agent-codex-ui-');
  model = await startScriptedModel(scratch.root);
  const write = (path: string, content: string) => ({ op: 'write', path, content });
  model.addScenario({
    name: 'codex-ui',
    runners: ['codex'],
    exchanges: [
      {
        match: FIRST,
        replies: [
          { text: 'A file by shell.', tools: [{ op: 'shell', command: 'echo x > made-by-shell.txt' }] },
          { text: 'First shared copy.', tools: [write(join(scratch.outside, 'one.txt'), 'one\n')] },
          { text: 'Second shared copy.', tools: [write(join(scratch.outside, 'two.txt'), 'two\n')] },
          { text: 'Made made-by-shell.txt and two shared copies.' },
        ],
      },
      { match: SECOND, replies: [{ text: 'Nothing to do.' }] },
    ],
  });
  // The person's own Codex config: how to reach the model, and settings a Weft turn must never carry.
  personalConfig = join(scratch.home, '.codex', 'config.toml');
  mkdirSync(join(scratch.home, '.codex'), { recursive: true });
  personalText = [
    'model = "gpt-5.5"',
    'model_provider = "scripted"',
    `notify = ["${join(scratch.root, 'notify-hook.sh')}"]`,
    '',
    '[model_providers.scripted]',
    'name = "Scripted model (loopback)"',
    `base_url = "${model.base('codex', 'codex-ui', scratch.repo)}/v1"`,
    'env_key = "SCRIPTED_API_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 1',
    'stream_max_retries = 1',
    '',
    '[mcp_servers.x]',
    `command = "${join(scratch.root, 'mcp-server.sh')}"`,
    '',
    '[projects."/x"]',
    'trust_level = "trusted"',
    '',
  ].join('\n');
  writeFileSync(personalConfig, personalText);
  const recorder = sandboxedRecorder(clis.codex, scratch);
  stdinLog = recorder.log;
  weftCodexHome = join(scratch.root, 'weft-codex-home');
  const env = {
    ...scratch.env,
    SCRIPTED_API_KEY: 'sk-offline-scripted',
    WEFT_CODEX_BIN: recorder.bin,
    WEFT_AGENT_GRANTED_PATHS: recorder.granted,
  };
  app = await launchApp({
    apiRoutes: [(context) => agentRoute(context, { env, codexHome: weftCodexHome, approvalTimeoutMs: 60_000 })],
  });
  canvas = new CanvasDriver(app.page);
}, 300_000);
afterAll(async () => {
  await app?.close();
  model?.stop();
  if (scratch) rmSync(scratch.root, { recursive: true, force: true });
});

/** `sandboxPolicy.networkAccess` of every `turn/start` Codex's stdin carried, in order. */
function networkOnStdin(): unknown[] {
  return readFileSync(stdinLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method?: string; params?: { sandboxPolicy?: { networkAccess?: unknown } } })
    .filter((record) => record.method === 'turn/start')
    .map((record) => record.params?.sandboxPolicy?.networkAccess);
}

describe('the agent lane with Codex in the app', () => {
  it('footprints name a shell-written file, allow-for-turn is recorded twice, and the network switch reaches Codex', async (context) => {
    if (!app) return context.skip(skipReason);
    const page = app.page;
    const events = () =>
      page.evaluate(() =>
        (window as unknown as StoreWindow).weft.store
          .getState()
          .graph.events.map((event) => ({ op: event.op, meta: event.meta })),
      );
    await page.getByTestId('canvas-menu').click();
    await page.getByTestId('canvas-new').click();
    await page.getByTestId('canvas-name').fill('Codex notes');
    await page.getByTestId('canvas-name-save').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    await page.getByTestId('add-material').click();
    await page.getByTestId('material-paste-title').fill('Copy guide');
    await page.getByTestId('material-paste-text').fill('Shared copies go outside.');
    await page.getByTestId('material-paste-add').click();
    const [material] = await page.evaluate(() => [
      ...(window as unknown as StoreWindow).weft.store.getState().graph.nodes.keys(),
    ]);
    const asked = await canvas.addQuestion(`Make a file and two shared copies. ${FIRST}`);
    await canvas.connect(material!, asked);
    await canvas.open(asked);
    await canvas.panel.getByTestId('model-picker').selectOption('agent:codex');
    const folder = canvas.panel.getByTestId('agent-cwd');
    await folder.fill(scratch.repo);
    await folder.blur();
    await expect.poll(() => folder.inputValue()).toBe(scratch.repo);
    // Off by default; the panel says what the switch cuts, and what holds where no sandbox runs.
    expect(await canvas.panel.getByTestId('agent-network').isChecked()).toBe(false);
    expect(await canvas.panel.getByTestId('agent-network-pi').textContent()).toContain(
      'Unconfined, a Pi command can reach the network either way',
    );
    // This machine has bubblewrap: the panel says the turn is sandboxed and asks nothing.
    expect(await canvas.panel.getByTestId('agent-sandbox').textContent()).toContain(
      'the rest of your home is not there',
    );

    await canvas.panel.getByTestId('ask').click();
    const card = canvas.card(asked).getByTestId('approval-card');
    await card.waitFor({ timeout: 90_000 });
    expect(await card.getByTestId('approval-leaves').textContent()).toContain(join(scratch.outside, 'one.txt'));
    await card.getByTestId('approval-allow-turn').click();
    await canvas.panel.getByTestId('agent-footprints').waitFor({ timeout: 90_000 });

    // Both shared copies were written; the second was allowed by "for this turn" without a card.
    expect(readFileSync(join(scratch.outside, 'two.txt'), 'utf8')).toBe('two\n');
    const approvals = (await events()).filter((event) => event.op === 'approval');
    expect(approvals.map((event) => [event.meta.decision, event.meta.by])).toEqual([
      ['allow-turn', 'person'],
      ['allow-turn', 'gate'],
    ]);
    expect(await canvas.panel.getByTestId('agent-approvals').textContent()).toBe(
      'apply_patch: allow-turn (person) · apply_patch: allow-turn (gate)',
    );

    // The file the shell command wrote is in the footprints and the changed files.
    const made = join(scratch.repo, 'made-by-shell.txt');
    expect(readFileSync(made, 'utf8')).toBe('x\n');
    const footprints = await canvas.panel.getByTestId('agent-footprint').allTextContents();
    expect(footprints).toContain(`found after the turn (shell): created ${made}`);
    expect(await canvas.panel.getByTestId('agent-changed-files').textContent()).toContain(made);

    // The materials' copies left with the turn, and so did the `.weft` folder Weft made for them.
    expect(existsSync(join(scratch.repo, '.weft'))).toBe(false);
    const status = spawnSync('git', ['status', '--porcelain=v1', '--untracked-files=all'], {
      cwd: scratch.repo,
      encoding: 'utf8',
    });
    expect(status.stdout).toBe('?? made-by-shell.txt\n');

    // The person's Codex config is byte-identical; Weft's Codex home has the model and its provider only.
    expect(readFileSync(personalConfig, 'utf8')).toBe(personalText);
    const seeded = readFileSync(join(weftCodexHome, 'config.toml'), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
    expect(seeded).toContain('[model_providers.scripted]');
    for (const left of ['mcp_servers', 'notify', '"/x"', 'trust_level = "trusted"']) expect(seeded).not.toContain(left);

    // Downstream, one line names the shell-written file.
    const child = await canvas.addQuestion('What changed?');
    await canvas.connect(asked, child);
    await canvas.open(child);
    await canvas.panel.getByTestId('preview').waitFor();
    expect(await canvas.panel.getByTestId('preview').textContent()).toMatch(
      /\[Agent turn \(codex\): 3 tool calls changed .*made-by-shell\.txt.*their contents were left out of this context\]/,
    );

    // The network switch: an event, and the next turn's sandbox lets Codex reach the network.
    const other = await canvas.addQuestion(`Anything else? ${SECOND}`);
    await canvas.open(other);
    await canvas.panel.getByTestId('model-picker').selectOption('agent:codex');
    await canvas.panel.getByTestId('agent-network').check();
    await expect
      .poll(async () => (await events()).filter((event) => event.op === 'agent-settings').at(-1)?.meta.network)
      .toBe(true);
    await canvas.panel.getByTestId('ask').click();
    await canvas.panel.getByTestId('agent-footprints').waitFor({ timeout: 90_000 });
    expect(networkOnStdin()).toEqual([false, true]);
  }, 300_000);
});
