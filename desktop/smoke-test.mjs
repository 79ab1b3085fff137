#!/usr/bin/env node
// The release workflow's smoke test of the packaged desktop app (.github/workflows/release.yml): start it with a
// fresh Weft home, load the canvas, ask the offline receipt model, and check that the receipt names the request
// hash the preview showed and the version keeps. Plain JavaScript: it runs before any TypeScript tooling exists.
// usage: node desktop/smoke-test.mjs [dist/packages | the app's executable]   (Linux: under xvfb-run)
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const QUESTION = 'Smoke test: is the packaged app answering?';

/** The hash a receipt says the model received (runtime/models/receipt-model.ts writes "Request hash: <hex>"). */
export function receiptHash(answer) {
  return /Request hash: ([0-9a-f]{64})\b/.exec(answer)?.[1] ?? null;
}

/** The app electron-builder unpacked into `packages` (dist/packages) for this platform, or null. */
export function packagedExecutable(packages, platform = process.platform, product = 'Weft') {
  const candidates = {
    linux: readdirSync(packages)
      .filter((folder) => /^linux(-[a-z0-9]+)?-unpacked$/.test(folder))
      .map((folder) => path.join(packages, folder, product.toLowerCase())),
    darwin: readdirSync(packages)
      .filter((folder) => /^mac(-[a-z0-9]+)?$/.test(folder))
      .map((folder) => path.join(packages, folder, `${product}.app`, 'Contents', 'MacOS', product)),
    win32: readdirSync(packages)
      .filter((folder) => /^win(-[a-z0-9]+)?-unpacked$/.test(folder))
      .map((folder) => path.join(packages, folder, `${product}.exe`)),
  }[platform];
  return candidates?.find((candidate) => existsSync(candidate)) ?? null;
}

/**
 * The person's first ask on a page showing the canvas (a playwright-core Page): add a question, read the
 * preview's hash, ask, and compare it with the receipt's and the version's. Throws, naming what differed.
 */
export async function smokeCanvas(page, { timeout = 60_000 } = {}) {
  await page.locator('[data-testid="node-card"]').first().waitFor({ timeout });
  await page.getByTestId('add-question').click();
  const panel = page.getByTestId('node-panel');
  await panel.waitFor({ timeout });
  const input = panel.getByTestId('question-input');
  await input.fill(QUESTION);
  await input.blur();
  await panel.locator('[data-testid="preview-hash"][data-ready="true"]').waitFor({ timeout });
  const previewHash = (await panel.getByTestId('preview-hash').textContent()).trim();
  await panel.getByTestId('ask').click();
  await panel.getByTestId('version-item').first().waitFor({ timeout });
  const answer = await panel.getByTestId('panel-answer').textContent();
  const versionHash = (await panel.getByTestId('version-hash').first().textContent()).trim();
  const received = receiptHash(answer ?? '');
  if (!/^[0-9a-f]{64}$/.test(previewHash)) throw new Error(`the preview shows no request hash: "${previewHash}"`);
  if (received !== previewHash) throw new Error(`the receipt names ${received}, the preview ${previewHash}`);
  if (versionHash !== previewHash) throw new Error(`the version keeps ${versionHash}, the preview ${previewHash}`);
  return { previewHash, receiptHash: received, versionHash };
}

async function main(target = 'dist/packages') {
  const folder = existsSync(target) && statSync(target).isDirectory();
  const executable = folder ? packagedExecutable(target) : existsSync(target) ? target : null;
  if (!executable) throw new Error(`no packaged app for ${process.platform} under ${target} (run electron-builder)`);
  const { _electron: electron } = await import('playwright-core');
  const home = mkdtempSync(path.join(tmpdir(), 'weft-smoke-'));
  // Linux runners forbid the setuid sandbox helper in an unpacked build; the smoke test only loads our own page.
  const args = process.platform === 'linux' ? ['--no-sandbox'] : [];
  const app = await electron.launch({ executablePath: executable, args, env: { ...process.env, WEFT_HOME: home } });
  try {
    const result = await smokeCanvas(await app.firstWindow());
    console.log(`smoke test passed: ${executable}\n  request hash ${result.previewHash} (preview = receipt = version)`);
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv[2]).catch((error) => {
    console.error(`smoke test failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
