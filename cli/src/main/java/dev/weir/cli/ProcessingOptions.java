package dev.weir.cli;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineLayout;
import picocli.CommandLine.Option;

/**
 * The durability, input-quality and threading flags of the commands that process a journal with durable outputs.
 * Picocli fills it; read-only after.
 */
final class ProcessingOptions
{
    @Option(names = "--dedupe", description = "ignore an event whose event_id was already seen (a producer's retry)")
    boolean dedupe;

    @Option(names = "--checkpoint-every", paramLabel = "EVENTS", defaultValue = "1000000",
        description = "events between checkpoints (default: ${DEFAULT-VALUE})")
    long checkpointEvery = 1_000_000;

    @Option(names = "--sync", description = "fsync the journal after ingest, and the events and outputs a checkpoint covers before it is written, "
        + "so they also survive a machine crash (costs an fsync each time)")
    boolean sync;

    @Option(names = "--layout", paramLabel = "FUSED|STAGED|INLINE",
        description = "how the stages map to threads: FUSED (a journal reader and one stage thread), STAGED (two stage threads), "
            + "INLINE (one thread) (default: FUSED for a bounded run, INLINE with --follow; see BENCHMARKS.md)")
    PipelineLayout layout;

    PipelineBuilder applyTo(final PipelineBuilder builder)
    {
        if (checkpointEvery <= 0)
        {
            throw new BadInputException("--checkpoint-every must be > 0: " + checkpointEvery);
        }
        final PipelineBuilder configured = builder.dedupe(dedupe).checkpointEvery(checkpointEvery).syncOnCheckpoint(sync);
        return layout == null ? configured : configured.layout(layout);
    }
}
