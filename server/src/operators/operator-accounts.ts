import type { Database } from '../db/open-database';
import { recordOperatorAction } from './audit-log-rows';
import { disableOperator, listOperators } from './operator-rows';

// What the operator command does besides inviting (enrolment.ts): list the operators, disable one.

export interface OperatorListing {
  email: string;
  state: 'invited' | 'enrolled' | 'disabled';
  createdAt: Date;
}

export async function operatorListing(db: Database): Promise<OperatorListing[]> {
  return (await listOperators(db)).map((row) => ({
    email: row.email,
    state: row.disabledAt ? 'disabled' : row.enrolledAt ? 'enrolled' : 'invited',
    createdAt: row.createdAt,
  }));
}

/** Disables an operator and ends their sessions at once; false when no operator has that email. */
export async function disableOperatorByEmail(db: Database, email: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const id = await disableOperator(tx, email.trim().toLowerCase());
    if (!id) return false;
    await recordOperatorAction(tx, {
      operatorId: id,
      action: 'operator.disable',
      objectType: 'operator',
      objectId: id,
      note: 'by the operator command',
    });
    return true;
  });
}
