#!/usr/bin/env node
// Runs one real coding-agent CLI (Claude Code or Codex, from install-real-clis.mjs) against the scripted model
// (server.mjs, 127.0.0.1 only) with weft registered by the real `weft setup mcp`, and prints a JSON report:
// the CLI's exit code and output, and every request the model server saw (the tool results are in them).
// Run it inside `unshare --net --mount` when possible (real-clis-mcp.e2e.ts does): then only loopback exists.
//
// usage: node run-real-cli.mjs --runner claude|codex --scenario FILE --work DIR --weft-home DIR --roots A:B
//        --bin DIR [--netns]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const args = {};
for (let index = 2; index < process.argv.length; index += 1) {
  const key = process.argv[index].replace(/^--/, '');
  const next = process.argv[index + 1];
  args[key] = next && !next.startsWith('--') ? process.argv[++index] : 'true';
}
const { runner, work, bin } = args;
const scenarioFile = args.scenario;
const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));

if (args.netns === 'true') {
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up']);
  if (up.status !== 0) throw new Error(`cannot bring up loopback: ${up.stderr}`);
}

const scenarios = join(work, 'scenarios');
const home = join(work, 'home');
const repo = join(work, 'repo');
for (const folder of [scenarios, home, join(home, '.tmp'), repo]) mkdirSync(folder, { recursive: true });
copyFileSync(scenarioFile, join(scenarios, basename(scenarioFile)));
const requestLog = join(work, 'server-requests.jsonl');
const portFile = join(work, '.port');

const server = spawn(
  process.execPath,
  [
    join(here, 'server.mjs'),
    '--scenarios',
    scenarios,
    '--log',
    requestLog,
    '--port',
    '0',
    '--port-file',
    portFile,
    '--max-lifetime',
    '600',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise((resolve, reject) => {
  server.stdout.on('data', (chunk) => String(chunk).includes('listening') && resolve(undefined));
  server.once('exit', (code) => reject(new Error(`scripted server exited ${code}`)));
});
const port = readFileSync(portFile, 'utf8').trim();
const base = `http://127.0.0.1:${port}/x/${runner}/${scenario.name}/${Buffer.from(repo).toString('base64url')}`;

// The CLIs start with `env -i`-like environments: weft must get WEFT_HOME and the roots from the registration.
const baseEnv = {
  PATH: `${bin}:${process.env.PATH}`,
  TERM: 'dumb',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  USER: process.env.USER || 'root',
  SHELL: '/bin/bash',
  HOME: home,
  TMPDIR: join(home, '.tmp'),
};
const setupEnv = {
  ...baseEnv,
  CODEX_HOME: join(home, '.codex'),
  WEFT_HOME: args['weft-home'],
  WEFT_SESSION_ROOTS: args.roots,
};
if (runner === 'codex') {
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      `model = "gpt-5.5"`,
      `model_provider = "scripted"`,
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
}
const setup = spawnSync(process.execPath, [join(repoRoot, 'bin', 'weft.mjs'), 'setup', 'mcp'], {
  cwd: repo,
  env: setupEnv,
  encoding: 'utf8',
});
if (setup.status !== 0) throw new Error(`weft setup mcp failed: ${setup.stderr}`);

const prompt = scenario.turns[0].prompt;
let command;
let env;
if (runner === 'claude') {
  env = {
    ...baseEnv,
    IS_SANDBOX: '1',
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: 'sk-ant-offline-scripted',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    ENABLE_TOOL_SEARCH: 'false',
  };
  // The project's .mcp.json servers need approval; --allowedTools grants weft's tools only.
  command = [
    join(bin, 'claude'),
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--strict-mcp-config',
    '--mcp-config',
    join(repo, '.mcp.json'),
    '--allowedTools',
    'mcp__weft__why_check,mcp__weft__why_file,mcp__weft__find,mcp__weft__recall_turn',
  ];
} else {
  env = { ...baseEnv, CODEX_HOME: join(home, '.codex'), SCRIPTED_API_KEY: 'sk-offline-scripted' };
  command = [
    join(bin, 'codex'),
    'exec',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '--json',
    '--',
    prompt,
  ];
}
const run = spawnSync(command[0], command.slice(1), {
  cwd: repo,
  env,
  encoding: 'utf8',
  timeout: 150_000,
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.kill('SIGTERM');
const requests = existsSync(requestLog)
  ? readFileSync(requestLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
process.stdout.write(
  JSON.stringify({
    runner,
    exitCode: run.status,
    signal: run.signal,
    stdout: run.stdout,
    stderr: run.stderr,
    setup: setup.stdout,
    mcpJson: existsSync(join(repo, '.mcp.json')) ? readFileSync(join(repo, '.mcp.json'), 'utf8') : null,
    codexToml: existsSync(join(home, '.codex', 'config.toml'))
      ? readFileSync(join(home, '.codex', 'config.toml'), 'utf8')
      : null,
    requests,
  }) + '\n',
);
