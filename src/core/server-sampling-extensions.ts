/**
 * Request fields that vLLM, SGLang and llama-server take beside OpenAI's own on their OpenAI-compatible
 * endpoints (sampling, decoding and template switches). Routes pass them on in `openaiExtras`; the
 * `openai-compatible` kind forwards them, and OpenAI itself, which rejects unknown fields, is not sent them.
 */
// vLLM: vllm/entrypoints/openai/chat_completion/protocol.py (ChatCompletionRequest's "extra parameters");
// llama-server: tools/server/server-task.cpp (params_from_json_cmpl); SGLang: sglang/srt/entrypoints/openai/protocol.py.
const serverSamplingExtensions = [
  // Sampling.
  'top_k',
  'min_p',
  'typical_p',
  'top_n_sigma',
  'repetition_penalty',
  'repeat_penalty',
  'repeat_last_n',
  'length_penalty',
  'min_tokens',
  'ignore_eos',
  'stop_token_ids',
  'bad_words',
  'allowed_token_ids',
  'use_beam_search',
  'mirostat',
  'mirostat_tau',
  'mirostat_eta',
  'dynatemp_range',
  'dynatemp_exponent',
  'xtc_probability',
  'xtc_threshold',
  'dry_multiplier',
  'dry_base',
  'dry_allowed_length',
  'dry_penalty_last_n',
  'dry_sequence_breakers',
  'samplers',
  // Decoding of the reply's tokens into text.
  'skip_special_tokens',
  'spaces_between_special_tokens',
  'include_stop_str_in_output',
  'no_stop_trim',
  // Prompt and template.
  'add_generation_prompt',
  'continue_final_message',
  'add_special_tokens',
  'truncate_prompt_tokens',
  'cache_prompt',
  'n_keep',
  // Constrained decoding.
  'guided_json',
  'guided_regex',
  'guided_choice',
  'guided_grammar',
  'structured_outputs',
  'grammar',
  'json_schema',
] as const;

const extensionNames: ReadonlySet<string> = new Set(serverSamplingExtensions);

export function isServerSamplingExtension(name: string): boolean {
  return extensionNames.has(name);
}
