/**
 * Weir's public API, what an embedding application uses: {@link dev.weir.engine.Weir#pipeline()} starts a
 * {@link dev.weir.engine.PipelineBuilder}, whose {@code conclude()} gives an immutable
 * {@link dev.weir.engine.PipelineConfiguration} (validated once), from which a
 * {@link dev.weir.engine.Pipeline} is built, run to the journal's end or followed, and summarised in a
 * {@link dev.weir.engine.RunSummary}. Package-private here: the assembly of one run's stages
 * ({@code RunStages}), its threads and ring ({@code Wiring}), and the in-process producer.
 * <p>
 * The stages' flow, one package each: journal ({@code dev.weir.journal}) &rarr; {@code source} (journal
 * into ring, evaluating the pipeline's filter and value expression from {@code expr}) &rarr;
 * {@code operator} (window assignment and aggregation, over {@code window}, {@code time}, {@code state},
 * {@code aggregate}) &rarr; {@code emit} (results and late events to the output journal
 * and listeners) &rarr; {@code checkpoint} (state and offsets, atomically with the outputs); {@code stage}
 * adapts them to the Disruptor, {@code metrics} publishes their counters. {@code source}, {@code operator},
 * {@code state}, {@code checkpoint} and {@code stage} are internal: Java-public for the engine's own packages and the
 * benchmarks only, never used by another module; the others are public API. Where another module needs an internal
 * rule, a class here gives it ({@code EarlyRows}).
 * <p>
 * Threading: a pipeline is configured, started and stopped by one thread; its listeners are called on
 * the last stage's thread. Depends on every engine package; only {@code status} depends on it (on
 * {@code Recovery}'s rule for the next run).
 */
package dev.weir.engine;
