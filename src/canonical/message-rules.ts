import { errors } from '../errors/index.js';
import type { ChatMessage } from './messages.js';
import type { ChatMessageBody } from './request-schema.js';

/**
 * Role-specific message rules the schema cannot say; each failure is a 400 naming the message.
 * Past them, a validated body's messages are canonical chat messages.
 */
export function checkMessages(messages: ChatMessageBody[]): asserts messages is ChatMessage[] {
  messages.forEach((m, i) => {
    const field = `messages[${i}]`;
    if (m.role !== 'assistant' && (m.content === undefined || m.content === null)) {
      throw errors.invalidRequest(`${field}.content is required for role ${m.role}`, { field: `${field}.content` });
    }
    if (m.role === 'tool' && m.tool_call_id === undefined) {
      throw errors.invalidRequest(`${field}.tool_call_id is required for role tool`, {
        field: `${field}.tool_call_id`,
      });
    }
    if (
      m.role === 'assistant' &&
      (m.content === undefined || m.content === null) &&
      (m.tool_calls?.length ?? 0) === 0
    ) {
      throw errors.invalidRequest(`${field} needs content or tool_calls`, { field: `${field}.content` });
    }
    if (m.tool_calls !== undefined && m.role !== 'assistant') {
      throw errors.invalidRequest(`${field}.tool_calls is only allowed on assistant messages`, {
        field: `${field}.tool_calls`,
      });
    }
  });
}
