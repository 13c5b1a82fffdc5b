import { z } from 'zod';
import { DEFAULT_PETS_BY_ID_DEPRECATION } from '../contract/pets-by-id.ts';
import { instant, wholeNumber } from './values.ts';

/** The REST adapter's body limit, and the dates of GET /pets/{petId}'s deprecation (pet(id:) follows them). */
export const restPart = z
  .object({
    REST_MAX_BODY_BYTES: wholeNumber({ min: 1, unit: 'bytes' }).default(64 * 1024),
    PETS_BY_ID_DEPRECATED_AT: instant.default(DEFAULT_PETS_BY_ID_DEPRECATION.deprecatedAt),
    PETS_BY_ID_SUNSET_AT: instant.default(DEFAULT_PETS_BY_ID_DEPRECATION.sunsetAt),
  })
  .refine((env) => env.PETS_BY_ID_SUNSET_AT >= env.PETS_BY_ID_DEPRECATED_AT, {
    path: ['PETS_BY_ID_SUNSET_AT'],
    message: 'must not be earlier than PETS_BY_ID_DEPRECATED_AT',
  })
  .transform((env) => ({
    restMaxBodyBytes: env.REST_MAX_BODY_BYTES,
    petsByIdDeprecation: { deprecatedAt: env.PETS_BY_ID_DEPRECATED_AT, sunsetAt: env.PETS_BY_ID_SUNSET_AT },
  }));
