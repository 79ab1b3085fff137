import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface SyntheticExportOptions {
  /** Stop adding conversations once the file is at least this large. */
  targetBytes: number;
  /** Question–answer turns per conversation. */
  turns?: number;
  /** Characters per reply. */
  replyCharacters?: number;
}

/**
 * Writes a ChatGPT-shaped `conversations.json` of about `targetBytes` (the fixture's structure: a root without a
 * message, a hidden system message, then user and assistant messages; every fifth turn regenerated, so branches are
 * exercised too). Written as it goes, so the generator itself never holds the file.
 */
export async function writeSyntheticChatgptExport(
  path: string,
  options: SyntheticExportOptions,
): Promise<{ bytes: number; conversations: number }> {
  const turns = options.turns ?? 12;
  const replyCharacters = options.replyCharacters ?? 1500;
  const stream = createWriteStream(path);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!stream.write(text)) await once(stream, 'drain');
  };
  const filler = 'The quick brown fox considers the lazy dog’s argument and finds it sound. ';
  const reply = (seed: number) => {
    const start = seed % filler.length;
    return (filler.slice(start) + filler.repeat(Math.ceil(replyCharacters / filler.length) + 1)).slice(
      0,
      replyCharacters,
    );
  };
  await write('[');
  let conversations = 0;
  while (bytes < options.targetBytes) {
    const id = `conv-${conversations}`;
    const base = 1_700_000_000 + conversations * 3600;
    const mapping: Record<string, unknown> = {
      root: { id: 'root', message: null, parent: null, children: ['system'] },
    };
    const message = (nodeId: string, role: string, text: string, time: number, parent: string, children: string[]) => {
      mapping[nodeId] = {
        id: nodeId,
        parent,
        children,
        message: {
          id: nodeId,
          author: { role, name: null, metadata: {} },
          create_time: time,
          update_time: null,
          content: { content_type: 'text', parts: [text] },
          status: 'finished_successfully',
          end_turn: role === 'assistant' ? true : null,
          weight: role === 'system' ? 0 : 1,
          metadata:
            role === 'system'
              ? { is_visually_hidden_from_conversation: true }
              : { model_slug: 'gpt-4o', request_id: nodeId },
          recipient: 'all',
          channel: null,
        },
      };
    };
    message('system', 'system', '', base, 'root', ['u0']);
    let parent = 'system';
    let leaf = '';
    for (let turn = 0; turn < turns; turn += 1) {
      const user = `u${turn}`;
      const answer = `a${turn}`;
      const regenerated = turn % 5 === 4;
      const next = turn + 1 < turns ? [`u${turn + 1}`] : [];
      message(
        user,
        'user',
        `Question ${turn} of conversation ${conversations}: what follows from the last answer?`,
        base + turn * 60,
        parent,
        regenerated ? [`${answer}x`, answer] : [answer],
      );
      if (regenerated) message(`${answer}x`, 'assistant', reply(turn + 7), base + turn * 60 + 10, user, []);
      message(answer, 'assistant', reply(turn), base + turn * 60 + 30, user, next);
      parent = answer;
      leaf = answer;
    }
    const conversation = {
      title: `Synthetic conversation ${conversations}`,
      create_time: base,
      update_time: base + turns * 60,
      mapping,
      moderation_results: [],
      current_node: leaf,
      conversation_id: id,
      default_model_slug: 'gpt-4o',
      id,
    };
    await write((conversations === 0 ? '\n' : ',\n') + JSON.stringify(conversation, null, 1));
    conversations += 1;
  }
  await write('\n]\n');
  stream.end();
  await once(stream, 'finish');
  return { bytes, conversations };
}
