import type { z } from 'zod';
import { fetchPublic } from '../materials/index.ts';
import { SEARCH_MAX_BYTES } from './search-input.ts';
import type { SearchServiceOptions } from './search-service-options.ts';
import { WeftError } from '../../protocol/index.ts';

/**
 * A search service's JSON answer, fetched under the URL snapshot address policy and bounded in size; an answer
 * that is not JSON of the expected shape is `tool-bad-answer` ("did not answer with <what>").
 */
export async function fetchSearchJson<T>(
  url: URL,
  schema: z.ZodType<T>,
  options: SearchServiceOptions,
  what: string,
): Promise<T> {
  const response = await fetchPublic(url.toString(), {
    ...options,
    maxBytes: SEARCH_MAX_BYTES,
    accept: 'application/json',
    noun: 'search service',
  });
  try {
    return schema.parse(JSON.parse(response.body.toString('utf8')));
  } catch {
    throw new WeftError('tool-bad-answer', `The search service did not answer with ${what}.`, 502);
  }
}
