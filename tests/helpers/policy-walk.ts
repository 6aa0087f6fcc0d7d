/**
 * The walk every policy test makes (decision 016): every reading of an area's reads table by every way an account
 * can stand to a row. Each relation names the policy role it is (null: none, so nothing is granted); `sees` asks
 * the real read. The lines come back as expected and actual, for one `toEqual` that shows every difference.
 */
export async function walkReads<Relation extends string, Read extends string>(spec: {
  relations: Record<Relation, string | null>;
  reads: Record<Read, readonly string[]>;
  sees: (read: Read, relation: Relation) => Promise<boolean>;
}): Promise<{ expected: string[]; actual: string[] }> {
  const expected: string[] = [];
  const actual: string[] = [];
  const line = (relation: string, read: string, allowed: boolean) => `${relation} ${read}: ${allowed ? "allowed" : "refused"}`;
  for (const relation of Object.keys(spec.relations) as Relation[]) {
    const role = spec.relations[relation];
    for (const read of Object.keys(spec.reads) as Read[]) {
      expected.push(line(relation, read, role !== null && spec.reads[read].includes(role)));
      actual.push(line(relation, read, await spec.sees(read, relation)));
    }
  }
  return { expected, actual };
}

/** Whether a read found the row: true when it answers, false when it says "not found"; anything else is thrown on. */
export function found(read: Promise<unknown>): Promise<boolean> {
  return read.then(
    () => true,
    (err: unknown) => {
      if ((err as { kind?: string }).kind === "not_found") return false;
      throw err;
    },
  );
}
