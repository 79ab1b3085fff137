import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smokeCanvas } from '../desktop/smoke-test.mjs';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

/**
 * The release workflow's Electron smoke test (desktop/smoke-test.mjs) asks through the same page the desktop
 * window loads; here its steps run against the built app in Chromium, where Electron cannot be fetched.
 */
let app: LaunchedApp;
beforeAll(async () => {
  app = await launchApp();
});
afterAll(async () => {
  await app?.close();
});

describe('the desktop smoke test, in Chromium', () => {
  it('loads the canvas, asks the offline model, and the receipt names the hash the preview and the version show', async () => {
    const result = await smokeCanvas(app.page);
    expect(result.previewHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.receiptHash).toBe(result.previewHash);
    expect(result.versionHash).toBe(result.previewHash);
  });
});
