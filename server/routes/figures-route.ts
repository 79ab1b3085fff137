import express, { type Router } from 'express';
import { ResultsFigureRequestSchema, type ResultsFigureResponse } from '../../protocol/index.ts';
import { checksChartSvg } from '../../runtime/figures/index.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/** `POST /api/figures/checks`: the Results view's bar chart per check as SVG (issue 31). */
export function figuresRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/figures/checks', jsonBody(2 * 1024 * 1024), async (request, response) => {
    const body = validateBody(ResultsFigureRequestSchema, request.body);
    const svg = await checksChartSvg(body.cells);
    // Metadata only: counts, never a question's or a check's words.
    context.logger.info('figure', { kind: 'checks', cells: body.cells.length });
    const answer: ResultsFigureResponse = { svg };
    response.json(answer);
  });
  return router;
}
