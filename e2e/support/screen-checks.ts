import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from './launch-app.ts';

/**
 * What a person must never see on a screen (issue 30.7): an element whose content runs past its own box, a raw
 * error or reason code where a sentence belongs, a stray backtick, and controls that move when a field loses focus.
 * Each check returns readable findings (empty when the screen is clean), so a failure names the element.
 */

/**
 * Boxes that scroll or clip on purpose, by selector; anything else wider than its box is a finding. The canvas
 * pans (React Flow's layers), text fields scroll their value, code and preview boxes scroll in their own frame.
 */
export const SCROLLERS = [
  '.react-flow',
  '.react-flow__renderer',
  '.react-flow__pane',
  '.react-flow__viewport',
  '.react-flow__nodes',
  '.react-flow__minimap',
  'input',
  'textarea',
  'select',
  'pre',
  'code',
  '.preview-text',
  '.markdown table',
] as const;

/** Hyphenated words of ordinary English that happen to look like codes. */
const ORDINARY_WORDS = new Set([
  'auto-rerun',
  'up-to-date',
  'day-to-day',
  'one-to-one',
  'state-of-the-art',
  'end-to-end',
]);

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(full);
  }
  return found;
}

let knownCodes: string[] | null = null;

/**
 * The codes the app can produce, read from its sources: every kebab-case value of a `z.enum` in `protocol/` and
 * every `WeftError` code thrown in server/, runtime/ and src/. Shown as text, any of them is a raw code.
 */
export function errorCodes(): string[] {
  if (knownCodes) return knownCodes;
  const codes = new Set<string>();
  for (const file of sourceFiles(path.join(repoRoot, 'protocol'))) {
    for (const block of readFileSync(file, 'utf8').matchAll(/z\.enum\(\[([^\]]*)\]/g))
      for (const value of block[1]!.matchAll(/'([a-z]+(?:-[a-z]+)+)'/g)) codes.add(value[1]!);
  }
  for (const folder of ['server', 'runtime', 'src'])
    for (const file of sourceFiles(path.join(repoRoot, folder)))
      for (const thrown of readFileSync(file, 'utf8').matchAll(/WeftError\(\s*'([a-z]+(?:-[a-z]+)+)'/g))
        codes.add(thrown[1]!);
  knownCodes = [...codes].filter((code) => !ORDINARY_WORDS.has(code));
  return knownCodes;
}

/** Every visible element whose content is wider than its box (by more than a pixel), outside the scrollers. */
export function overflowing(scope: Page | Locator, allow: readonly string[] = SCROLLERS): Promise<string[]> {
  const root = 'goto' in scope ? scope.locator(':root') : scope;
  return root.evaluate((element, selectors) => {
    const found: string[] = [];
    const allowed = selectors.join(',');
    const describe = (node: HTMLElement) =>
      `${node.tagName.toLowerCase()}${node.dataset.testid ? `[data-testid=${node.dataset.testid}]` : ''}.${String(node.className).trim().replace(/\s+/g, '.')}`;
    // A card's connection handles hang over its edge by design: they are not content.
    const hidden = document.createElement('style');
    hidden.textContent = '.react-flow__handle { display: none !important; }';
    document.head.append(hidden);
    for (const node of [element, ...element.querySelectorAll<HTMLElement>('*')]) {
      if (!(node instanceof HTMLElement) || node.closest('svg')) continue;
      if (node.matches(allowed) || node.closest('.react-flow__minimap, pre, code, .preview-text')) continue;
      const style = getComputedStyle(node);
      if (style.display === 'inline' || style.display === 'none' || style.visibility === 'hidden') continue;
      if (node.getClientRects().length === 0 || node.clientWidth === 0) continue;
      // An ellipsis is a chosen clip: the whole text is on hover.
      if (style.textOverflow === 'ellipsis') continue;
      if (node.scrollWidth > node.clientWidth + 1) {
        // Name the descendant that sticks out furthest, so the finding points at the culprit.
        const right = node.getBoundingClientRect().right;
        let culprit: HTMLElement | null = null;
        for (const child of node.querySelectorAll<HTMLElement>('*'))
          if (child.getBoundingClientRect().right > (culprit?.getBoundingClientRect().right ?? right + 1))
            culprit = child;
        const by = culprit ? ` by ${describe(culprit)} “${(culprit.textContent ?? '').slice(0, 30)}”` : '';
        found.push(
          `${describe(node)} (${node.scrollWidth} > ${node.clientWidth})${by}: ${(node.textContent ?? '').slice(0, 60)}`,
        );
      }
    }
    hidden.remove();
    return found;
  }, allow);
}

/** Visible text (outside code, fields and the canvas's own answers' code) that shows a raw code or a backtick. */
export async function rawText(page: Page): Promise<string[]> {
  return page.evaluate((codes) => {
    const found: string[] = [];
    const code = new RegExp(`(?<![\\w/.-])(?:${codes.map((c) => c.replace(/-/g, '\\-')).join('|')})(?![\\w/-])`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const value = text.textContent ?? '';
      if (!value.trim()) continue;
      const parent = text.parentElement;
      if (!parent || parent.closest('pre, code, textarea, script, style, .preview-text, [hidden]')) continue;
      if (parent.getClientRects().length === 0 || getComputedStyle(parent).visibility === 'hidden') continue;
      const where = `${parent.tagName.toLowerCase()}${parent.dataset.testid ? `[data-testid=${parent.dataset.testid}]` : ''}`;
      if (value.includes('`')) found.push(`backtick in ${where}: ${value.trim().slice(0, 80)}`);
      const match = code.exec(value);
      if (match) found.push(`raw code “${match[0]}” in ${where}: ${value.trim().slice(0, 80)}`);
    }
    return found;
  }, errorCodes());
}

/**
 * Focuses `field` (and types `typed` at its end, as a person finishing a question does), then moves focus away the
 * way a pointer-down on another control does, and returns the controls at or above the field, and the first one
 * below it (the one a person clicks next: Ask), that moved or changed size in between — the lost click of issue
 * 30.1, on any screen. Controls further down may move with what the edit itself changed (a stale mark appearing).
 */
export async function shiftOnBlur(page: Page, field: Locator, typed = ''): Promise<string[]> {
  const boxes = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('button, [role="button"], input, select, textarea, a[href]')]
        .filter((element) => element.getClientRects().length > 0 && !element.closest('.react-flow__viewport'))
        .map((element) => {
          const box = element.getBoundingClientRect();
          const name =
            element.dataset.testid ?? element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
          return { name: name.slice(0, 40), x: box.x, y: box.y, height: box.height };
        }),
    );
  const fieldBox = (await field.boundingBox())!;
  await field.focus();
  if (typed) {
    await page.keyboard.press('End');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(typed);
  }
  await page.waitForTimeout(100);
  const before = await boxes();
  await field.evaluate((element: HTMLElement) => element.blur());
  await page.waitForTimeout(200);
  const after = await boxes();
  const moved: string[] = [];
  const below = before.filter((box) => box.y >= fieldBox.y + fieldBox.height - 1);
  const next = below.reduce<(typeof below)[number] | null>((best, box) => (!best || box.y < best.y ? box : best), null);
  before.forEach((box, index) => {
    const now = after[index];
    if (!now || now.name !== box.name) return;
    if (box.y >= fieldBox.y + fieldBox.height - 1 && box !== next) return;
    if (Math.abs(now.y - box.y) > 1 || Math.abs(now.height - box.height) > 1)
      moved.push(`${box.name}: y ${box.y.toFixed(0)}→${now.y.toFixed(0)}, height ${box.height}→${now.height}`);
  });
  return moved;
}
