/**
 * The runnable examples of a Markdown guide: its fenced ```sh and ```ts blocks, in order. An HTML
 * comment on the line just before a fence directs the doc-test runner:
 *   <!-- doc-test: skip (why) -->         not run (e.g. needs Docker)
 *   <!-- doc-test: expect /regex/flags --> the block's stdout must match
 * and one anywhere in the guide:
 *   <!-- doc-test: needs postgres -->     the runner exports DATABASE_URL (a fresh database)
 *   <!-- doc-test: server-env K=V -->     the guide's server starts with this environment variable
 *   <!-- doc-test: server-config FILE -->  the server's SWITCHYARD_CONFIG is a copy of FILE, exported
 *                                          to the blocks as SWITCHYARD_CONFIG (they may edit it)
 */
export type BlockLanguage = 'sh' | 'ts';

export interface GuideBlock {
  language: BlockLanguage;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  skip: string | null;
  expect: RegExp | null;
}

export interface Guide {
  blocks: GuideBlock[];
  needsPostgres: boolean;
  serverEnv: Record<string, string>;
  serverConfig: string | null;
}

const DIRECTIVE = /^<!--\s*doc-test:\s*(.*?)\s*-->$/;

function expectation(text: string, line: number): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (m === null) throw new Error(`line ${line}: expect needs /regex/flags, got ${text}`);
  return new RegExp(m[1] ?? '', m[2]);
}

export function parseGuide(markdown: string): Guide {
  const lines = markdown.split('\n');
  const guide: Guide = { blocks: [], needsPostgres: false, serverEnv: {}, serverConfig: null };
  let pending: { skip: string | null; expect: RegExp | null } = { skip: null, expect: null };
  for (let i = 0; i < lines.length; i += 1) {
    const text = (lines[i] ?? '').trim();
    const directive = DIRECTIVE.exec(text);
    if (directive !== null) {
      const body = directive[1] ?? '';
      if (body === 'needs postgres') guide.needsPostgres = true;
      else if (body.startsWith('server-config ')) guide.serverConfig = body.slice('server-config '.length).trim();
      else if (body.startsWith('server-env ')) {
        const [name, ...value] = body.slice('server-env '.length).split('=');
        guide.serverEnv[name ?? ''] = value.join('=');
      } else if (body.startsWith('skip')) pending.skip = body.slice(4).trim() || 'skipped';
      else if (body.startsWith('expect ')) pending.expect = expectation(body.slice(7).trim(), i + 1);
      else throw new Error(`line ${i + 1}: unknown doc-test directive "${body}"`);
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(text);
    if (fence === null) {
      if (text !== '') pending = { skip: null, expect: null };
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && (lines[i] ?? '').trim() !== '```'; i += 1) body.push(lines[i] ?? '');
    const language = fence[1];
    if (language === 'sh' || language === 'ts')
      guide.blocks.push({ language, code: body.join('\n'), line: start + 1, ...pending });
    pending = { skip: null, expect: null };
  }
  return guide;
}
