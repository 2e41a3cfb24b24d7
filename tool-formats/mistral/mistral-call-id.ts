/** Mistral call ids: exactly 9 alphanumerics, as mistral-common's validator requires. */
// A model-given id already has that form and is kept; any other id (the gateway's `call_…`) is hashed
// into one, so the same conversation always renders the same ids and a result finds its call's id.
// @see https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/protocol/instruct/validator.py

const idLength = 9;
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const mistralIdShape = /^[A-Za-z0-9]{9}$/;

const fnvOffset = 0xcbf29ce484222325n;
const fnvPrime = 0x100000001b3n;
const sixtyFourBits = (1n << 64n) - 1n;

export function isMistralCallId(id: string): boolean {
  return mistralIdShape.test(id);
}

export function mistralCallId(id: string): string {
  if (isMistralCallId(id)) return id;
  // FNV-1a over the UTF-16 code units, 64 bits: 62^9 ids leave collisions out of reach for one conversation.
  let hash = fnvOffset;
  for (let index = 0; index < id.length; index++) hash = ((hash ^ BigInt(id.charCodeAt(index))) * fnvPrime) & sixtyFourBits;
  let digits = '';
  for (let index = 0; index < idLength; index++) {
    digits += alphabet.charAt(Number(hash % 62n));
    hash /= 62n;
  }
  return digits;
}
