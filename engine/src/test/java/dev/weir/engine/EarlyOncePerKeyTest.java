package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.model.GeneratedCase;
import dev.weir.engine.model.ModelOptions;
import dev.weir.engine.model.ModelOutput;
import dev.weir.engine.model.ReferenceModel;
import dev.weir.engine.model.StreamGenerator;
import dev.weir.engine.model.StreamReducer;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.support.EngineRun;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Early rows once per key ({@code earlyOncePerKey}, {@code --early-once key}): a window's early row is emitted
 * only if no other window of its key that overlaps it has emitted one and not fired yet; a window whose
 * condition first holds while one has never emits one. Checked against the brute-force {@link ReferenceModel}
 * on seeded sliding streams (in the window stages, with the window index's overflow map, and through a whole
 * pipeline), on the example (one payment in six overlapping windows), and for the configurations it
 * is refused with.
 */
class EarlyOncePerKeyTest
{
    private static final int STREAMS = Integer.getInteger("weir.model.streams", 1000);
    private static final int PIPELINE_STREAMS = 20;

    /** Conditions that hold in several overlapping windows at once, and some that hold and stop holding. */
    private static final List<ModelOptions> OPTIONS = List.of(
        new ModelOptions(false, "count>=2", w -> w[0] >= 2).withEarlyOnceByKey(),
        new ModelOptions(true, "sum>100", w -> w[1] > 100).withEarlyOnceByKey(),
        new ModelOptions(false, "max>=400 or count>4", w -> w[3] >= 400 || w[0] > 4).withEarlyOnceByKey(),
        new ModelOptions(true, "count=1", w -> w[0] == 1).withEarlyOnceByKey(),
        new ModelOptions(false, "min<-500 and count>1", w -> w[2] < -500 && w[0] > 1).withEarlyOnceByKey());

    @TempDir
    Path dir;

    @Test
    void earlyRowsOncePerKeyAgreeWithTheModel()
    {
        int streams = 0;
        int changed = 0;
        for (long seed = 0; streams < STREAMS; seed++)
        {
            final GeneratedCase c = StreamGenerator.generate(seed * 7919 + 31, WindowKind.SLIDING);
            if (c.config().slide() >= c.config().size())
            {
                continue; // windows that do not overlap: refused (below)
            }
            final ModelOptions options = OPTIONS.get(streams++ % OPTIONS.size());
            WindowSemanticsModelTest.check(c, options, (events, config) -> EngineRun.stages(events, config, options));
            WindowSemanticsModelTest.check(c, options, (events, config) -> EngineRun.stagesWithTinyIndex(events, config, options));
            if (earlyRows(ReferenceModel.run(c.events(), c.config(), options)) < earlyRows(ReferenceModel.run(c.events(), c.config(),
                new ModelOptions(options.updates(), options.earlyText(), options.early()))))
            {
                changed++;
            }
        }
        assertTrue(changed > STREAMS / 10, "the option suppressed early rows in " + changed + " of " + STREAMS + " streams");
    }

    @Test
    void aWholePipelineWithEarlyRowsOncePerKeyAgreesWithTheModel()
    {
        int streams = 0;
        for (long seed = 0; streams < PIPELINE_STREAMS; seed++)
        {
            final GeneratedCase c = StreamGenerator.generate(5_000_011L * seed + 1, WindowKind.SLIDING);
            if (c.config().slide() >= c.config().size())
            {
                continue;
            }
            final PipelineLayout layout = PipelineLayout.values()[streams % PipelineLayout.values().length];
            final ModelOptions options = OPTIONS.get(streams % OPTIONS.size());
            final EngineRun engine = EngineRun.pipeline(c.events(), c.config(), dir.resolve("once-" + streams), layout, options);
            final ModelOutput model = ReferenceModel.run(c.events(), c.config(), options);
            assertEquals(model.results(), engine.results, () -> "results, " + layout + " " + options + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows, " + layout);
            streams++;
        }
    }

    @Test
    void onePaymentInSixOverlappingWindowsGivesOneEarlyRowWithTheOptionAndSixWithout()
    {
        // sliding 60 s / 10 s: the payment at 65 s is in [10 s, 70 s) ... [60 s, 120 s)
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            writer.append(1, 61_000, "card-7", 500);
            writer.append(2, 65_000, "card-7", 100_000);
            writer.append(3, 75_000, "card-7", 700);
            writer.append(4, 66_000, "card-9", 200);
        }
        final List<String> once = earlyRows(journal, "once", true);
        assertEquals(List.of("10000,70000,card-7,2,100500"), once, "the first window to cross raises; the five that overlap it do not");
        assertEquals(6, earlyRows(journal, "each", false).size(), "without the option, one per window");
    }

    @Test
    void itIsRefusedWithoutAnEarlyConditionOrWithWindowsOfAKeyThatNeverOverlap()
    {
        for (final WindowSpec spec : List.of(TumblingWindows.of(10_000), SessionWindows.withGap(10_000), SlidingWindows.of(10_000, 10_000),
            SlidingWindows.of(10_000, 15_000)))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().window(spec)
                .earlyWhen("count>=2").earlyOncePerKey(true).concludeFor(JournalSchema.DEFAULT), spec.describe());
            assertTrue(ex.getMessage().contains("never overlap under " + spec.describe()), ex.getMessage());
        }
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Weir.pipeline()
            .window(SlidingWindows.of(60_000, 10_000)).earlyOncePerKey(true).concludeFor(JournalSchema.DEFAULT));
        assertTrue(ex.getMessage().contains("need an early condition"), ex.getMessage());
        assertTrue(Weir.pipeline().window(SlidingWindows.of(60_000, 10_000)).earlyWhen("count>=2").earlyOncePerKey(true)
            .concludeFor(JournalSchema.DEFAULT).describe().endsWith(" earlyOnce=key"), "part of the configuration a checkpoint fixes");
    }

    /** The early rows of the pipeline {@code name} over the journal, as {@code start,end,key,count,sum}. */
    private static List<String> earlyRows(final Path journal, final String name, final boolean once)
    {
        final List<String> rows = new ArrayList<>();
        Weir.pipeline().journal(journal).pipeline(name).window(SlidingWindows.of(60_000, 10_000)).outOfOrderness(10_000)
            .earlyWhen("sum>=100000").earlyOncePerKey(once)
            .onResult(r ->
            {
                if (r.kind() == ResultKind.EARLY)
                {
                    rows.add(r.windowStart() + "," + r.windowEnd() + "," + (r.keyId() == 0 ? "card-7" : "card-9") + "," + r.count() + "," + r.sum());
                }
            })
            .build().runToEnd();
        return rows;
    }

    private static long earlyRows(final ModelOutput output)
    {
        return output.results().stream().filter(row -> row.endsWith(",early")).count();
    }
}
