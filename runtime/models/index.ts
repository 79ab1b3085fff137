// runtime/models: providers through the AI SDK, the offline receipt model, streaming answers, the judge.
export { ModelRegistry, splitModelId } from './model-registry.ts';
export type { ModelRegistryOptions } from './model-registry.ts';
export { ReceiptModel, formatReceipt, receiptSources, estimateTokens } from './receipt-model.ts';
export type { ReceiptModelOptions, ReceiptSource } from './receipt-model.ts';
export { KNOWN_MODELS, DEFAULT_CONTEXT_WINDOW, describeCustomModel } from './known-models.ts';
export type { KnownModel } from './known-models.ts';
export { createLanguageModel } from './create-language-model.ts';
export { createOllamaNativeModel } from './ollama-native-model.ts';
export { mergeProviders, isUsable, ENVIRONMENT_KEYS, currentKeyOrigin, environmentKeyFor } from './provider-config.ts';
export type { BoundKey } from './provider-config.ts';
export type { ProviderConfig } from './provider-config.ts';
export { detectOllamaModels, DEFAULT_OLLAMA_URL } from './ollama-detect.ts';
export { toModelMessages } from './to-model-messages.ts';
export { streamAnswer } from './stream-answer.ts';
export type { StreamAnswerOptions } from './stream-answer.ts';
export { mapProviderError, redactSecrets } from './provider-errors.ts';
export type { ProviderFailure } from './provider-errors.ts';
export {
  DecisionJudge,
  fallbackProbabilities,
  parseJudgeAnswer,
  judgePrompt,
  JUDGE_TIMEOUT_MS,
  JUDGE_COOLDOWN_MS,
} from './decision-judge.ts';
export type { DecisionJudgeOptions, JudgeModel } from './decision-judge.ts';
export { writePlaque, plaquePrompt, PLAQUE_TIMEOUT_MS } from './plaque-writer.ts';
export type { PlaqueModel, PlaqueOutcome } from './plaque-writer.ts';
export { judgeRubric, RUBRIC_TIMEOUT_MS } from './rubric-judge.ts';
