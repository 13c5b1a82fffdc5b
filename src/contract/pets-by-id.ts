// GET /pets/{petId} and the GraphQL field `pet(id:)` are deprecated in favour of the list filtered by ids. This
// module is the one home of that rule: GraphQL, REST and the OpenAPI document ask it what it means.
import { apiError } from './errors.ts';

export interface Deprecation {
  deprecatedAt: Date;
  sunsetAt: Date;
}

/** The dates are configuration; these defaults are what the committed schema.graphql shows. */
export const DEFAULT_PETS_BY_ID_DEPRECATION: Deprecation = {
  deprecatedAt: new Date('2026-07-01T00:00:00Z'),
  sunsetAt: new Date('2027-07-01T00:00:00Z'),
};

const SUCCESSOR = '/pets?ids={petId}';

/** What the headers of GET /pets/{petId} mean, for the OpenAPI document (`Successor` is sent as `Link`). */
export const PETS_BY_ID_HEADERS = {
  Deprecation: 'RFC 9745: `@<Unix seconds>` of the date this operation was deprecated.',
  Sunset: 'RFC 8594: HTTP-date after which this operation answers 410.',
  Successor: `\`<${SUCCESSOR}>; rel="successor-version"\`: the operation to use instead.`,
};

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The deprecation of pet by id on the given dates; `now` is the clock that decides whether the sunset has
 * passed (tests set it). The reason names the dates only, so the printed schema does not change with the clock.
 */
export function petsByIdDeprecation({ deprecatedAt, sunsetAt }: Deprecation, now: () => number = Date.now) {
  const reason = `Deprecated since ${day(deprecatedAt)}; from its sunset on ${day(sunsetAt)} it answers ENDPOINT_SUNSET (410). Use pets(ids: [id]) instead (REST: GET ${SUCCESSOR}).`;
  const deprecation = `@${Math.floor(deprecatedAt.getTime() / 1000)}`;
  const sunset = sunsetAt.toUTCString();
  const isSunset = () => now() >= sunsetAt.getTime();
  return {
    /** The GraphQL field's deprecation reason. */
    reason,

    /** Whether the sunset has passed: the operation then answers 410 ENDPOINT_SUNSET. */
    isSunset,

    /**
     * Changes when passing the sunset changes answers without the store changing (pet(id:), GET /pets/{petId}):
     * caches of answers (entity tags, the response cache) count it as a change.
     */
    epoch: () => Number(isSunset()),

    /** The error both APIs answer after the sunset: REST runs pet(id:), which throws it. */
    sunsetError: () => apiError('endpointSunset', { sunset }),

    /** On every response of GET /pets/{petId}, errors included: RFC 9745, RFC 8594 and the successor. */
    headers: (petId: bigint): Record<string, string> => ({
      Deprecation: deprecation,
      Sunset: sunset,
      Link: `<${SUCCESSOR.replace('{petId}', String(petId))}>; rel="successor-version"`,
    }),

    /** The fields of the OpenAPI operation object that say so. */
    openApi: {
      deprecated: true,
      'x-sunset': sunsetAt.toISOString(),
      description:
        `${reason} Every response carries ` +
        'the `Deprecation`, `Sunset` and `Link: <…>; rel="successor-version"` headers.',
    },
  } as const;
}

export type PetsByIdDeprecation = ReturnType<typeof petsByIdDeprecation>;
