import type { Db } from '../db/client.ts';
import { createCategory } from './categories.ts';
import { setStock } from './inventory.ts';
import { createPet } from './pets.ts';

const CATALOGUE = [
  {
    category: { name: 'Dogs', description: 'Loyal companions' },
    pets: [
      { name: 'Rex', stock: 3 },
      { name: 'Bella', stock: 1 },
      { name: 'Fido', stock: 0, status: 'sold' as const },
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
    pets: [{ name: 'Tweety', stock: 4, status: 'pending' as const }],
  },
];

/** Fills an empty store with a small catalogue, so that a first start shows data at once. */
export async function seedDemoCatalogue(prisma: Db): Promise<boolean> {
  if ((await prisma.category.count()) > 0 || (await prisma.pet.count()) > 0) return false;
  for (const { category, pets } of CATALOGUE) {
    const { id: categoryId } = await createCategory(prisma, category);
    for (const { name, stock, ...rest } of pets) {
      const pet = await createPet(prisma, {
        name,
        categoryId,
        status: 'status' in rest ? rest.status : undefined,
      });
      await setStock(prisma, pet.id, stock);
    }
  }
  return true;
}
