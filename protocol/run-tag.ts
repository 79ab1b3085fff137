import { z } from 'zod';

/** Issue 31: the longest name a re-run may carry (it is shown in lists and typed on the command line). */
export const RUN_NAME_MAX = 80;

/**
 * Issue 31: set on a version written by a re-run of a study under another model ("Re-run under…"): the run's name,
 * shared by every version the run wrote, and the model it was re-run under. A re-run never selects its versions, so
 * the person's selected answers stay what flows downstream. Optional on the version, so no format bump.
 */
export const RunTagSchema = z.object({
  name: z.string().trim().min(1).max(RUN_NAME_MAX),
  model: z.string().min(1).max(200),
});
export type RunTag = z.infer<typeof RunTagSchema>;
