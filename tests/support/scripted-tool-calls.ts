/** One tool call a scripted reply ends in (OpenAI `tool_calls` / Anthropic `tool_use`). */
export interface ScriptedToolCall {
  /** Defaults to `call_<n>`. */
  id?: string;
  name: string;
  /** Sent as JSON text, in two pieces (as providers stream arguments); a string is sent as it is. */
  input: unknown;
}

interface WireToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

/** The reply's tool calls with their ids filled in and their arguments as the JSON text sent on the wire. */
export function toolCallsOf(reply: { toolCalls?: ScriptedToolCall[] }): WireToolCall[] {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    name: call.name,
    argumentsText: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
  }));
}

// Providers stream arguments in pieces; two are enough to exercise the client's reassembly.
function halves(text: string): string[] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/** OpenAI non-streamed: the message's `tool_calls` field. */
export function openaiToolCalls(calls: WireToolCall[]): object[] {
  return calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.argumentsText },
  }));
}

/** OpenAI streamed: the chunk deltas that open each call and then send its arguments in two pieces. */
export function openaiToolCallDeltas(calls: WireToolCall[]): object[] {
  return calls.flatMap((call, index) => [
    { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
    ...halves(call.argumentsText).map((piece) => ({ tool_calls: [{ index, function: { arguments: piece } }] })),
  ]);
}

/** Anthropic non-streamed: the message's `tool_use` content blocks. */
export function anthropicToolUseBlocks(calls: WireToolCall[]): object[] {
  return calls.map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: JSON.parse(call.argumentsText) as unknown,
  }));
}

/** Anthropic streamed: `[event, data]` pairs for each call's block, numbered from `firstIndex`. */
export function anthropicToolUseEvents(calls: WireToolCall[], firstIndex: number): [string, object][] {
  return calls.flatMap((call, position): [string, object][] => {
    const index = firstIndex + position;
    return [
      [
        'content_block_start',
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        },
      ],
      ...halves(call.argumentsText).map((piece): [string, object] => [
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
      ]),
      ['content_block_stop', { type: 'content_block_stop', index }],
    ];
  });
}
