/**
 * The `model` of every inbound request body. Its length is bounded because the names a client sends are
 * remembered (the model-family, price and reservation memos hold about a thousand names each): unbounded,
 * a client could fill each with names megabytes long. 512 characters is far above any real one
 * (`provider/org/repository:quantisation` names run under 150).
 */
export const modelNameMaximumLength = 512;

export const modelNameSchema = { type: 'string', minLength: 1, maxLength: modelNameMaximumLength } as const;
