import express, { type Router } from 'express';
import { RubricCheckRequestSchema } from '../../protocol/index.ts';
import { judgeRubric, type JudgeModel } from '../../runtime/models/index.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/** The configured decision model (C13), or null when none is set or it cannot be resolved. */
async function decisionModel(context: ServerContext): Promise<JudgeModel | null> {
  const { judgeModelId } = await context.settings.read();
  if (!judgeModelId) return null;
  try {
    return { id: judgeModelId, model: await context.registry.resolve(judgeModelId) };
  } catch {
    return null;
  }
}

/**
 * `POST /api/checks/rubric` (issue 31): an answer judged against a rubric by the decision model. The server builds
 * the request itself (core's `rubricRequest`), so the hash it returns and logs is of what it sent.
 */
export function rubricCheckRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/checks/rubric', jsonBody(4 * 1024 * 1024), async (request, response) => {
    const body = validateBody(RubricCheckRequestSchema, request.body);
    const answer = await judgeRubric(await decisionModel(context), body, context.hash);
    // Metadata only: never the question's, the answer's or the reason's words.
    context.logger.info('rubric-check', {
      model: answer.model,
      requestHash: answer.requestHash,
      verdict: answer.verdict,
    });
    response.json(answer);
  });
  return router;
}
