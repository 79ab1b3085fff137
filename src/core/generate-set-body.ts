import type { GenerateImage, GenerateSetRequest } from '../../protocol/index.ts';
import { requestContext } from './context-hash.ts';
import type { SetRequests } from './set-requests.ts';

/**
 * Issue 31: the body of `POST /api/generate-set` for one ask of a set: its one context (messages and tools, taken
 * from the first dispatch — every dispatch carries the same by construction), its context hash, and per dispatch the
 * model, sample, temperature and request hash, in the ask's order (the stream's `index` is the position here).
 */
export function generateSetBody(
  requests: Pick<SetRequests, 'contextHash' | 'dispatches'>,
  images: GenerateImage[],
  target?: GenerateSetRequest['target'],
): GenerateSetRequest {
  const first = requests.dispatches[0];
  if (!first) throw new RangeError('a set asks at least one answer');
  return {
    context: requestContext(first.request),
    contextHash: requests.contextHash,
    images,
    ...(target ? { target } : {}),
    dispatches: requests.dispatches.map((dispatch) => ({
      model: dispatch.request.model,
      sample: dispatch.setAnswer.sample,
      ...(dispatch.request.temperature !== undefined ? { temperature: dispatch.request.temperature } : {}),
      requestHash: dispatch.requestHash,
    })),
  };
}
