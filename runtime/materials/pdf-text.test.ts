import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../../tests/support/minimal-pdf.ts';
import { extractPdfText } from './pdf-text.ts';

const fixture = new URL('../../tests/fixtures/two-pages.pdf', import.meta.url);

describe('extractPdfText', () => {
  it('reads each page with its number', async () => {
    const result = await extractPdfText(new Uint8Array(await readFile(fixture)));
    expect(result.pages).toEqual([
      { number: 1, text: 'Hello PDF page one\nSecond line with quick brown fox' },
      { number: 2, text: 'Page two talks about (parentheses) and more' },
    ]);
  });

  it('reads a freshly written PDF the same way', async () => {
    const result = await extractPdfText(minimalPdf([['Only page']]));
    expect(result.pages).toEqual([{ number: 1, text: 'Only page' }]);
  });

  it('refuses bytes that are not a PDF, and a damaged PDF, with a clear code', async () => {
    await expect(extractPdfText(new TextEncoder().encode('<html>nope</html>'))).rejects.toMatchObject({
      code: 'pdf-invalid',
    });
    const damaged = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\ngarbage');
    await expect(extractPdfText(damaged)).rejects.toMatchObject({ code: 'pdf-invalid' });
  });
});

describe('extractPdfText limits', () => {
  it('gives up on a PDF that takes too long, and one with too many pages', async () => {
    const many = minimalPdf(Array.from({ length: 5 }, (_, index) => [`page ${index + 1}`]));
    await expect(extractPdfText(many, { maxPages: 3 })).rejects.toMatchObject({
      code: 'pdf-invalid',
      message: expect.stringContaining('5 pages'),
    });
    await expect(extractPdfText(many, { timeoutMs: 1 })).rejects.toMatchObject({
      code: 'pdf-invalid',
      message: expect.stringContaining('longer than'),
    });
  });
});
