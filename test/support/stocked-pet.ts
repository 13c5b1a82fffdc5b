import type { Db } from '../../src/db/client.ts';

/** A new pet, in a category of its own, with `quantity` in stock, written straight to the store; answers its id. */
export async function stockedPet(prisma: Db, quantity: number, name = 'Stocked'): Promise<number> {
  const category = await prisma.category.create({ data: { name: `${name}'s category` } });
  const pet = await prisma.pet.create({
    data: { name, categoryId: category.id, inventory: { create: { quantity } } },
  });
  return Number(pet.id);
}
