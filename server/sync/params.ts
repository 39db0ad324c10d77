import { notFound } from '../http/errors';

/** A team id from the path: a positive integer, otherwise the address names nothing (404). */
export function teamIdParam(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw notFound();
  const id = Number(value);
  if (id <= 0 || id > 2_147_483_647) throw notFound();
  return id;
}
