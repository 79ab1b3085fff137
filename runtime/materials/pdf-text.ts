import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PdfMaterialResponse } from '../../protocol/index.ts';
import { WeftError } from '../../protocol/index.ts';

export const PDF_MAX_PAGES = 2000;
export const PDF_TIMEOUT_MS = 30_000;

function standardFontDataUrl(): string {
  const require = createRequire(import.meta.url);
  // pdfjs wants a filesystem path ending in '/' on Node.
  return join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
}

type WorkerAnswer =
  | { ok: true; pages: PdfMaterialResponse['pages'] }
  | { ok: false; reason: 'password' | 'unreadable' | 'too-many-pages'; pages?: number };

export interface PdfTextOptions {
  timeoutMs?: number;
  maxPages?: number;
}

/**
 * Text of every page of a PDF, with page numbers. pdfjs (legacy build: the modern one needs
 * DOMMatrix) runs in a worker thread with eval off, so a big or hostile file neither blocks the
 * server nor runs forever: past `timeoutMs` the worker is terminated.
 */
export async function extractPdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfMaterialResponse> {
  if (bytes.length < 5 || Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new WeftError('pdf-invalid', 'This file is not a PDF (it does not start with %PDF-).', 400);
  }
  const timeoutMs = options.timeoutMs ?? PDF_TIMEOUT_MS;
  const maxPages = options.maxPages ?? PDF_MAX_PAGES;
  const copy = new Uint8Array(bytes);
  const worker = new Worker(new URL('./pdf-text-worker.mjs', import.meta.url), {
    workerData: { bytes: copy, standardFontDataUrl: standardFontDataUrl(), maxPages },
    transferList: [copy.buffer],
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new WeftError(
              'pdf-invalid',
              `The PDF took longer than ${Math.round(timeoutMs / 1000)} seconds to read; it was given up.`,
              400,
            ),
          ),
        timeoutMs,
      );
      worker.once('message', resolve);
      worker.once('error', () =>
        reject(new WeftError('pdf-invalid', 'The PDF could not be read; it may be damaged.', 400)),
      );
      worker.once('exit', (code) =>
        reject(new WeftError('pdf-invalid', `The PDF reader stopped unexpectedly (${code}).`, 400)),
      );
    });
    if (answer.ok) return { pages: answer.pages };
    if (answer.reason === 'password') throw new WeftError('pdf-invalid', 'The PDF is password-protected.', 400);
    if (answer.reason === 'too-many-pages')
      throw new WeftError('pdf-invalid', `The PDF has ${answer.pages} pages; at most ${maxPages} are read.`, 400);
    throw new WeftError('pdf-invalid', 'The PDF could not be read; it may be damaged.', 400);
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
