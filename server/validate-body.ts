import type { z } from 'zod';
import { describeIssues } from '../runtime/fs/index.ts';
import { WeftError } from '../protocol/index.ts';

/** Parse a body with its protocol schema; a mismatch is a coded 400 that names the first problems. */
export function validateBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === undefined)
    throw new WeftError('invalid-body', 'Expected a JSON body (Content-Type: application/json).', 400);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new WeftError('invalid-body', `The request body is not valid: ${describeIssues(parsed.error.issues)}.`, 400);
  return parsed.data;
}
