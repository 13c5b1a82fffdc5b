import { BREAK, type DocumentNode, visit } from 'graphql';

/**
 * Whether a document names a field of a set anywhere, looked through once per document object (Yoga's parse
 * cache and the REST routes hand the same object for the same text): stages that concern a few fields (scopes,
 * federation's representations) then pass every other operation at once. `reset` with a new schema's names.
 */
export function fieldMentions() {
  let names = new Set<string>();
  let seen = new WeakMap<DocumentNode, boolean>();
  return {
    reset(fieldNames: Set<string>) {
      names = fieldNames;
      seen = new WeakMap();
    },
    in(document: DocumentNode): boolean {
      let found = seen.get(document);
      if (found === undefined) {
        found = false;
        visit(document, {
          Field(node) {
            if (!names.has(node.name.value)) return;
            found = true;
            return BREAK;
          },
        });
        seen.set(document, found);
      }
      return found;
    },
  };
}
