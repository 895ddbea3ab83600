// Build check: the JavaScript a first visit downloads (the entry chunk and every chunk it imports
// statically; lazy chunks excluded) must stay within the budget, gzipped. Prints the figure on
// every build and fails the build when it is over.
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export const FIRST_LOAD_BUDGET_BYTES = 250 * 1024;

interface ChunkLike {
  type: 'chunk';
  code: string;
  isEntry: boolean;
  imports: string[];
}

export function firstLoadBudget(budget = FIRST_LOAD_BUDGET_BYTES): Plugin {
  return {
    name: 'switchyard-first-load-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      let css = 0;
      for (const [file, item] of Object.entries(bundle)) {
        if (item.type === 'chunk') chunks.set(file, item);
        else if (file.endsWith('.css')) css += gzipSync(item.source).length;
      }
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const dep of chunks.get(file)?.imports ?? []) visit(dep);
      };
      for (const [file, chunk] of chunks) if (chunk.isEntry) visit(file);
      let raw = 0;
      let gzipped = 0;
      for (const file of seen) {
        const code = chunks.get(file)?.code ?? '';
        raw += Buffer.byteLength(code);
        gzipped += gzipSync(code, { level: 9 }).length;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(
        `[console] first-load JavaScript: ${kb(gzipped)} gzipped (${kb(raw)} raw, ${seen.size} chunk(s)); CSS ${kb(css)} gzipped; budget ${kb(budget)}`,
      );
      if (gzipped > budget) this.error(`first-load JavaScript ${kb(gzipped)} gzipped is over the ${kb(budget)} budget`);
    },
  };
}
