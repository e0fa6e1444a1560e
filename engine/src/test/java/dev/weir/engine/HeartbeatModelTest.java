package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import dev.weir.engine.model.GeneratedCase;
import dev.weir.engine.model.Heartbeats;
import dev.weir.engine.model.ModelOutput;
import dev.weir.engine.model.ReferenceModel;
import dev.weir.engine.model.StreamGenerator;
import dev.weir.engine.model.StreamReducer;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.support.EngineRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine against the brute-force {@link ReferenceModel} on seeded streams with heartbeats sprinkled in
 * ({@link Heartbeats}): a heartbeat moves the watermark as an event of its time would, and nothing else.
 * Through the two stages directly, and through whole pipelines reading heartbeats from the journal (the
 * four-field path, the whole-event path of other key columns, key tuples). The number of streams per
 * window kind is {@code -Dweir.model.streams} (1,000 by default).
 */
@Tag("slow")
class HeartbeatModelTest
{
    private static final int STREAMS = Integer.getInteger("weir.model.streams", 1000);
    private static final int PIPELINE_STREAMS = 30;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void stagesWithHeartbeatsAgreeWithTheModel(final WindowKind kind)
    {
        for (long seed = 0; seed < STREAMS; seed++)
        {
            WindowSemanticsModelTest.check(withHeartbeats(seed * 7919 + kind.ordinal(), kind), EngineRun::stages);
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void pipelinesReadingHeartbeatsFromTheJournalAgreeWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < PIPELINE_STREAMS; i++)
        {
            final GeneratedCase c = withHeartbeats(1_000_003L * i + kind.ordinal(), kind);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final Path journal = dir.resolve(kind + "-" + i);
            final EngineRun engine = switch (i % 3)
            {
                case 0 -> EngineRun.pipeline(c.events(), c.config(), journal, layout);
                case 1 -> EngineRun.pipelineOnColumns(c.events(), c.config(), journal, layout, "merchant");
                default -> EngineRun.pipelineOnKeyTuples(c.events(), c.config(), journal, layout, true);
            };
            final ModelOutput model = ReferenceModel.run(c.events(), c.config());
            assertEquals(model.results(), engine.results, () -> "results in emission order, " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows, " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.dropped(), engine.dropped, "dropped");
            assertEquals(model.ignored(), engine.ignored, "ignored");
        }
    }

    private static GeneratedCase withHeartbeats(final long seed, final WindowKind kind)
    {
        return Heartbeats.sprinkle(StreamGenerator.generate(seed, kind), seed ^ 0x5DEECE66DL);
    }
}
