import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PdfMaterialResponse } from '../../protocol/http-api.ts';
import { WeftError } from '../fs/weft-error.ts';

export const PDF_MAX_PAGES = 2000;

function standardFontDataUrl(): string {
  const require = createRequire(import.meta.url);
  // pdfjs wants a filesystem path ending in '/' on Node.
  return join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
}

/** Text of every page of a PDF, with page numbers (pdfjs legacy build: the modern one needs DOMMatrix). */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfMaterialResponse> {
  if (bytes.length < 5 || Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new WeftError('pdf-invalid', 'This file is not a PDF (it does not start with %PDF-).', 400);
  }
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: standardFontDataUrl(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  let document;
  try {
    document = await task.promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    const message = name === 'PasswordException' ? 'The PDF is password-protected.' : 'The PDF could not be read; it may be damaged.';
    throw new WeftError('pdf-invalid', message, 400);
  }
  try {
    if (document.numPages > PDF_MAX_PAGES) throw new WeftError('pdf-invalid', `The PDF has ${document.numPages} pages; at most ${PDF_MAX_PAGES} are read.`, 400);
    const pages: PdfMaterialResponse['pages'] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push({ number, text: text.replace(/[ \t]+\n/g, '\n').trim() });
      page.cleanup();
    }
    return { pages };
  } finally {
    await document.destroy();
  }
}
