import { Type, type TSchema } from '@sinclair/typebox';

/** `schema` or JSON null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
