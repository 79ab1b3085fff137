// Worker thread for extractPdfText (pdf-text.ts): pdfjs runs here so a large or hostile PDF never
// blocks the server's event loop, and can be stopped by terminating the worker.
// Plain JavaScript so it loads the same way from source, under tests and in the desktop bundle.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const { bytes, standardFontDataUrl, maxPages } = workerData;

async function extract() {
  const task = getDocument({
    data: bytes,
    standardFontDataUrl,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  let document;
  try {
    document = await task.promise;
  } catch (error) {
    return { ok: false, reason: error && error.name === 'PasswordException' ? 'password' : 'unreadable' };
  }
  try {
    if (document.numPages > maxPages) return { ok: false, reason: 'too-many-pages', pages: document.numPages };
    const pages = [];
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
    return { ok: true, pages };
  } catch {
    return { ok: false, reason: 'unreadable' };
  } finally {
    await document.destroy();
  }
}

parentPort.postMessage(await extract());
