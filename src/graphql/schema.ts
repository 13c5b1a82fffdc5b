import { builder } from './builder.ts';
import './types/pet.ts';
import './types/category.ts';
import './types/order.ts';
import './types/inventory.ts';
import './types/rate-limit.ts';
import './types/keys.ts';
import './types/subscriptions.ts';

export const schema = builder.toSchema({ sortSchema: true });
