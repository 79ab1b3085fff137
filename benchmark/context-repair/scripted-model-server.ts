import { startScriptedProvider, type ScriptedReply } from '../../tests/support/index.ts';
import { scriptedAnswer, SCRIPTED_MODEL_NAMES, type PlainMessage, type ScriptedModelName } from './scripted-models.ts';

/**
 * Serves the scripted models as an OpenAI-compatible chat-completions endpoint on 127.0.0.1 (the shared test
 * provider, answering from each request's messages), so a scripted run goes through the real provider path
 * (AI SDK client, HTTP, SSE) exactly like a real model's.
 */
export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** Chat requests answered (failures served instead of an answer are not counted). */
  requestCount(): number;
  close(): Promise<void>;
}

interface ChatBody {
  model?: unknown;
  messages?: { role?: unknown; content?: unknown }[];
}

function plainMessages(body: ChatBody): PlainMessage[] {
  return (body.messages ?? []).map((message) => ({
    role: String(message.role),
    text:
      typeof message.content === 'string'
        ? message.content
        : Array.isArray(message.content)
          ? (message.content as { type?: string; text?: string }[])
              .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
              .join('\n')
          : '',
  }));
}

/** A scripted failure served instead of an answer: an HTTP error with headers, or a dropped connection. */
export type ScriptedFailure = { status: number; headers?: Record<string, string> } | { drop: true };

/**
 * `failures` are served, in order, to the first chat requests (one each) before any answer: a 429 with
 * Retry-After, a 503, a dropped connection — so the retry path is tested over real HTTP.
 */
export async function startScriptedModelServer(
  options: { failures?: readonly ScriptedFailure[] } = {},
): Promise<ScriptedModelServer> {
  let count = 0;
  const provider = await startScriptedProvider();
  provider.script(
    ...(options.failures ?? []).map((failure): ScriptedReply =>
      'drop' in failure
        ? { drop: true }
        : {
            status: failure.status,
            errorMessage: `scripted HTTP ${failure.status}`,
            ...(failure.headers ? { headers: failure.headers } : {}),
          },
    ),
  );
  provider.replyFor = (raw) => {
    if (typeof raw !== 'object' || raw === null) return { status: 400, errorMessage: 'the body is not JSON' };
    const body = raw as ChatBody;
    const model = String(body.model);
    if (!SCRIPTED_MODEL_NAMES.includes(model as ScriptedModelName))
      return { status: 404, errorMessage: `no scripted model "${model}"`, errorCode: 'model_not_found' };
    count += 1;
    const text = scriptedAnswer(model as ScriptedModelName, plainMessages(body));
    return { text, usage: { input: Math.ceil(JSON.stringify(body).length / 4), output: 1 } };
  };
  return {
    baseUrl: `${provider.url}/v1`,
    requestCount: () => count,
    close: () => provider.close(),
  };
}
