import type { ImportedConversation, ImportedMessage } from './imported-conversation.ts';

/** One reply: a run of assistant messages (a tool loop is several) ending where the person spoke again or nothing followed. */
export interface PlannedReply {
  text: string;
  at: number | null;
  model: string | null;
  /** The person's messages that followed this reply (more than one: they edited their next message). */
  continuations: ImportedMessage[];
  /** Whether the export's current branch runs through this reply. */
  onCurrentBranch: boolean;
}

/** One question node to be: the person's message, the replies kept as its versions, and the questions below it. */
export interface PlannedQuestion {
  message: ImportedMessage;
  /** In time order; each becomes a version. */
  replies: PlannedReply[];
  /** The reply shown as the node's current version, or null when the message got none. */
  current: PlannedReply | null;
  children: PlannedQuestion[];
}

/**
 * The tree of question nodes for a conversation. The person's messages become questions; the replies to one
 * message become its versions (regenerations), except a non-current regeneration the conversation went on from:
 * that one gets its own question node beside the first, so each branch below compiles against the reply it
 * actually followed. An edited message is a sibling message under the same parent, hence a sibling node: a branch.
 */
export function planConversation(conversation: ImportedConversation): PlannedQuestion[] {
  const known = new Set(conversation.messages.map((message) => message.id));
  const children = new Map<string | null, ImportedMessage[]>();
  for (const message of conversation.messages) {
    const parent = message.parentId !== null && known.has(message.parentId) ? message.parentId : null;
    const list = children.get(parent);
    if (list) list.push(message);
    else children.set(parent, [message]);
  }
  for (const list of children.values()) list.sort(byTime);
  const onCurrent = currentBranch(conversation);
  const childrenOf = (id: string | null) => children.get(id) ?? [];

  function repliesTo(user: ImportedMessage): PlannedReply[] {
    const replies: PlannedReply[] = [];
    // Iterative walk: a long tool loop must not grow the call stack.
    const stack: { message: ImportedMessage; texts: string[]; current: boolean; model: string | null }[] = childrenOf(
      user.id,
    )
      .filter((message) => message.role === 'assistant')
      .reverse()
      .map((message) => ({ message, texts: [], current: false, model: null }));
    while (stack.length > 0) {
      const { message, texts, current, model } = stack.pop()!;
      const joined = message.text ? [...texts, message.text] : texts;
      const isCurrent = current || onCurrent.has(message.id);
      const below = childrenOf(message.id);
      const users = below.filter((next) => next.role === 'user');
      const assistants = below.filter((next) => next.role === 'assistant');
      if (users.length > 0 || assistants.length === 0) {
        replies.push({
          text: joined.join('\n\n'),
          at: message.at,
          model: message.model ?? model,
          continuations: users,
          onCurrentBranch: isCurrent,
        });
      }
      for (const next of [...assistants].reverse())
        stack.push({ message: next, texts: joined, current: isCurrent, model: message.model ?? model });
    }
    return replies.sort(byTime);
  }

  function planQuestion(user: ImportedMessage): PlannedQuestion[] {
    const replies = repliesTo(user);
    const followers = childrenOf(user.id).filter((message) => message.role === 'user');
    const current = replies.find((reply) => reply.onCurrentBranch) ?? replies[replies.length - 1] ?? null;
    const kept = replies.filter((reply) => reply === current || reply.continuations.length === 0);
    const own = [...(current?.continuations ?? []), ...followers].sort(byTime);
    const node: PlannedQuestion = { message: user, replies: kept, current, children: own.flatMap(planQuestion) };
    const branches = replies
      .filter((reply) => reply !== current && reply.continuations.length > 0)
      .map((reply): PlannedQuestion => ({
        message: user,
        replies: [reply],
        current: reply,
        children: reply.continuations.flatMap(planQuestion),
      }));
    return [node, ...branches];
  }

  /** A reply before the first question (a greeting) has no question to hang on: the questions after it become roots. */
  function questionsUnder(message: ImportedMessage): PlannedQuestion[] {
    if (message.role === 'user') return planQuestion(message);
    return childrenOf(message.id).flatMap(questionsUnder);
  }

  return childrenOf(null).flatMap(questionsUnder);
}

/** The ids from the current leaf up to the top, following parents. */
function currentBranch(conversation: ImportedConversation): Set<string> {
  const parents = new Map(conversation.messages.map((message) => [message.id, message.parentId]));
  const ids = new Set<string>();
  let id: string | null = conversation.currentLeafId;
  while (id !== null && parents.has(id) && !ids.has(id)) {
    ids.add(id);
    id = parents.get(id) ?? null;
  }
  return ids;
}

function byTime(a: { at: number | null }, b: { at: number | null }): number {
  return (a.at ?? 0) - (b.at ?? 0);
}
