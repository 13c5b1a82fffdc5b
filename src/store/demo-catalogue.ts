import type { Database } from '../db/client.ts';
import type { PetStatus } from '../generated/sqlite/client.ts';

const CATALOGUE: {
  category: { name: string; description: string };
  pets: { name: string; stock: number; status?: PetStatus }[];
}[] = [
  {
    category: { name: 'Dogs', description: 'Loyal companions' },
    pets: [
      { name: 'Rex', stock: 3 },
      { name: 'Bella', stock: 1 },
      { name: 'Fido', stock: 0, status: 'sold' },
    ],
  },
  {
    category: { name: 'Cats', description: 'Independent spirits' },
    pets: [
      { name: 'Tom', stock: 2 },
      { name: 'Luna', stock: 5 },
    ],
  },
  {
    category: { name: 'Birds', description: 'Feathered friends' },
    pets: [{ name: 'Tweety', stock: 4, status: 'pending' }],
  },
];

/**
 * The catalogue as a fresh store numbers it (ids from 1, in the order seeded), for the examples of the API
 * documents: a test holds them to what the seeded store answers.
 */
export const DEMO_CATEGORIES = CATALOGUE.map(({ category }, index) => ({ id: index + 1, ...category }));
export const DEMO_PETS = CATALOGUE.flatMap(({ pets }, index) =>
  pets.map(({ name, status = 'available' }) => ({ name, categoryId: index + 1, status })),
).map((pet, index) => ({ id: index + 1, ...pet }));
export const DEMO_STOCK = CATALOGUE.flatMap(({ pets }) => pets.map(({ stock }) => stock));

// Taken on PostgreSQL by the transaction that seeds, so that gateways starting together on an empty store
// seed it once: the others wait, then find it filled. (SQLite's transactions take the write lock as they begin.)
const SEED_LOCK_ID = 72707370;

/** Fills an empty store with a small catalogue, so that a first start shows data at once. */
export async function seedDemoCatalogue({ prisma, target }: Database): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    if (target.provider === 'postgresql')
      await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(${SEED_LOCK_ID})`;
    if ((await tx.category.count()) > 0 || (await tx.pet.count()) > 0) return false;
    for (const { category, pets } of CATALOGUE) {
      const create = pets.map(({ name, stock, status = 'available' }) => ({
        name,
        status,
        inventory: { create: { quantity: stock } },
      }));
      await tx.category.create({ data: { ...category, pets: { create } } });
    }
    return true;
  });
}
