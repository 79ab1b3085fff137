import workerUrl from 'pdfjs-dist/build/pdf.worker.mjs?url';

export interface PdfPageText { number: number; text: string }

/** Reads each page's text in the browser with pdf.js (loaded on first use: it is large). */
export async function readPdfPages(bytes: ArrayBuffer): Promise<PdfPageText[]> {
  const pdfjs = await import('pdfjs-dist/build/pdf.mjs');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  const document = await pdfjs.getDocument({ data: new Uint8Array(bytes) }).promise;
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
  await document.destroy();
  return pages;
}
