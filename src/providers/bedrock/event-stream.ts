import { DEFAULT_MAX_EVENT_BYTES, protocolError, type UpstreamResponse } from '../../upstream/index.js';
import {
  decodeAwsEventStream,
  EventStreamError,
  type AwsEventMessage,
} from '../../upstream/framing/aws-eventstream.js';

/**
 * The messages of a Bedrock event-stream answer; a malformed, oversized or cut stream is the
 * upstream's protocol error (the gateway's usual 502, or an error chunk once streaming).
 */
export async function* bedrockMessages(res: UpstreamResponse, providerId: string): AsyncGenerator<AwsEventMessage> {
  try {
    yield* decodeAwsEventStream(res.chunks(), { maxEventBytes: DEFAULT_MAX_EVENT_BYTES });
  } catch (error) {
    if (error instanceof EventStreamError)
      throw protocolError(providerId, `Provider sent a bad event stream: ${error.reason}`, error);
    throw error;
  }
}
