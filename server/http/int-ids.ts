/**
 * Ids of the tables with integer keys (users, subscriptions, invoices, cards, add-ons) are
 * PostgreSQL `integer`: a number above 2³¹−1 in a query fails ("out of range for type integer",
 * a 500 in security review N11). Routes check ids with this before any query.
 */
export const INT4_MAX = 2_147_483_647;

/** True for a whole number from 1 to INT4_MAX. */
export const isInt4Id = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= INT4_MAX;

/** The field's message for an id out of that range. */
export const int4IdProblem = (name: string) => `${name}: must be a whole number from 1 to ${INT4_MAX}`;
