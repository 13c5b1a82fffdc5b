import type { Caller } from '../../contract/caller.ts';
import { found } from '../../contract/errors.ts';
import { grants } from '../../contract/scopes.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { cancelOrder, type OrderAccess, ordersWithin, placeOrder, updateOrder } from '../../store/orders.ts';
import { builder } from '../builder.ts';
import { findEntity, ID_KEY } from '../entities.ts';
import { listWhere } from '../list-where.ts';
import { paging } from '../paging.ts';
import { idArg } from './args.ts';

export const OrderType = builder.prismaObject('Order', {
  description: 'An order for an animal. Placing it takes its quantity from stock.',
  fields: (t) => ({
    id: t.expose('id', { type: 'Int64', description: 'Unique order identifier.' }),
    petId: t.expose('petId', {
      type: 'Int64',
      nullable: true,
      description: 'The animal ordered; null once a pet with completed orders has been deleted.',
    }),
    quantity: t.exposeInt('quantity', { description: 'Number of units ordered.' }),
    shipDate: t.expose('shipDate', {
      type: 'DateTime',
      nullable: true,
      description: 'Expected or actual ship date.',
    }),
    complete: t.exposeBoolean('complete', { description: 'Whether the order has been fulfilled (final).' }),
    pet: t.relation('pet', { nullable: true }),
  }),
});

/** An admin key reaches every order; another key those it placed; an anonymous caller none. */
export function orderAccessOf(caller: Caller): OrderAccess {
  if (caller.kind !== 'key') return 'none';
  return grants(caller.scopes, 'admin') ? 'all' : { apiKeyId: caller.keyId };
}

// By the rule of order(id): a key's own orders (any with the admin scope), none without a key; NOT_FOUND for the others.
builder.asEntity(OrderType, {
  key: ID_KEY,
  resolveReference: (reference, context, info) =>
    findEntity(
      context.prisma.order,
      'Order',
      reference,
      context,
      info,
      ordersWithin(orderAccessOf(context.caller)),
    ),
});

const OrderConnection = builder.connectionObject({ type: OrderType, name: 'OrderConnection' });

const NewOrderInput = builder.inputType('NewOrder', {
  description: 'An order to place.',
  fields: (t) => ({
    petId: t.field({ type: 'Int64', required: true }),
    quantity: t.int({ description: 'At least 1; defaults to 1.' }),
    shipDate: t.field({ type: 'DateTime' }),
  }),
});

const OrderPatchInput = builder.inputType('OrderPatch', {
  description: 'Changes to an order. `complete: true` is final.',
  fields: (t) => ({
    shipDate: t.field({ type: 'DateTime' }),
    complete: t.boolean(),
  }),
});

builder.queryFields((t) => ({
  order: t.prismaField({
    type: 'Order',
    nullable: true,
    description:
      'One order by id: one your key placed (any order with the admin scope); NOT_FOUND for the others.',
    args: idArg,
    // What it answers depends on the caller's key: the response cache never keeps it.
    callerDependent: true,
    resolve: (query, _root, { id }, { prisma, caller }) =>
      found(
        prisma.order.findFirst({ ...query, where: { id, ...ordersWithin(orderAccessOf(caller)) } }),
        'Order',
        id,
      ),
  }),
  orders: t.prismaConnection(
    {
      type: 'Order',
      cursor: 'id',
      ...paging,
      description:
        'The orders your key placed (every order with the admin scope; none without a key), in id order, optionally filtered.',
      args: { petId: t.arg({ type: 'Int64' }), complete: t.arg.boolean() },
      callerDependent: true,
      // The caller's own orders only (every order with the admin scope): part of the rule, so of every plan.
      listPlan: {
        cursor: 'id',
        where: (args, caller) => ({
          ...ordersWithin(orderAccessOf(caller)),
          petId: args.petId ?? undefined,
          complete: args.complete ?? undefined,
        }),
      },
      resolve: (query, _root, args, { prisma, caller }, info) =>
        prisma.order.findMany({
          ...query,
          orderBy: { id: 'asc' },
          where: listWhere<Prisma.OrderWhereInput>(info, args, caller),
        }),
    },
    OrderConnection,
  ),
}));

builder.mutationFields((t) => ({
  placeOrder: t.prismaField({
    type: 'Order',
    nullable: true,
    description:
      'Places an order, taking its quantity from stock; OUT_OF_STOCK when there is not enough. Limited per caller per minute: an operation whose placeOrder fields (aliases included) do not all fit is refused whole with RATE_LIMITED, before any is placed.',
    args: { input: t.arg({ type: NewOrderInput, required: true }) },
    scope: 'orders',
    fieldLimit: true,
    resolve: (query, _root, args, context) =>
      placeOrder(context, args.input, query, context.caller.kind === 'key' ? context.caller.keyId : null),
  }),
  updateOrder: t.prismaField({
    type: 'Order',
    nullable: true,
    description:
      'Changes the ship date or completes an order. Completion cannot be undone. Only your own orders (any with the admin scope).',
    args: { ...idArg, input: t.arg({ type: OrderPatchInput, required: true }) },
    scope: 'orders',
    resolve: (query, _root, { id, input }, context) =>
      updateOrder(context, id, input, query, orderAccessOf(context.caller)),
  }),
  cancelOrder: t.prismaField({
    type: 'Order',
    nullable: true,
    description:
      'Cancels an open order and gives its quantity back to stock; a complete order cannot be cancelled. Only your own orders (any with the admin scope).',
    args: idArg,
    scope: 'orders',
    resolve: (query, _root, { id }, context) =>
      cancelOrder(context, id, query, orderAccessOf(context.caller)),
  }),
}));
