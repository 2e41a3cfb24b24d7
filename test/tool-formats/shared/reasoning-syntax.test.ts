// Reasoning end matchers are built once per tag by the catalogue that owns them (no module-level cache).
import { describe, expect, it } from 'vitest';
import { familySpecs } from '../../../tool-formats/index.js';
import { createEnvelopeCatalogue } from '../../../tool-formats/shared/envelope-catalogue.js';
import { thinkTag } from '../../../tool-formats/shared/envelope.js';
import { createReasoningSyntaxes } from '../../../tool-formats/shared/reasoning-syntax.js';

describe('createReasoningSyntaxes', () => {
  it('gives one syntax per tag, matching its close tag and endsBefore markers', () => {
    const syntaxOf = createReasoningSyntaxes();
    const tag = { open: '<t>', close: '</t>', endsBefore: ['<call>'] };
    expect(syntaxOf(tag)).toBe(syntaxOf(tag));
    expect(syntaxOf(tag).ends.find('a</t>', 0)).toMatchObject({ type: 'found', index: 1, value: 'close' });
    expect(syntaxOf(tag).ends.find('a<call>', 0)).toMatchObject({ type: 'found', index: 1, value: 'before' });
  });

  it('keeps its syntaxes to itself: two catalogues build their own', () => {
    expect(createReasoningSyntaxes()(thinkTag)).not.toBe(createReasoningSyntaxes()(thinkTag));
  });
});

describe('the catalogue', () => {
  it('shares one reasoning syntax for a tag between its families', () => {
    const catalogue = createEnvelopeCatalogue(familySpecs);
    expect(catalogue.syntaxFor('hermes').reasoning).toBe(catalogue.syntaxFor('llama3').reasoning);
    expect(catalogue.syntaxFor('hermes').reasoning).toBe(catalogue.reasoningSyntaxFor('llama3').reasoning);
    expect(catalogue.syntaxFor('hermes').reasoning.tag).toBe(thinkTag);
  });
});
