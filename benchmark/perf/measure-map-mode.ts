// Map mode (C32) for bench:ui: a canvas whose answers carry plaques, zoomed out until the plaques stand in for the
// cards (the summary level), then panned while rAF intervals are recorded.
// Page code holds no named inner functions (tsx would wrap them in a `__name` helper the page does not have).
import type { Page } from 'playwright-core';
import { pan } from './ui-measure.ts';

const zoomOf = (page: Page) =>
  page.evaluate(() =>
    Number(getComputedStyle(document.querySelector('.react-flow')!).getPropertyValue('--weft-zoom') || '1'),
  );

/**
 * Wheels the pane until the zoom is inside the summary level (0.2–0.45: map mode, plaques painted, on a canvas whose
 * answers carry them; title-and-status cards otherwise); then pans `steps` times.
 */
export async function measureMapModePan(page: Page, steps: number, options = { plaques: true }): Promise<number[]> {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const zoom = await zoomOf(page);
    if (zoom >= 0.25 && zoom < 0.4) break;
    await page.mouse.wheel(0, zoom >= 0.4 ? 120 : -120);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  const zoom = await zoomOf(page);
  if (!(zoom >= 0.2 && zoom < 0.45)) throw new Error(`map mode not reached: zoom ${zoom}`);
  if (options.plaques) await page.waitForSelector('[data-testid="plaque-map"]', { timeout: 60_000 });
  return pan(page, steps);
}
