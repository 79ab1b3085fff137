import { Resvg } from '@resvg/resvg-js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  await page().getByTestId('canvas-menu').click();
  await page().getByTestId('canvas-new').click();
  await page().getByTestId('canvas-name').fill('Materials');
  await page().getByTestId('canvas-name-save').click();
  await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
});
afterAll(async () => {
  await app?.close();
});

/** Node ids on the canvas (from the store: off-screen cards are not in the DOM). */
function nodeIds(): Promise<string[]> {
  return page().evaluate(() => [
    ...(window as unknown as { weft: { store: { getState(): { graph: { nodes: Map<string, unknown> } } } } }).weft.store
      .getState()
      .graph.nodes.keys(),
  ]);
}

async function newMaterialIds(before: Set<string>): Promise<string[]> {
  return (await nodeIds()).filter((id) => !before.has(id));
}

describe('materials', () => {
  it('pasted text becomes a material that compiles first, in the materials layer', async () => {
    await page().getByTestId('add-material').click();
    await page().getByTestId('material-paste-title').fill('Field notes');
    await page().getByTestId('material-paste-text').fill('Observed: the sky is paler near the horizon.');
    await page().getByTestId('material-paste-add').click();
    const [material] = await newMaterialIds(new Set());
    expect(material).toBeTruthy();
    const question = await canvas.addQuestion('Why is the sky paler near the horizon?');
    await canvas.connect(material!, question);
    await canvas.open(question);
    const layers = await canvas.panel
      .getByTestId('preview-message')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-layer')));
    expect(layers).toEqual(['materials', 'question']);
    expect(await canvas.panel.getByTestId('preview-message').first().textContent()).toContain('paler near the horizon');

    // Exclude the material for this node only, then include it again.
    await canvas.panel.getByTestId('exclude-part').first().click();
    expect(await canvas.panel.getByTestId('preview-message').count()).toBe(1);
    await canvas.panel.getByTestId('include-part').click();
    expect(await canvas.panel.getByTestId('preview-message').count()).toBe(2);
  });

  it('a PDF is read in the browser; the whole document becomes a material with its page numbers', async () => {
    const before = new Set(await nodeIds());
    await page().getByTestId('add-material').click();
    await page().getByTestId('material-tab-pdf').click();
    const pdf = minimalPdf([
      ['Rayleigh scattering scales as the inverse fourth power.'],
      ['Mie scattering is nearly flat in wavelength.'],
    ]);
    await page()
      .getByTestId('material-pdf-file')
      .setInputFiles({ name: 'optics.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await page().getByTestId('pdf-pages').waitFor({ timeout: 30_000 });
    // Page 1 is drawn on a canvas with pdf.js's text layer over it.
    await page().locator('[data-page="1"][data-state="ready"]').waitFor({ timeout: 30_000 });
    expect(
      await page()
        .locator('[data-page="1"] canvas')
        .evaluate((canvas: HTMLCanvasElement) => canvas.width > 0 && canvas.height > 0),
    ).toBe(true);
    expect(await page().locator('[data-page="1"] .textLayer').textContent()).toContain('inverse fourth power');
    await page().getByTestId('material-pdf-whole').click();
    // The whole document's text is read on demand (a long PDF opens without reading every page first).
    await page().getByTestId('material-dialog').waitFor({ state: 'detached', timeout: 30_000 });
    const [material] = await newMaterialIds(before);
    await canvas.open(material!);
    expect(await canvas.panel.getByTestId('material-provenance').textContent()).toMatch(/optics\.pdf, pages 1, 2/);
    expect(await canvas.panel.getByTestId('material-text').inputValue()).toContain('Mie scattering');
  });

  it('a passage selected on a PDF page becomes a material carrying that page number', async () => {
    const before = new Set(await nodeIds());
    await page().getByTestId('add-material').click();
    await page().getByTestId('material-tab-pdf').click();
    const pdf = minimalPdf([['Page one text.'], ['Mie scattering is nearly flat in wavelength.']]);
    await page()
      .getByTestId('material-pdf-file')
      .setInputFiles({ name: 'optics.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await page().getByTestId('pdf-pages').waitFor({ timeout: 30_000 });
    // Pages render as they scroll into view: bring page 2 in and wait for its text layer.
    await page().locator('[data-page="2"]').scrollIntoViewIfNeeded();
    await page().locator('[data-page="2"][data-state="ready"]').waitFor({ timeout: 30_000 });
    // Select "nearly flat" on page 2 the way a mouse would leave it: a DOM range in the page's text layer.
    await page().evaluate(() => {
      const pageTwo = document.querySelector('[data-page="2"] .textLayer')!;
      const walker = document.createTreeWalker(pageTwo, NodeFilter.SHOW_TEXT);
      let text: Node | null = walker.nextNode();
      while (text && !text.textContent!.includes('nearly flat')) text = walker.nextNode();
      const start = text!.textContent!.indexOf('nearly flat');
      const range = document.createRange();
      range.setStart(text!, start);
      range.setEnd(text!, start + 'nearly flat'.length);
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(range);
    });
    await page().getByTestId('material-pdf-selection').click();
    const [material] = await newMaterialIds(before);
    await canvas.open(material!);
    expect(await canvas.panel.getByTestId('material-provenance').textContent()).toMatch(/optics\.pdf, page 2\./);
    expect(await canvas.panel.getByTestId('material-text').inputValue()).toBe('nearly flat');
  });

  it('a selection spanning two rendered pages carries both page numbers', async () => {
    const before = new Set(await nodeIds());
    await page().getByTestId('add-material').click();
    await page().getByTestId('material-tab-pdf').click();
    const pdf = minimalPdf([['Blue light scatters most.'], ['Mie scattering is nearly flat in wavelength.']]);
    await page()
      .getByTestId('material-pdf-file')
      .setInputFiles({ name: 'span.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await page().locator('[data-page="1"][data-state="ready"]').waitFor({ timeout: 30_000 });
    await page().locator('[data-page="2"]').scrollIntoViewIfNeeded();
    await page().locator('[data-page="2"][data-state="ready"]').waitFor({ timeout: 30_000 });
    // From "scatters" on page 1 to the end of "Mie scattering" on page 2.
    await page().evaluate(() => {
      const textIn = (selector: string, needle: string) => {
        const walker = document.createTreeWalker(document.querySelector(selector)!, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode())
          if (node.textContent!.includes(needle)) return node;
        throw new Error(`no ${needle}`);
      };
      const start = textIn('[data-page="1"] .textLayer', 'scatters most');
      const end = textIn('[data-page="2"] .textLayer', 'Mie scattering');
      const range = document.createRange();
      range.setStart(start, start.textContent!.indexOf('scatters most'));
      range.setEnd(end, end.textContent!.indexOf('Mie scattering') + 'Mie scattering'.length);
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(range);
    });
    await page().getByTestId('material-pdf-selection').click();
    const [material] = await newMaterialIds(before);
    await canvas.open(material!);
    expect(await canvas.panel.getByTestId('material-provenance').textContent()).toMatch(/span\.pdf, pages 1, 2/);
    expect(await canvas.panel.getByTestId('material-text').inputValue()).toBe('scatters most.\n\nMie scattering');
  });

  it('a web page snapshot records its final address and fetch time', async () => {
    const site = createServer((request, response) => {
      if (request.url === '/old') {
        response.writeHead(302, { location: '/article' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<html><head><title>Sky notes</title></head><body><article><h1>Sky notes</h1><p>The sky is blue because short wavelengths scatter more strongly in air, a result known since the nineteenth century and measured many times since.</p><p>Sunsets are red because the long path through air removes the blue.</p></article></body></html>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    try {
      const before = new Set(await nodeIds());
      await page().getByTestId('add-material').click();
      await page().getByTestId('material-tab-url').click();
      await page().getByTestId('material-url').fill(`http://127.0.0.1:${port}/old`);
      await page().getByTestId('material-dialog').getByText('Fetch snapshot').click();
      await page().getByTestId('material-dialog').waitFor({ state: 'detached', timeout: 30_000 });
      const [material] = await newMaterialIds(before);
      await canvas.open(material!);
      expect(await canvas.panel.getByTestId('material-provenance').textContent()).toMatch(
        new RegExp(`127\\.0\\.0\\.1:${port}/article, fetched`),
      );
      expect(await canvas.panel.getByTestId('material-text').inputValue()).toContain('short wavelengths scatter');
    } finally {
      site.close();
    }
  });

  it('an image is stored once by its hash and reaches the preview as an image part (or a named placeholder)', async () => {
    const before = new Set(await nodeIds());
    await page().getByTestId('add-material').click();
    await page().getByTestId('material-tab-image').click();
    await page()
      .getByTestId('material-image-file')
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page().getByTestId('material-dialog').waitFor({ state: 'detached' });
    const [image] = await newMaterialIds(before);
    expect(image).toBeTruthy();
    await canvas.card(image!).locator('img').waitFor();
    const question = await canvas.addQuestion('What is in the picture?');
    await canvas.connect(image!, question);
    await canvas.open(question);
    const takesImages = await page().evaluate(
      () =>
        (
          window as unknown as { weft: { store: { getState(): { models: { id: string; takesImages: boolean }[] } } } }
        ).weft.store
          .getState()
          .models.find((model) => model.id === 'offline/receipt')?.takesImages,
    );
    // An image part for a model that takes images; otherwise core's named placeholder.
    expect(await canvas.panel.getByTestId('preview').textContent()).toMatch(
      takesImages ? /\[image [0-9a-f]{12} · image\/png\]/ : /Image [0-9a-f]{12} \(image\/png\) left out/,
    );
    const attachments = await page().evaluate(
      () =>
        (
          window as unknown as { weft: { store: { getState(): { graph: { attachments: Map<string, unknown> } } } } }
        ).weft.store.getState().graph.attachments.size,
    );
    expect(attachments).toBe(1);
  });

  it('an image material shows its image in the panel', async () => {
    // A picture big enough to see in the screenshot: a loom's warp (blue) and weft (amber), drawn by resvg.
    const threads = [0, 1, 2, 3, 4, 5, 6, 7]
      .map(
        (index) =>
          `<rect x="${20 + index * 30}" y="10" width="12" height="140" fill="#4f46e5"/>` +
          `<rect x="10" y="${20 + index * 16}" width="260" height="8" fill="#d97706" opacity="0.85"/>`,
      )
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="280" height="160"><rect width="280" height="160" fill="#f8fafc"/>${threads}</svg>`;
    const png = Buffer.from(new Resvg(svg).render().asPng());
    const before = new Set(await nodeIds());
    await page().getByTestId('add-material').click();
    await page().getByTestId('material-tab-image').click();
    await page()
      .getByTestId('material-image-file')
      .setInputFiles({ name: 'loom.png', mimeType: 'image/png', buffer: png });
    await page().getByTestId('material-dialog').waitFor({ state: 'detached' });
    const [materialId] = await newMaterialIds(before);
    expect(materialId).toBeTruthy();
    await canvas.open(materialId!);
    const image = canvas.panel.getByTestId('material-image');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(280);
    await canvas.screenshot('material-image');
  });
});
