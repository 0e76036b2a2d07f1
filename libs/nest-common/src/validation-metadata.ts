import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];

const cached = new WeakSet<Storage>();

/**
 * Remembers class-validator's answer to "which rules apply to this class". Unremembered, every
 * validation (each body, query and path of each request, each NATS message) walks every class that has
 * rules with `instanceof` to find the inherited ones: 2.4% of the gateway's CPU under load. The rules are
 * declared by decorators when the DTO modules load; any rule added later (a schema, a decorator run late)
 * empties the memory, so the answers are always those class-validator would give. Done once per process
 * (the storage is class-validator's global one, shared by every copy of the package).
 */
export function rememberValidationMetadata(): void {
  const storage = getMetadataStorage();
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  let answers = new Map<Parameters<Lookup>[0], Map<string, ReturnType<Lookup>>>();
  const forget =
    <A extends unknown[]>(add: (...args: A) => void) =>
    (...args: A): void => {
      answers = new Map();
      add(...args);
    };
  storage.addValidationMetadata = forget(storage.addValidationMetadata.bind(storage));
  storage.addValidationSchema = forget(storage.addValidationSchema.bind(storage));
  storage.addConstraintMetadata = forget(storage.addConstraintMetadata.bind(storage));
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let byKey = answers.get(target);
    if (!byKey) answers.set(target, (byKey = new Map()));
    let found = byKey.get(key);
    if (!found) byKey.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
}
