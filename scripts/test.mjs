#!/usr/bin/env node
// `npm test`: the whole suite — first what it needs from outside the repository (the pinned agent CLIs, Chromium,
// PostgreSQL), then static checks (layers, format, lint, both type checks; two at a time), unit + integration tests,
// renderer build, browser end-to-end tests in Chromium. Ends with each skipped test and its reason, then one summary line
// `tests: N passed, N failed, N skipped`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findChromium } from '../tests/support/find-chromium.mjs';
import { findPostgres } from '../tests/support/find-postgres.mjs';
import { ensureRealClis, realClisInstalled, realClisPrefix } from './real-clis/install-real-clis.mjs';
import { mergeTallies, summaryLines, tallyTests } from './test-tally.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = mkdtempSync(path.join(tmpdir(), 'weft-test-'));
const tallies = [];
const failures = [];

// What the tests need from outside the repository, installed before any test starts (one line each). A failed
// install fails the run once, under its own name; the tests that need it skip, naming the command to run.
function prepare(label, command, install) {
  const started = performance.now();
  try {
    const done = install();
    console.log(`── ${label}: ${done} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (error) {
    console.error(
      `── ${label}: FAILED — ${error instanceof Error ? error.message : String(error)}\n   run: ${command}`,
    );
    failures.push(`${label} (run: ${command})`);
    return false;
  }
}

const clisPrefix = realClisPrefix();
if (!realClisInstalled(clisPrefix)) console.log(`── real agent CLIs: installing the pinned ones into ${clisPrefix}…`);
const clisReady = prepare('real agent CLIs', 'npm run real-clis:install', () => `ready in ${ensureRealClis()}`);
// Read by tests/support/agents/real-agent-harness.ts: the agent tests skip at once instead of installing again.
if (!clisReady) process.env.WEFT_REAL_CLIS_MISSING = "npm test's install step failed";
let chromiumPath = null;
prepare('Chromium', 'sudo apt-get install -y chromium   (or set CHROMIUM_PATH)', () => {
  const chromium = findChromium({ installIfRoot: true });
  if (!chromium.path) throw new Error(chromium.message);
  chromiumPath = chromium.path;
  return chromiumPath;
});
// The team index tests start a real PostgreSQL server from these binaries (tests/support/postgres-server.ts).
prepare('PostgreSQL', 'sudo apt-get install -y postgresql   (or set PG_BIN)', () => {
  const postgres = findPostgres({ installIfRoot: true });
  if (!postgres.bin) throw new Error(postgres.message);
  process.env.PG_BIN = postgres.bin;
  return postgres.bin;
});

function step(label, command, args, env = {}) {
  console.log(`\n── ${label}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  // Each step's wall time, so the whole run's budget (CI: 30 minutes on 2 cores) can be watched step by step.
  console.log(`── ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) failures.push(label);
  return result.status === 0;
}

function vitest(project) {
  const report = path.join(reports, `${project}.json`);
  step(
    `vitest (${project})`,
    bin('vitest'),
    ['run', '--project', project, '--reporter=default', '--reporter=./scripts/test-tally-reporter.mjs'],
    { WEFT_TEST_TALLY_FILE: report },
  );
  // No report: vitest itself did not finish, which its step already counts as a failed step.
  if (existsSync(report)) tallies.push(tallyTests(JSON.parse(readFileSync(report, 'utf8'))));
}

// The static checks run two at a time (2 cores), each one's output printed whole when it ends.
function checkInBackground(label, command, args) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      console.log(`\n── ${label}\n${output}── ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
      if (code !== 0) failures.push(label);
      resolve();
    });
  });
}

async function staticChecks(checks, parallel) {
  const queue = [...checks];
  const lane = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) await checkInBackground(...check);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
}

// The longest first, so the two lanes end together.
await staticChecks(
  [
    [
      'lint (ESLint, type-checked rules)',
      process.execPath,
      [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', '.'],
    ],
    ['type check: whole repository', bin('tsc'), ['-p', 'tsconfig.json']],
    ['type check: protocol + core (ES2022, no DOM or Node types)', bin('tsc'), ['-p', 'tsconfig.core.json']],
    [
      'format check (Prettier)',
      process.execPath,
      [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'],
    ],
    ['layer check', process.execPath, ['--import', 'tsx', 'scripts/check-layers.ts']],
  ],
  2,
);
vitest('unit');

if (
  chromiumPath &&
  step('renderer build', process.execPath, [
    path.join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--logLevel',
    'warn',
  ])
) {
  process.env.CHROMIUM_PATH = chromiumPath;
  vitest('e2e');
}

console.log(`\n${failures.length ? `failed steps: ${failures.join('; ')}` : 'all steps passed'}`);
const tally = mergeTallies(tallies);
for (const line of summaryLines(tally)) console.log(line);
process.exitCode = failures.length || tally.failed ? 1 : 0;
