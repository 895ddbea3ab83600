export { startFakeUpstream, type FakeUpstream, type RecordedRequest } from './server.js';
export {
  parseBehaviour,
  NORMAL,
  FAKE_PIECES,
  FAKE_TEXT,
  FAKE_USAGE,
  FAKE_CACHE,
  FAKE_TOOL_ARGS,
  FAKE_CREATED,
  type FakeBehaviour,
} from './behaviour.js';
export { FAKE_EMBEDDING_DIMENSIONS, FAKE_EMBEDDING_TOKENS_PER_INPUT, fakeEmbedding } from './embeddings-wire.js';
