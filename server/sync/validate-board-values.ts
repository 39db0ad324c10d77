import { attributeProblems, checkValue, type AttributeLike } from '../../schema/attributes';
import { validation } from '../http/errors';
import type { SaveContext } from './rules';
import { boardRecords } from './store';

/**
 * The server's copy of the app's attribute and value checks (schema/attributes.ts), so a client
 * that skips them (an old build, a script) cannot store what the app would refuse. Called once per
 * saved record after authorisation (a refused user learns 403, not what the board holds).
 * Messages are the spec's texts, unprefixed, so the 422 toast reads as the inline error does.
 */
export async function validateBoardRecord(ctx: SaveContext): Promise<void> {
  if (ctx.def.name === 'attribute') return checkAttribute(ctx);
  if (ctx.def.name === 'value') return checkValueRecord(ctx);
}

async function checkAttribute({ scope, record }: SaveContext): Promise<void> {
  // Only attribute saves pay for this read; they are rare next to value and item saves.
  const others = await boardRecords(scope.trx, scope.team.id, String(record.board_id), 'attribute');
  const problems = attributeProblems(record as unknown as AttributeLike, others.map((o) => o.data as unknown as AttributeLike));
  if (problems.length) throw validation(problems);
}

function checkValueRecord({ record, refs }: SaveContext): void {
  const attribute = refs.get('attribute_id');
  if (!attribute) return; // loadReferences already refused a missing attribute
  const checked = checkValue(attribute.data as unknown as AttributeLike, record.value);
  if (!checked.ok) throw validation([checked.message]);
  record.value = checked.value; // stored normalised: "3,5" → 3.5, a bare host → https://…
}
