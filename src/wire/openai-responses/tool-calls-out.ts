import type { ResponsesStreamEvent } from './stream.js';
import type { ToolNames } from './tools.js';
import type { CustomToolCallItem, FunctionCallItem, OutputItem } from './wire.js';

/**
 * The way back of tools.ts: a function call the upstream made under a flat chat name becomes the
 * client's own call: `function_call` with its `namespace`, or `custom_tool_call` with the raw
 * `input`, in answers and in stream events (event for event, so sequence numbers stay whole).
 */

/** The raw input of a freeform call from the arguments `{"input": …}` the upstream wrote. */
function customInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && 'input' in parsed) {
      const input = parsed.input;
      return typeof input === 'string' ? input : JSON.stringify(input);
    }
  } catch {
    // Arguments that are not JSON: the model wrote the input itself.
  }
  return args;
}

export function restoreItem(item: OutputItem, names: ToolNames): OutputItem {
  if (item.type !== 'function_call') return item;
  const origin = names.get(item.name);
  if (origin === undefined) return item;
  if (origin.custom) {
    const out: CustomToolCallItem = {
      type: 'custom_tool_call',
      id: item.id,
      call_id: item.call_id,
      name: origin.name,
      input: customInput(item.arguments),
    };
    if (origin.namespace !== undefined) out.namespace = origin.namespace;
    return out;
  }
  const out: FunctionCallItem = { ...item, name: origin.name };
  if (origin.namespace !== undefined) out.namespace = origin.namespace;
  return out;
}

/** Restores the calls in a batch of stream events; `custom` keeps the item ids of freeform calls seen. */
export function restoreEvents(
  events: readonly ResponsesStreamEvent[],
  names: ToolNames,
  custom: Set<string>,
): readonly ResponsesStreamEvent[] {
  if (names.size === 0) return events; // nothing to restore: the encoder's fresh array as it is
  return events.map((event) => {
    const item = event.item as OutputItem | undefined;
    if (item !== undefined && item.type === 'function_call') {
      const restored = restoreItem(item, names);
      if (restored.type === 'custom_tool_call') custom.add(restored.id);
      return { ...event, item: restored };
    }
    const response = event.response as { output?: OutputItem[] } | undefined;
    if (response?.output !== undefined)
      return { ...event, response: { ...response, output: response.output.map((i) => restoreItem(i, names)) } };
    const itemId = typeof event.item_id === 'string' ? event.item_id : '';
    if (!custom.has(itemId)) return event;
    // A freeform call's input arrives whole at its end: the deltas carry nothing before it.
    if (event.type === 'response.function_call_arguments.delta')
      return {
        type: 'response.custom_tool_call_input.delta',
        sequence_number: event.sequence_number,
        item_id: itemId,
        output_index: event.output_index,
        delta: '',
      };
    if (event.type === 'response.function_call_arguments.done')
      return {
        type: 'response.custom_tool_call_input.done',
        sequence_number: event.sequence_number,
        item_id: itemId,
        output_index: event.output_index,
        input: customInput(typeof event.arguments === 'string' ? event.arguments : ''),
      };
    return event;
  });
}
