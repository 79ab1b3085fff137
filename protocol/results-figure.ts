import { z } from 'zod';

/** Issue 31: at most this many (question × check × model) cells go into one Results chart. */
export const RESULTS_FIGURE_CELLS_MAX = 2_000;

/** One bar of the Results chart: a check's pass count for one model (`ResultsCell` in core). */
export const ResultsFigureCellSchema = z.object({
  nodeId: z.string().min(1).max(200),
  question: z.string().max(2_000),
  checkId: z.string().min(1).max(200),
  words: z.string().max(2_100),
  model: z.string().min(1).max(200),
  passed: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
});

/**
 * `POST /api/figures/checks`: the Results view's bar chart per check, rendered by vega-lite and Vega on the server
 * (the renderer's Content-Security-Policy allows no `eval`, which Vega's expressions need). Inline data only.
 */
export const ResultsFigureRequestSchema = z.object({
  cells: z.array(ResultsFigureCellSchema).min(1).max(RESULTS_FIGURE_CELLS_MAX),
});
export type ResultsFigureRequest = z.infer<typeof ResultsFigureRequestSchema>;

export const ResultsFigureResponseSchema = z.object({ svg: z.string().min(1) });
export type ResultsFigureResponse = z.infer<typeof ResultsFigureResponseSchema>;
