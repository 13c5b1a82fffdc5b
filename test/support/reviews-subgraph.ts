import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';

export interface Review {
  id: string;
  stars: number;
  body: string;
  petId: number;
  /** The order the reviewer placed, when the review is of a purchase. */
  orderId?: number;
}

/**
 * A second subgraph, as another team would write it with Apollo's own library: reviews of the gateway's pets,
 * some of them of an order. It adds `reviews` to the gateway's `Pet` entity and refers to `Pet` and `Order` by
 * their keys, so that a router goes back to the gateway for everything else.
 */
export const REVIEWS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

  scalar Int64

  type Review {
    id: ID!
    stars: Int!
    body: String!
    pet: Pet!
    order: Order
  }

  type Pet @key(fields: "id") {
    id: Int64!
    reviews: [Review!]!
  }

  type Order @key(fields: "id", resolvable: false) {
    id: Int64!
  }

  type Query {
    reviews: [Review!]!
  }
`;

/** The reviews subgraph over HTTP on a free loopback port; `received` holds every operation it was sent. */
export async function startReviewsSubgraph(reviews: readonly Review[]) {
  const received: string[] = [];
  const schema = buildSubgraphSchema({
    typeDefs: parse(REVIEWS_SDL),
    resolvers: {
      Query: { reviews: () => reviews },
      Review: {
        pet: (review: Review) => ({ __typename: 'Pet', id: review.petId }),
        order: (review: Review) =>
          review.orderId === undefined ? null : { __typename: 'Order', id: review.orderId },
      },
      Pet: {
        __resolveReference: (pet: { id: number | string }) => ({ id: pet.id }),
        reviews: (pet: { id: number | string }) =>
          reviews.filter((review) => review.petId === Number(pet.id)),
      },
    },
  });
  const yoga = createYoga({
    schema,
    logging: false,
    maskedErrors: false,
    plugins: [{ onParams: ({ params }) => void received.push(params.query ?? '') }],
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
