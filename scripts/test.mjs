#!/usr/bin/env node
// `npm test`: the whole suite — static checks (layers, format, lint, both type checks; two at a time), unit +
// integration tests, renderer build, browser end-to-end tests in Chromium. Ends with one summary line
// `tests: N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findChromium } from '../tests/support/find-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = mkdtempSync(path.join(tmpdir(), 'weft-test-'));
let passed = 0;
let failed = 0;
const failures = [];

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
  step(`vitest (${project})`, bin('vitest'), [
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    passed += summary.numPassedTests;
    failed += summary.numFailedTests;
  } else {
    failed += 1;
  }
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

const chromium = findChromium({ installIfRoot: true });
if (!chromium.path) {
  console.error(`\n${chromium.message}`);
  failures.push('browser tests (no Chromium)');
} else if (
  step('renderer build', process.execPath, [
    path.join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--logLevel',
    'warn',
  ])
) {
  process.env.CHROMIUM_PATH = chromium.path;
  vitest('e2e');
}

console.log(`\n${failures.length ? `failed steps: ${failures.join('; ')}` : 'all steps passed'}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = failures.length || failed ? 1 : 0;
