import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../protocol/index.ts';

/** Characters per token for the receipt's estimate (a plain, stated rule, not a tokenizer). */
const CHARACTERS_PER_TOKEN = 4;
const OPENING_LENGTH = 80;

export interface ReceiptSource {
  role: string;
  opening: string;
  images: number;
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** Per message: its role and the first line (up to 80 characters) of its text. */
export function receiptSources(prompt: LanguageModelV3Prompt): ReceiptSource[] {
  return prompt.map((message) => {
    const text = messageText(message);
    const firstLine = text.trim().split(/\r?\n/, 1)[0] ?? '';
    const opening = firstLine.length > OPENING_LENGTH ? firstLine.slice(0, OPENING_LENGTH - 1) + '…' : firstLine;
    const images =
      typeof message.content === 'string' ? 0 : message.content.filter((part) => part.type === 'file').length;
    return { role: message.role, opening, images };
  });
}

function messageText(message: LanguageModelV3Prompt[number]): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The receipt as text: what the model would have received, stated plainly. */
export function formatReceipt(prompt: LanguageModelV3Prompt, requestHash: string | null): string {
  const totalText = prompt.map(messageText).join('\n');
  const sources = receiptSources(prompt);
  const lines = [
    'Offline receipt: no model was called. This is what a model would have received.',
    '',
    `Messages: ${prompt.length}`,
    `Token estimate: ~${estimateTokens(totalText)} (about ${CHARACTERS_PER_TOKEN} characters per token)`,
    `Request hash: ${requestHash ?? 'not provided'}`,
    '',
    'Sources, in order:',
    ...sources.map((source, index) => {
      const images = source.images ? ` (+${source.images} image${source.images === 1 ? '' : 's'})` : '';
      return `${index + 1}. ${source.role}: ${source.opening ? `"${source.opening}"` : '(no text)'}${images}`;
    }),
  ];
  return lines.join('\n');
}

function usageOf(prompt: LanguageModelV3Prompt, text: string): LanguageModelV3Usage {
  const input = estimateTokens(prompt.map(messageText).join('\n'));
  const output = estimateTokens(text);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function chunksOf(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks;
}

export interface ReceiptModelOptions {
  /** The hash the server computed over the canonical request it is answering. */
  requestHash?: string | null;
  /** Characters per streamed chunk. */
  chunkSize?: number;
}

/**
 * `offline/receipt` (C12): a real AI SDK language model that calls nothing and answers with a
 * receipt of what it received. It makes every workflow usable on a fresh machine.
 */
export class ReceiptModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'offline';
  readonly modelId = 'receipt';
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly requestHash: string | null;
  private readonly chunkSize: number;

  constructor(options: ReceiptModelOptions = {}) {
    this.requestHash = options.requestHash ?? null;
    this.chunkSize = options.chunkSize ?? 24;
  }

  get id(): string {
    return OFFLINE_RECEIPT_MODEL_ID;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    options.abortSignal?.throwIfAborted();
    const text = formatReceipt(options.prompt, this.requestHash);
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usageOf(options.prompt, text),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    options.abortSignal?.throwIfAborted();
    const text = formatReceipt(options.prompt, this.requestHash);
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', modelId: OFFLINE_RECEIPT_MODEL_ID },
      { type: 'text-start', id: 'receipt' },
      ...chunksOf(text, this.chunkSize).map((delta): LanguageModelV3StreamPart => ({
        type: 'text-delta',
        id: 'receipt',
        delta,
      })),
      { type: 'text-end', id: 'receipt' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageOf(options.prompt, text) },
    ];
    let index = 0;
    const signal = options.abortSignal;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason ?? new DOMException('Aborted', 'AbortError'));
          return;
        }
        const part = parts[index++];
        if (part) controller.enqueue(part);
        else controller.close();
      },
    });
    return { stream };
  }
}
