import { builder } from '../builder.ts';

export const idArg = builder.args((t) => ({ id: t.field({ type: 'Int64', required: true }) }));
export const petIdArg = builder.args((t) => ({ petId: t.field({ type: 'Int64', required: true }) }));
