import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatReceipt } from '../runtime/models/receipt-model.ts';
import { packagedExecutable, receiptHash } from './smoke-test.mjs';

/** The release smoke test's plain-Node parts (its page steps run in e2e/desktop-smoke.e2e.ts). */
const packages = mkdtempSync(join(tmpdir(), 'weft-packages-'));
afterAll(() => rmSync(packages, { recursive: true, force: true }));

function place(...parts: string[]): string {
  const file = join(packages, ...parts);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '');
  chmodSync(file, 0o755);
  return file;
}

describe('the desktop smoke test', () => {
  it("reads the request hash from the offline receipt model's own answer", () => {
    const hash = 'ab'.repeat(32);
    const receipt = formatReceipt([{ role: 'user', content: [{ type: 'text', text: 'Why?' }] }], hash);
    expect(receiptHash(receipt)).toBe(hash);
    expect(receiptHash(formatReceipt([], null))).toBeNull();
  });

  it("finds electron-builder's unpacked app for each platform, and says when there is none", () => {
    expect(packagedExecutable(packages, 'linux')).toBeNull();
    const linux = place('linux-unpacked', 'weft');
    const mac = place('mac-arm64', 'Weft.app', 'Contents', 'MacOS', 'Weft');
    const windows = place('win-unpacked', 'Weft.exe');
    place('Weft-0.1.0.AppImage');
    expect(packagedExecutable(packages, 'linux')).toBe(linux);
    expect(packagedExecutable(packages, 'darwin')).toBe(mac);
    expect(packagedExecutable(packages, 'win32')).toBe(windows);
  });
});
