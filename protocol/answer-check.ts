import { z } from 'zod';

/** Issue 31: how many checks a question may carry, and the longest text a check's words may be. */
export const CHECKS_MAX = 20;
export const CHECK_TEXT_MAX = 2_000;
/** A regular expression check's pattern is at most this long (with the safe subset, the guard against runaway patterns). */
export const CHECK_PATTERN_MAX = 200;

const CheckId = z.string().min(1).max(200);
const CheckText = z.string().min(1).max(CHECK_TEXT_MAX);

/**
 * Issue 31: one check that scores every answer of a question. `contains` / `not-contains` compare text (ignoring case
 * unless `caseSensitive`); `regex` tests a pattern of the safe subset (`safe-pattern.ts`); `number` reads the answer's
 * final number (`answer-value.ts`) and passes within `tolerance`; `json` parses the answer (or its one fenced block)
 * against a JSON Schema subset (`json-schema-check.ts`); `rubric` is judged by the decision model.
 */
export const AnswerCheckSchema = z.discriminatedUnion('kind', [
  z.object({ id: CheckId, kind: z.literal('contains'), text: CheckText, caseSensitive: z.boolean().optional() }),
  z.object({ id: CheckId, kind: z.literal('not-contains'), text: CheckText, caseSensitive: z.boolean().optional() }),
  z.object({
    id: CheckId,
    kind: z.literal('regex'),
    pattern: z.string().min(1).max(CHECK_PATTERN_MAX),
    ignoreCase: z.boolean().optional(),
  }),
  z.object({
    id: CheckId,
    kind: z.literal('number'),
    value: z.number().finite(),
    tolerance: z.number().finite().nonnegative(),
  }),
  z.object({ id: CheckId, kind: z.literal('json'), schema: z.record(z.string(), z.unknown()) }),
  z.object({ id: CheckId, kind: z.literal('rubric'), rubric: CheckText }),
]);
export type AnswerCheck = z.infer<typeof AnswerCheckSchema>;
export type AnswerCheckKind = AnswerCheck['kind'];

/** A question's checks; optional on the node (absent means none), so no format bump. */
export const AnswerChecksSchema = z.array(AnswerCheckSchema).max(CHECKS_MAX);

/**
 * One check's result on one version, as its `check` event records it (metadata only, C10): passed, failed, or
 * `error` when it could not run (a pattern outside the safe subset, a judge that did not answer). `detail` is a
 * short machine-written note ("read 41.9", "missing required: name"). A rubric's event carries its verdict, the judge
 * and the hash of the judge's request only (C10: metadata, never content); the judge's reason is model-written text,
 * so it is kept with the version (`RubricNote`), which that hash names.
 */
export const CheckOutcomeSchema = z.enum(['pass', 'fail', 'error']);
export type CheckOutcome = z.infer<typeof CheckOutcomeSchema>;

/** `POST /api/checks/rubric`: one answer judged against one rubric by the configured decision model. */
export const RubricCheckRequestSchema = z.object({
  question: z.string().max(200_000),
  answer: z.string().max(1_000_000),
  rubric: CheckText,
});
export type RubricCheckRequest = z.infer<typeof RubricCheckRequestSchema>;

/**
 * The judge's verdict and its one-sentence reason, the judge and the hash of the request it was sent (built by
 * core's `rubricRequest`, recomputed here); `verdict: null` with a reason when no judge is set or it did not answer.
 */
export const RubricCheckResponseSchema = z.object({
  verdict: z.enum(['pass', 'fail']).nullable(),
  reason: z.string().max(500),
  model: z.string().nullable(),
  requestHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type RubricCheckResponse = z.infer<typeof RubricCheckResponseSchema>;

/**
 * Issue 31 / C10: the judge's reason for one rubric on one version, kept with the version (display only: never in
 * context, a request or a fingerprint). `requestHash` is the judge request's, as the rubric's `check` event names
 * it; null when no judge answered. `rubric` is the wording judged, so a reworded rubric is judged again.
 */
export const RubricNoteSchema = z.object({
  checkId: CheckId,
  /** The rubric as it read when judged: an edited rubric is judged again. */
  rubric: CheckText,
  reason: z.string().max(500),
  requestHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type RubricNote = z.infer<typeof RubricNoteSchema>;
