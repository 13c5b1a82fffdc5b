import { addRateLimitField } from '../ratelimit/graphql-field.ts';
import { builder } from './builder.ts';
import './types/pet.ts';
import './types/category.ts';
import './types/order.ts';
import './types/inventory.ts';

addRateLimitField(builder);

export const schema = builder.toSchema({ sortSchema: true });
