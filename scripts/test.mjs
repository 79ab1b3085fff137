#!/usr/bin/env node
// `npm test`: the whole suite in order — layer check, format check, lint, type checks, unit + integration tests,
// renderer build, browser end-to-end tests in Chromium. Ends with one summary line `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
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

step('layer check', process.execPath, ['--import', 'tsx', 'scripts/check-layers.ts']);
step('format check (Prettier)', process.execPath, [
  path.join(root, 'node_modules/prettier/bin/prettier.cjs'),
  '--check',
  '--log-level',
  'warn',
  '.',
]);
step('lint (ESLint, type-checked rules)', process.execPath, [
  path.join(root, 'node_modules/eslint/bin/eslint.js'),
  '--max-warnings',
  '0',
  '.',
]);
step('type check: protocol + core (ES2022, no DOM or Node types)', bin('tsc'), ['-p', 'tsconfig.core.json']);
step('type check: whole repository', bin('tsc'), ['-p', 'tsconfig.json']);
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
