import type pg from 'pg';
import { IndexError } from './index-error.ts';
import type { MachineIdentity } from './machine-identity.ts';

/**
 * The machine as a push records it: a person's role pushes as the person the server knows it by
 * (`weft_current_person()`, pg migration 006, whose policies refuse any other name), and only a machine that is
 * not another person's (the first person who pushes a machine claims it); the admin, who is no person, pushes as
 * the machine's own `WEFT_PERSON` or OS user.
 */
export async function withConnectedPerson(client: pg.ClientBase, machine: MachineIdentity): Promise<MachineIdentity> {
  const { person, claimed } = (
    await client.query<{ person: string | null; claimed: string | null }>(
      'SELECT weft_current_person() AS person, (SELECT person FROM machines WHERE machine = $1) AS claimed',
      [machine.id],
    )
  ).rows[0]!;
  if (!person) return machine;
  // Said plainly here: the policies would refuse it as a row-level security violation.
  if (claimed !== null && claimed !== person)
    throw new IndexError(
      'bad-person',
      `this machine (${machine.name}) is ${claimed}'s on the team index: ${person}'s role may not push it`,
    );
  return { ...machine, person };
}
