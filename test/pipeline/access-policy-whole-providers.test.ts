/** AccessPolicy's precompiled `provider/*` fast path: the same verdict as testing every glob, for any glob list and model. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import { AccessPolicy, wholeProviderOf } from '../../src/pipeline/access-policy.js';

type ClientKey = ConstructorParameters<typeof AccessPolicy>[0];

const policyFor = (models: string[] | undefined) => new AccessPolicy({ key: 'k', name: 'team-a', models } as ClientKey);
const modelOf = (provider: string, model: string) => ({ id: `${provider}/${model}`, provider, model }) as ResolvedModel;

/** What checkModel answers: true when allowed, false on its 403. */
function checks(policy: AccessPolicy, model: ResolvedModel): boolean {
  try {
    policy.checkModel(model);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe('model_not_allowed');
    return false;
  }
}

describe('wholeProviderOf', () => {
  it('names the provider of a `provider/*` glob and nothing else', () => {
    expect(wholeProviderOf('local/*')).toBe('local');
    expect(wholeProviderOf('a/b/*')).toBe('a/b');
    expect(wholeProviderOf('local/gpt-*')).toBeUndefined();
    expect(wholeProviderOf('lo*/*')).toBeUndefined();
    expect(wholeProviderOf('l?cal/*')).toBeUndefined();
    expect(wholeProviderOf('/*')).toBeUndefined();
    expect(wholeProviderOf('*')).toBeUndefined();
    expect(wholeProviderOf('local/model')).toBeUndefined();
  });
});

describe('AccessPolicy.checkModel', () => {
  it('precompiles the providers its globs allow whole', () => {
    expect([...policyFor(['local/*', 'cloud/gpt-*', 'other/*']).wholeProviders]).toEqual(['local', 'other']);
    expect(policyFor(undefined).wholeProviders.size).toBe(0);
  });

  it('allows a whole provider, and still refuses one a `/`-named provider glob does not cover', () => {
    const policy = policyFor(['a/*']);
    expect(checks(policy, modelOf('a', 'anything'))).toBe(true);
    // `a/*` is `^a/.*$`: it covers provider `a/b` too, through the full test.
    expect(checks(policy, modelOf('a/b', 'm'))).toBe(true);
    expect(checks(policy, modelOf('ab', 'm'))).toBe(false);
  });

  it('gives the verdict of the globs themselves, for any globs and model', () => {
    const segment = fc.string({ unit: fc.constantFrom('a', 'b', '/', '*', '?', '-'), maxLength: 5 });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), segment, segment, (globs, provider, model) => {
        const policy = policyFor(globs);
        expect(checks(policy, modelOf(provider, model))).toBe(policy.allowsModel(`${provider}/${model}`));
      }),
    );
  });
});
