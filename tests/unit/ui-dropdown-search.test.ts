import { describe, expect, it } from 'vitest';
import { filterOptions, matchesOption, matchRank, normalize } from '../../src/ui/dropdown-search';

const options = [
  { label: 'Status' },
  { label: 'Due date', synonyms: ['deadline'] },
  { label: 'Project manager' },
  { label: 'Color', synonyms: ['colour', 'tint'] },
  { label: 'Estimated time' },
  { label: 'Café orders' },
];

const labels = (query: string) => filterOptions(options, query).map((o) => o.label);

describe('dropdown search', () => {
  it('matches a prefix of the whole label', () => {
    expect(labels('sta')).toEqual(['Status']);
    expect(labels('due d')).toEqual(['Due date']);
  });

  it('matches a prefix of any word', () => {
    expect(labels('date')).toEqual(['Due date']);
    expect(labels('man')).toEqual(['Project manager']);
  });

  it('does not match the middle of a word', () => {
    expect(labels('atus')).toEqual([]);
    expect(labels('anager')).toEqual([]);
  });

  it('matches synonyms by the same rules', () => {
    expect(labels('deadl')).toEqual(['Due date']);
    expect(labels('colou')).toEqual(['Color']);
    expect(labels('tin')).toEqual(['Color']);
  });

  it('ignores case and accents', () => {
    expect(labels('CAFE')).toEqual(['Café orders']);
    expect(normalize('Émile ')).toBe('emile');
  });

  it('matches several query words against words in order', () => {
    expect(labels('pro man')).toEqual(['Project manager']);
    expect(labels('man pro')).toEqual([]);
  });

  it('ranks whole-label prefixes before word prefixes before synonyms', () => {
    const ranked = filterOptions(
      [{ label: 'Time tracked', synonyms: [] }, { label: 'Estimated time' }, { label: 'Duration', synonyms: ['time spent'] }, { label: 'Timeline' }],
      'time',
    ).map((o) => o.label);
    expect(ranked).toEqual(['Time tracked', 'Timeline', 'Estimated time', 'Duration']);
  });

  it('returns everything for an empty query', () => {
    expect(labels('  ')).toHaveLength(options.length);
    expect(matchRank('', options[0])).toBe(0);
    expect(matchesOption('zzz', options[0])).toBe(false);
  });
});
