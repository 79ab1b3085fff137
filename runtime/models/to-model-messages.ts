import type { ModelMessage } from 'ai';
import type { CanonicalRequest } from '../../protocol/index.ts';
import { WeftError } from '../../protocol/index.ts';

/**
 * The canonical request as AI SDK messages, exactly: texts in order, images as their bytes
 * (looked up by hash). Nothing is added or reordered, so the server's hash covers what is sent.
 */
export function toModelMessages(request: CanonicalRequest, images: ReadonlyMap<string, Uint8Array>): ModelMessage[] {
  return request.messages.map((message, index): ModelMessage => {
    if (message.role === 'system') {
      if (message.content.some((part) => part.type !== 'text')) {
        throw new WeftError('invalid-body', `Message ${index + 1} (system) may only hold text.`, 400);
      }
      return {
        role: 'system',
        content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n'),
      };
    }
    if (message.role === 'assistant') {
      if (message.content.some((part) => part.type !== 'text')) {
        throw new WeftError('invalid-body', `Message ${index + 1} (assistant) may only hold text.`, 400);
      }
      return {
        role: 'assistant',
        content: message.content.map((part) => ({
          type: 'text' as const,
          text: part.type === 'text' ? part.text : '',
        })),
      };
    }
    return {
      role: 'user',
      content: message.content.map((part) => {
        if (part.type === 'text') return { type: 'text' as const, text: part.text };
        const bytes = images.get(part.hash);
        if (!bytes)
          throw new WeftError(
            'image-missing',
            `Message ${index + 1} refers to image ${part.hash.slice(0, 12)}… but its bytes were not sent.`,
            400,
          );
        return { type: 'image' as const, image: bytes, mediaType: part.mediaType };
      }),
    };
  });
}
