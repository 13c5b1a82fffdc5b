// GET /pets/{petId} and the GraphQL field `pet(id:)` are deprecated in favour of the list filtered by ids.
// The dates are configuration; these defaults are what the committed schema.graphql shows.
export interface Deprecation {
  deprecatedAt: Date;
  sunsetAt: Date;
}

export const DEFAULT_PETS_BY_ID_DEPRECATION: Deprecation = {
  deprecatedAt: new Date('2026-07-01T00:00:00Z'),
  sunsetAt: new Date('2027-07-01T00:00:00Z'),
};

export function petsByIdReason({ deprecatedAt, sunsetAt }: Deprecation): string {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return `Deprecated since ${day(deprecatedAt)}; sunset on ${day(sunsetAt)}. Use pets(ids: [id]) instead (REST: GET /pets?ids={petId}).`;
}
