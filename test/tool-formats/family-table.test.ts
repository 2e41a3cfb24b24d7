/** The family table covers every registered family, and every case file belongs to one. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../tool-formats/index.js';
import { familyCaseFiles } from './helpers/family-table.js';

describe('the family table', () => {
  const registered = [...createToolFormatRegistry().keys()].sort();

  it('has a case file for every registered family, and none for a family that is not registered', () => {
    expect([...familyCaseFiles().keys()].sort()).toEqual(registered);
  });

  it('has a renderings file for every registered family (written by testFamilyTable, so each family runs the table)', () => {
    const missing = registered.filter((family) => !existsSync(new URL(`./renderings/${family}.md`, import.meta.url)));
    expect(missing).toEqual([]);
  });
});
