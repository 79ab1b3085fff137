/** What a tool's execution gives back: the model sees `text` (bounded), Weft also keeps how it ended. */
export interface ToolOutcome {
  status: 'ok' | 'error';
  code: string | null;
  text: string;
}

export function isToolOutcome(value: unknown): value is ToolOutcome {
  const outcome = value as Partial<ToolOutcome> | null;
  return typeof outcome?.text === 'string' && (outcome.status === 'ok' || outcome.status === 'error');
}
