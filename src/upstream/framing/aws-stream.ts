import type { AwsEventMessage, UpstreamAwsEventParser } from './aws-eventstream.js';
import { ItemStream, type FrameReader } from './item-stream.js';

/** The subset of UpstreamResponse an event-stream reader uses. */
export interface AwsEventSource {
  chunks(): AsyncIterable<Buffer>;
  awsEventParser(): UpstreamAwsEventParser;
}

/** One dialect's reading of an AWS event stream: one message in, at most one item out (and `more`). */
export type AwsStreamReader<T> = FrameReader<AwsEventMessage, T>;

/**
 * The items of an upstream event-stream body (`ItemStream` over the body's own message parser,
 * which paces the idle timer by messages): Bedrock's ConverseStream and
 * InvokeModelWithResponseStream read through it.
 */
export class AwsItemStream<T> extends ItemStream<AwsEventMessage, T> {
  constructor(res: AwsEventSource, reader: AwsStreamReader<T>) {
    super(res.awsEventParser(), res.chunks(), reader);
  }
}
