import { jsonBody, rawBody } from '../read-body.ts';
import express, { type Router } from 'express';
import { UrlMaterialRequestSchema, WeftError } from '../../protocol/index.ts';
import { extractPdfText, snapshotUrl } from '../../runtime/materials/index.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

export const PDF_BODY_LIMIT = 50 * 1024 * 1024;

/** Materials that need Node: a web page snapshot and PDF text with page numbers. */
export function materialsRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/materials/url', jsonBody(16 * 1024), async (request, response) => {
    const { url } = validateBody(UrlMaterialRequestSchema, request.body);
    const snapshot = await snapshotUrl(url, context.urlSnapshot);
    context.logger.info('url snapshot', { host: new URL(snapshot.finalUrl).host, characters: snapshot.text.length });
    response.json(snapshot);
  });
  router.post(
    '/materials/pdf',
    rawBody(PDF_BODY_LIMIT, ['application/pdf', 'application/octet-stream']),
    async (request, response) => {
      if (!Buffer.isBuffer(request.body))
        throw new WeftError('unsupported-media-type', 'Send the PDF bytes with Content-Type: application/pdf.', 415);
      const result = await extractPdfText(new Uint8Array(request.body));
      context.logger.info('pdf text', { pages: result.pages.length });
      response.json(result);
    },
  );
  return router;
}
