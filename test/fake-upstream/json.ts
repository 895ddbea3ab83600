export type Json = Record<string, unknown>;
