import type { CallKind } from '../../canonical/index.js';
import { chatStrategy } from './chat.js';
import { completionStrategy } from './completion.js';
import { embeddingsStrategy } from './embeddings.js';
import type { KindStrategy } from './strategy.js';

export type { KindStrategy, BodyOf, BodyTexts } from './strategy.js';

/** The strategy of every call kind. */
export const STRATEGIES: { [K in CallKind]: KindStrategy<K> } = {
  chat: chatStrategy,
  completion: completionStrategy,
  embeddings: embeddingsStrategy,
};
