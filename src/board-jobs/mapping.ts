import type { ColumnTarget, KindGuess } from '../../schema/csv-import';

/**
 * The mapping screen's first proposal: the name column → the item name; a column named like an
 * existing attribute of a kind an import can fill → that attribute; every other column → a new
 * attribute of the guessed kind. Pure (golden-file tested).
 */
export interface MappableAttribute {
  id: string;
  name: string;
  kind: string;
}

const FILLABLE = ['text', 'long-text', 'number', 'date', 'email', 'link', 'label', 'status', 'checkbox'];

export function proposeMapping(header: readonly string[], guesses: readonly KindGuess[], nameColumn: number, attributes: readonly MappableAttribute[]): ColumnTarget[] {
  const byName = new Map(attributes.filter((a) => FILLABLE.includes(a.kind)).map((a) => [a.name.trim().toLocaleLowerCase(), a]));
  const used = new Set<string>();
  return header.map((name, i): ColumnTarget => {
    if (i === nameColumn) return { to: 'name' };
    const guess = guesses[i] ?? { kind: 'text' };
    const existing = byName.get(name.trim().toLocaleLowerCase());
    if (existing && !used.has(existing.id)) {
      used.add(existing.id);
      return { to: 'existing', attribute_id: existing.id, ...(existing.kind === 'date' && guess.date_format ? { date_format: guess.date_format } : {}) };
    }
    return { to: 'new', name: name.trim().slice(0, 255) || `Column ${i + 1}`, kind: guess.kind, ...(guess.kind === 'date' && guess.date_format ? { date_format: guess.date_format } : {}) };
  });
}

/** Kinds an existing attribute must have to be offered for a column. */
export const fillableKinds = FILLABLE;
