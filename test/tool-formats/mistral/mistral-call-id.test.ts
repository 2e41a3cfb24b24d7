import { describe, expect, it } from 'vitest';
import { isMistralCallId, mistralCallId } from '../../../tool-formats/mistral/mistral-call-id.js';

describe('mistralCallId', () => {
  it('keeps an id that already has the Mistral form', () => {
    expect(mistralCallId('aB3dE5gH7')).toBe('aB3dE5gH7');
  });

  it('derives 9 alphanumerics from any other id, the same every time', () => {
    for (const id of ['call_1', 'call_abcdef0123456789abcdef01', 'functions.get_weather:0', '', 'ünïcödé 🎉', 'aB3dE5gH7x']) {
      const derived = mistralCallId(id);
      expect(isMistralCallId(derived), `${id} → ${derived}`).toBe(true);
      expect(mistralCallId(id)).toBe(derived);
      // Idempotent, so history written from derived ids stays the same.
      expect(mistralCallId(derived)).toBe(derived);
    }
  });

  it('gives different ids to different calls', () => {
    const derived = new Set(Array.from({ length: 2000 }, (_, index) => mistralCallId(`call_${index}`)));
    expect(derived.size).toBe(2000);
  });
});
