/** Type helpers for the contract tests between a wire schema and the TypeScript type derived from it. */

/** The keys a type declares, without its index signature (request bodies admit unknown fields). */
type DeclaredKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** The declared keys a value of the type must have: what the schema's `required` should list. */
export type RequiredKeys<T> = { [K in DeclaredKeys<T>]-?: object extends Pick<T, K> ? never : K }[DeclaredKeys<T>];
