import { describe, expect, it } from 'vitest';
import { usageLevel, usageRate } from '../../src/screens/billing/billing-api';
import { isUpgradable, limitsOf, pricesOf, topPlan, type PlanRow } from '../../server/billing/plans';

/** The usage bars' levels (workspace.md §4, §9: warning from 80 %, full at 100 %) and the catalogue rules. */
describe('billing usage levels', () => {
  it('is ok at 79 %, a warning at 80 %, full at 100 % and past it', () => {
    expect(usageLevel(79, 100)).toBe('ok');
    expect(usageLevel(80, 100)).toBe('warning');
    expect(usageLevel(99, 100)).toBe('warning');
    expect(usageLevel(100, 100)).toBe('full');
    expect(usageLevel(130, 100)).toBe('full');
    expect(usageLevel(0, 0)).toBe('ok');
    expect(usageLevel(1, 0)).toBe('full');
    expect(usageRate(50, 200)).toBe(0.25);
    expect(usageRate(300, 200)).toBe(1);
  });
});

const plan = (id: string, version: number, level: number, tier: number, extra: Partial<PlanRow> = {}): PlanRow =>
  ({ id, name: id, version, level, tier, prices: [], limits: {}, is_upgradable: true, archived: false, position: 0, ...extra }) as PlanRow;

describe('plan catalogue rules', () => {
  it('is upgradable only when flagged and a higher level or tier exists in the same version', () => {
    const catalogue = [plan('free', 8, 0, 0), plan('pro', 8, 1, 0), plan('pro-plus', 8, 1, 1), plan('old-top', 7, 5, 0), plan('gone', 8, 9, 0, { archived: true })];
    expect(isUpgradable(catalogue[0]!, catalogue)).toBe(true);
    expect(isUpgradable(catalogue[1]!, catalogue)).toBe(true); // pro-plus: same level, higher tier
    expect(isUpgradable(catalogue[2]!, catalogue)).toBe(false); // only an archived plan and another version are higher
    expect(isUpgradable(plan('pro', 8, 1, 0, { is_upgradable: false }), catalogue)).toBe(false);
    expect(topPlan(catalogue)?.id).toBe('pro-plus');
  });

  it('reads older stored shapes leniently', () => {
    expect(pricesOf({ month: 10, year: 96 }, 'pro')).toEqual([
      { id: 'pro-month-usd', interval: 'month', currency: 'USD', amount: 1000 },
      { id: 'pro-year-usd', interval: 'year', currency: 'USD', amount: 9600 },
    ]);
    expect(limitsOf({ workspaces: 2 })).toEqual({ workspaces: 2, members: 0, storage: 0, AutomationRunsLimit: 100, WhitelabelLimit: 0, proViews: false });
  });
});
