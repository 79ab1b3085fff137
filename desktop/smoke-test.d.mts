/** Types for `smoke-test.mjs` (plain JavaScript so the release workflow runs it with Node alone). */
import type { Page } from 'playwright-core';

export function receiptHash(answer: string): string | null;
export function packagedExecutable(packages: string, platform?: NodeJS.Platform, product?: string): string | null;
export function smokeCanvas(
  page: Page,
  options?: { timeout?: number },
): Promise<{ previewHash: string; receiptHash: string; versionHash: string }>;
