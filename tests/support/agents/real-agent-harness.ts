import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { runtimeInstallPaths } from '../../../runtime/agents/index.ts';
import { repoRoot } from '../browser.ts';

/**
 * The pieces every real-agent test needs: the pinned CLIs (scripts/real-clis/, installed into a cache once), the
 * scripted model on 127.0.0.1, and a scratch git repository with a HOME beside it and a folder outside it.
 */
export interface RealClis {
  claude: string;
  pi: string;
  codex: string;
}

/** Set by `npm test` (scripts/test.mjs) when its install step failed: the run already fails once, by that name. */
export const REAL_CLIS_MISSING = 'WEFT_REAL_CLIS_MISSING';

/**
 * The installed pinned CLIs, or the reason they cannot be had (the tests print it and skip). `npm test` installs
 * them before any test starts, so here this is a no-op; a plain `vitest run` installs them on first use.
 */
export function installRealClis(): RealClis | { skip: string } {
  const missing = process.env[REAL_CLIS_MISSING];
  if (missing) return { skip: `the pinned CLIs are not installed (${missing}); run: npm run real-clis:install` };
  const install = spawnSync(process.execPath, [join(repoRoot, 'scripts/real-clis/install-real-clis.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 280_000,
  });
  if (install.status !== 0) {
    return {
      skip: `the pinned CLIs could not be installed (run: npm run real-clis:install): ${install.stderr.slice(-400)}`,
    };
  }
  // The prefix is the script's last line (an npm that printed its own summary before it must not become the path).
  const prefix = install.stdout.trim().split('\n').at(-1)!;
  const bin = join(prefix, 'node_modules', '.bin');
  return { claude: join(bin, 'claude'), pi: join(bin, 'pi'), codex: join(bin, 'codex') };
}

export interface ScriptedModel {
  port: number;
  scenarios: string;
  requestLog: string;
  /** The base URL for one runner and scenario; the server learns the working directory from it. */
  base(runner: 'pi' | 'codex', scenario: string, workdir: string): string;
  addScenario(scenario: { name: string; runners?: string[]; exchanges: object[] }): void;
  stop(): void;
}

export async function startScriptedModel(work: string): Promise<ScriptedModel> {
  const scenarios = join(work, 'scenarios');
  mkdirSync(scenarios, { recursive: true });
  const requestLog = join(work, 'server-requests.jsonl');
  const portFile = join(work, '.port');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(repoRoot, 'scripts/real-clis/server.mjs'),
      '--scenarios',
      scenarios,
      '--log',
      requestLog,
      '--port',
      '0',
      '--port-file',
      portFile,
      '--max-lifetime',
      '900',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => String(chunk).includes('listening') && resolve(undefined));
    child.once('exit', (code) => reject(new Error(`scripted server exited ${code}`)));
  });
  const port = Number(readFileSync(portFile, 'utf8').trim());
  return {
    port,
    scenarios,
    requestLog,
    base: (runner, scenario, workdir) =>
      `http://127.0.0.1:${port}/x/${runner}/${scenario}/${Buffer.from(workdir).toString('base64url')}`,
    addScenario: (scenario) => writeFileSync(join(scenarios, `${scenario.name}.json`), JSON.stringify(scenario)),
    stop: () => child.kill('SIGTERM'),
  };
}

export interface Scratch {
  root: string;
  repo: string;
  home: string;
  outside: string;
  env: NodeJS.ProcessEnv;
}

/** A scratch git repository (the agent's cwd), a bare HOME and a folder outside the repository. */
export function makeScratch(prefix: string): Scratch {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(root, 'repo');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  for (const folder of [repo, home, join(home, '.tmp'), outside]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(repo, 'README.md'), '# scratch\n');
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'add', '.');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'scratch');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: join(home, '.tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    PI_OFFLINE: '1',
    PI_TELEMETRY: '0',
    PI_SKIP_VERSION_CHECK: '1',
  };
  return { root, repo, home, outside, env };
}

/** Pi's own configuration in the scratch HOME: one provider pointing at the scripted model. */
export function configurePi(scratch: Scratch, base: string): string {
  const agentDir = join(scratch.home, '.pi', 'agent');
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, 'models.json'),
    JSON.stringify({
      providers: {
        scripted: {
          baseUrl: `${base}/v1`,
          api: 'openai-completions',
          apiKey: 'sk-offline-scripted',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'scripted-coder', name: 'Scripted coder', input: ['text'], contextWindow: 128000 }],
        },
      },
    }),
  );
  // As a person's own Pi would be set up: the default model is what `agent:pi` without a model runs.
  writeFileSync(
    join(agentDir, 'settings.json'),
    JSON.stringify({ defaultProvider: 'scripted', defaultModel: 'scripted-coder' }),
  );
  return 'scripted/scripted-coder';
}

/**
 * A wrapper for a CLI that copies every byte of its stdin to `log` before the CLI reads it: what the runtime
 * received, recorded outside Weft's own code.
 */
export function stdinRecordingWrapper(bin: string, log: string, folder: string): string {
  const wrapper = join(folder, `record-stdin-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(wrapper, `#!/bin/sh\ntee -a '${log}' | exec '${bin}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

/**
 * The stdin-recording wrapper for a runtime the server starts in its sandbox, and `WEFT_AGENT_GRANTED_PATHS` for
 * it: the server sees the wrapper as the runtime, so the person grants what the wrapper needs — its own folder
 * (the log is written inside the sandbox) and the real CLI's install — and the scratch's outside folder.
 */
export function sandboxedRecorder(cli: string, scratch: Scratch): { bin: string; log: string; granted: string } {
  const folder = join(scratch.root, 'recorder');
  mkdirSync(folder, { recursive: true });
  const log = join(folder, 'stdin.log');
  writeFileSync(log, '');
  const [install] = runtimeInstallPaths(cli, scratch.env);
  return {
    bin: stdinRecordingWrapper(cli, log, folder),
    log,
    granted: [scratch.outside, folder, install!].join(delimiter),
  };
}

/** A Weft-owned CODEX_HOME in the scratch HOME whose one provider is the scripted model (Responses over SSE). */
export function configureCodex(scratch: Scratch, base: string): string {
  const codexHome = join(scratch.home, '.weft-codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "scripted"',
      '',
      '[model_providers.scripted]',
      'name = "Scripted model (loopback)"',
      `base_url = "${base}/v1"`,
      'env_key = "SCRIPTED_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 1',
      'stream_max_retries = 1',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
      '[features]',
      'plugins = false',
      'remote_plugin = false',
      'apps = false',
      '',
    ].join('\n'),
  );
  scratch.env.SCRIPTED_API_KEY = 'sk-offline-scripted';
  return codexHome;
}
