import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

type LogArgs = Parameters<FastifyBaseLogger['info']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerFactory = Parameters<FastifyInstance['setChildLoggerFactory']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * A request's logger that makes its child of the app's logger on the first line written through
 * it. Fastify makes a child logger for every request (its bindings carry the request id); an
 * accepted model call writes nothing through it (its one line, the call-log line, goes through
 * the app's logger when the call settles), so on the model-call routes the child, whose
 * construction serialises the bindings and copies the logger's state, is made only for a request
 * that logs: a refused call's line, an error. Every line is written by the same child with the
 * same bindings and options as before, so its content is unchanged.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  info(...args: LogArgs): void {
    write(this.logger, 'info', args);
  }

  error(...args: LogArgs): void {
    write(this.logger, 'error', args);
  }

  warn(...args: LogArgs): void {
    write(this.logger, 'warn', args);
  }

  debug(...args: LogArgs): void {
    write(this.logger, 'debug', args);
  }

  trace(...args: LogArgs): void {
    write(this.logger, 'trace', args);
  }

  fatal(...args: LogArgs): void {
    write(this.logger, 'fatal', args);
  }

  silent(...args: LogArgs): void {
    write(this.logger, 'silent', args);
  }
}

function write(
  logger: FastifyBaseLogger,
  level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal' | 'silent',
  args: LogArgs,
): void {
  // The log methods are overloaded: the arguments are forwarded as they came.
  Reflect.apply(logger[level], logger, args);
}

/** Give to `setChildLoggerFactory` of a scope whose requests seldom log (the model-call routes). */
export const lazyChildLogger: ChildLoggerFactory = (logger, bindings, options) =>
  new LazyRequestLogger(logger, bindings, options);
