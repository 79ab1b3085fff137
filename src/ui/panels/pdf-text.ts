import workerUrl from 'pdfjs-dist/build/pdf.worker.mjs?url';
import type { PDFDocumentProxy } from 'pdfjs-dist';

export type { PDFDocumentProxy };
export interface PdfPageText {
  number: number;
  text: string;
}

/** Opens a PDF in the browser with pdf.js (loaded on first use: it is large). The caller destroys it. */
export async function openPdfDocument(bytes: ArrayBuffer): Promise<PDFDocumentProxy> {
  const pdfjs = await import('pdfjs-dist/build/pdf.mjs');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  // pdf.js transfers the buffer to its worker: hand it a copy so the caller's bytes stay usable.
  return pdfjs.getDocument({ data: new Uint8Array(bytes.slice(0)) }).promise;
}

/** Reads each page's text, one line per text line pdf.js reports. */
export async function readPdfPages(document: PDFDocumentProxy): Promise<PdfPageText[]> {
  const pages: PdfPageText[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if ('str' in item) text += item.str + (item.hasEOL ? '\n' : ' ');
    }
    pages.push({ number, text: text.replace(/[ \t]+\n/g, '\n').trim() });
  }
  return pages;
}
