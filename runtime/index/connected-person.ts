import type pg from 'pg';
import type { MachineIdentity } from './machine-identity.ts';

/**
 * The machine as a push records it: a person's role pushes as the person the server knows it by
 * (`weft_current_person()`, pg migration 006, whose policies refuse any other name); the admin, who is no person,
 * as the machine's own `WEFT_PERSON` or OS user.
 */
export async function withConnectedPerson(client: pg.ClientBase, machine: MachineIdentity): Promise<MachineIdentity> {
  const person = (await client.query<{ person: string | null }>('SELECT weft_current_person() AS person')).rows[0]
    ?.person;
  return person ? { ...machine, person } : machine;
}
