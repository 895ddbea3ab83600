import type { CompletionRequestBody } from '../../canonical/index.js';
import type { Codec } from '../codec.js';
import { openAiWire } from '../openai-chat/inbound.js';

/** `POST /completions` (legacy completions): OpenAI's wire format, as chat's. */
export const completionsCodec: Codec<'completion', CompletionRequestBody> = {
  ...openAiWire,
  decode: (body) => ({ kind: 'completion', body }),
};
