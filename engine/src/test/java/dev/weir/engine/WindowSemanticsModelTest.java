package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import dev.weir.engine.model.GeneratedCase;
import dev.weir.engine.model.ModelConfig;
import dev.weir.engine.model.ModelEvent;
import dev.weir.engine.model.ModelOptions;
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
 * The engine against the brute-force {@link ReferenceModel} on many seeded streams: results as sorted
 * multisets and then in emission order (docs/formats.md: the deterministic order), late rows in order, and the dropped/side/ignored counts. The number of streams per window
 * kind is {@code -Dweir.model.streams} (1,000 by default; 100,000 before a release). A failure prints
 * its seed and a reduced stream.
 */
@Tag("slow")
class WindowSemanticsModelTest
{
    private static final int STREAMS = Integer.getInteger("weir.model.streams", 1000);
    private static final int PIPELINE_STREAMS = 40;

    /**
     * Update and early options: each early condition's text (parsed by the engine) beside the model's own
     * predicate over {count, sum, min, max}.
     */
    private static final List<ModelOptions> OPTIONS = List.of(
        new ModelOptions(true, null, null),
        new ModelOptions(false, "count>=3", w -> w[0] >= 3),
        new ModelOptions(true, "sum>100", w -> w[1] > 100),
        new ModelOptions(false, "max>=40 or count>4", w -> w[3] >= 40 || w[0] > 4),
        new ModelOptions(true, "(min<0 and count>1) or sum=0", w -> (w[2] < 0 && w[0] > 1) || w[1] == 0),
        new ModelOptions(false, "sum != 0 AND (max > 20 or min <= -20)", w -> w[1] != 0 && (w[3] > 20 || w[2] <= -20)),
        new ModelOptions(true, "count=1", w -> w[0] == 1));

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void updateAndEarlyRowsAgreeWithTheModel(final WindowKind kind)
    {
        for (long seed = 0; seed < STREAMS; seed++)
        {
            final ModelOptions options = OPTIONS.get((int)(seed % OPTIONS.size()));
            check(StreamGenerator.generate(seed * 7919 + kind.ordinal(), kind), options, (events, config) -> EngineRun.stages(events, config, options));
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void finalRowsAreTheSameWithUpdatesAndEarlyRows(final WindowKind kind)
    {
        for (long seed = 0; seed < STREAMS; seed++)
        {
            final GeneratedCase c = StreamGenerator.generate(seed * 7919 + kind.ordinal(), kind);
            final ModelOptions options = new ModelOptions(true, "count>=2 or sum<0", w -> w[0] >= 2 || w[1] < 0);
            final List<String> finals = EngineRun.stages(c.events(), c.config(), options).results.stream()
                .filter(row -> !row.endsWith(",update") && !row.endsWith(",early")).collect(Collectors.toList());
            assertEquals(EngineRun.stages(c.events(), c.config()).results, finals, () -> StreamReducer.describe(c, c.events()));
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void wholePipelineWithUpdatesAndEarlyRowsAgreesWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < PIPELINE_STREAMS / 2; i++)
        {
            final GeneratedCase c = StreamGenerator.generate(4_000_037L * i + kind.ordinal(), kind);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final ModelOptions options = OPTIONS.get(i % OPTIONS.size());
            final EngineRun engine = EngineRun.pipeline(c.events(), c.config(), dir.resolve("options-" + kind + "-" + i), layout, options);
            final ModelOutput model = ReferenceModel.run(c.events(), c.config(), options);
            assertEquals(model.results(), engine.results, () -> "results, " + layout + " " + options + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows, " + layout);
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void stagesAgreeWithTheModel(final WindowKind kind)
    {
        for (long seed = 0; seed < STREAMS; seed++)
        {
            check(StreamGenerator.generate(seed * 7919 + kind.ordinal(), kind), EngineRun::stages);
        }
    }

    @ParameterizedTest
    @EnumSource(value = WindowKind.class, names = {"TUMBLING", "SLIDING"})
    void stagesAgreeWithTheModelWhenTheWindowIndexOverflows(final WindowKind kind)
    {
        for (long seed = 0; seed < STREAMS / 4; seed++)
        {
            check(StreamGenerator.generate(seed * 7919 + kind.ordinal(), kind), EngineRun::stagesWithTinyIndex);
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void wholePipelineAgreesWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < PIPELINE_STREAMS; i++)
        {
            final GeneratedCase c = StreamGenerator.generate(1_000_003L * i + kind.ordinal(), kind);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final Path journal = dir.resolve(kind + "-" + i);
            final EngineRun engine = EngineRun.pipeline(c.events(), c.config(), journal, layout);
            final ModelOutput model = ReferenceModel.run(c.events(), c.config());
            assertEquals(model.sortedResults(), engine.sortedResults(), () -> "results, " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.results(), engine.results, () -> "results in emission order, " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows, " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.dropped(), engine.dropped, "dropped");
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aPipelineKeyedByAnyColumnOfASixColumnJournalAgreesWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < PIPELINE_STREAMS / 2; i++)
        {
            final GeneratedCase c = StreamGenerator.generate(2_000_029L * i + kind.ordinal(), kind);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final String keyColumn = i % 2 == 0 ? "card" : "merchant";
            final Path journal = dir.resolve("columns-" + kind + "-" + i);
            final EngineRun engine = EngineRun.pipelineOnColumns(c.events(), c.config(), journal, layout, keyColumn);
            final ModelOutput model = ReferenceModel.run(c.events(), c.config());
            assertEquals(model.results(), engine.results, () -> "results by " + keyColumn + ", " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows by " + keyColumn + ", " + layout);
            assertEquals(model.dropped(), engine.dropped, "dropped");
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aPipelineKeyedByACompositeOrALongKeyAgreesWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < PIPELINE_STREAMS / 2; i++)
        {
            final GeneratedCase c = StreamGenerator.generate(3_000_017L * i + kind.ordinal(), kind);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final boolean composite = i % 2 == 0;
            final Path journal = dir.resolve("tuples-" + kind + "-" + i);
            final EngineRun engine = EngineRun.pipelineOnKeyTuples(c.events(), c.config(), journal, layout, composite);
            final ModelOutput model = ReferenceModel.run(c.events(), c.config());
            final String by = composite ? "merchant,country" : "fee";
            assertEquals(model.results(), engine.results, () -> "results by " + by + ", " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows by " + by + ", " + layout);
            assertEquals(model.dropped(), engine.dropped, "dropped");
        }
    }

    static void check(final GeneratedCase c, final BiFunction<List<ModelEvent>, ModelConfig, EngineRun> engine)
    {
        check(c, ModelOptions.NONE, engine);
    }

    static void check(final GeneratedCase c, final ModelOptions options, final BiFunction<List<ModelEvent>, ModelConfig, EngineRun> engine)
    {
        final String difference = difference(c.events(), c.config(), options, engine);
        if (difference != null)
        {
            final List<ModelEvent> reduced = StreamReducer.reduce(c, events -> difference(events, c.config(), options, engine) != null);
            fail(difference(reduced, c.config(), options, engine) + "\n" + options + "\n" + StreamReducer.describe(c, reduced));
        }
    }

    private static String difference(
        final List<ModelEvent> events, final ModelConfig config, final ModelOptions options,
        final BiFunction<List<ModelEvent>, ModelConfig, EngineRun> engine)
    {
        final ModelOutput model = ReferenceModel.run(events, config, options);
        final EngineRun actual;
        try
        {
            actual = engine.apply(events, config);
        }
        catch (final RuntimeException ex)
        {
            return "engine threw " + ex;
        }
        if (!model.sortedResults().equals(actual.sortedResults()))
        {
            return "results differ\n model:  " + model.sortedResults() + "\n engine: " + actual.sortedResults();
        }
        if (!model.results().equals(actual.results))
        {
            return "results in a different order\n model:  " + model.results() + "\n engine: " + actual.results;
        }
        if (!model.late().equals(actual.late))
        {
            return "late rows differ\n model:  " + model.late() + "\n engine: " + actual.late;
        }
        if (model.dropped() != actual.dropped || model.sideOutput() != actual.sideOutput || model.ignored() != actual.ignored)
        {
            return "counters differ: model dropped/side/ignored " + model.dropped() + "/" + model.sideOutput() + "/" + model.ignored()
                + ", engine " + actual.dropped + "/" + actual.sideOutput + "/" + actual.ignored;
        }
        return null;
    }
}
