/** Where GraphQL (and GraphiQL) is served; every other path belongs to the REST adapter. */
export const GRAPHQL_ENDPOINT = '/graphql';

/** Operations one batched request may hold; Yoga refuses a longer batch whole, before running any of it. */
export const MAX_BATCH_SIZE = 10;

/**
 * The one test of "is this a GraphQL request", shared by the rate-limit layer and the REST adapter so that they
 * cannot disagree. Yoga serves its endpoint with or without a trailing slash.
 */
export const isGraphQLPath = (pathname: string) =>
  pathname === GRAPHQL_ENDPOINT || pathname === `${GRAPHQL_ENDPOINT}/`;
