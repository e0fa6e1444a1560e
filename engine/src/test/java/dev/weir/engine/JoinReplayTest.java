package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.model.AsOfJoinModel;
import dev.weir.engine.model.JoinCase;
import dev.weir.engine.model.JoinEvent;
import dev.weir.engine.model.JoinStreamGenerator;
import dev.weir.engine.model.JournalEntry;
import dev.weir.engine.model.ModelConfig;
import dev.weir.engine.model.ModelJoin;
import dev.weir.engine.model.ModelJoins;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.support.EngineRun;
import dev.weir.engine.support.TableJournal;
import dev.weir.engine.time.LatePolicy;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A replay of a journal with tables gives the rows of the live follower, in order: a pipeline with two joins
 * follows a journal while its table rows and events are appended in chunks (each chunk awaited), is stopped
 * half-way (a checkpoint, with table rows before and after it) and started again, and its result and late rows
 * must equal, in order, those of {@code replayRange} over the whole journal; the replay's unmatched count must
 * be the model's ({@link AsOfJoinModel}). A follower awaited at a table row's offset returns once it read it. The journal ends with a heartbeat past every window's lateness, so
 * the follower has fired everything the replay fires at the end of input.
 */
@Tag("slow")
class JoinReplayTest
{
    private static final int SEEDS = 6;
    private static final List<ModelJoin> JOINS = List.of(new ModelJoin("cards", List.of("card")), new ModelJoin("fx", List.of("ccy", "tier")));

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aReplayGivesTheRowsOfTheLiveFollowerStoppedAndResumedOnTheWay(final WindowKind kind) throws Exception
    {
        for (int i = 0; i < SEEDS; i++)
        {
            final long seed = 4_000_037L * i + kind.ordinal();
            final JoinCase c = closed(JoinStreamGenerator.generate(seed, kind));
            final boolean keep = i % 2 == 1;
            final Path journal = dir.resolve(kind + "-" + i);
            TableJournal.write(c.withJournal(List.of()), journal, JoinStreamGenerator.EVENT_COLUMNS);

            final List<String> live = new CopyOnWriteArrayList<>();
            final SplittableRandom r = new SplittableRandom(seed);
            final int half = c.journal().size() / 2;
            follow(c, journal, keep, live, 0, half, r);
            follow(c, journal, keep, live, half, c.journal().size(), r);

            final List<String> replay = new ArrayList<>();
            final RunSummary replayed = builder(c, journal, keep, replay).replayRange(-1, Long.MAX_VALUE).build().runToEnd();
            assertEquals(replay, live, () -> "live rows == replay rows, keep=" + keep + "\n" + c.describe());

            final ModelJoins.Outcome model = ModelJoins.apply(AsOfJoinModel.join(c.journal(), c.tables(), JOINS, c.horizonLag()), c.tables(), JOINS,
                keep, x -> true, x -> 0);
            assertEquals(model.unmatched(), replayed.unmatched(), () -> "unmatched\n" + c.describe());
        }
    }

    @Test
    void aFollowerAwaitedAtATableRowsOffsetReturnsOnceItReadIt() throws Exception
    {
        final JoinCase c = JoinStreamGenerator.generate(1, WindowKind.TUMBLING);
        final Path journal = dir.resolve("await");
        TableJournal.write(c.withJournal(List.of()), journal, JoinStreamGenerator.EVENT_COLUMNS);
        try (Pipeline running = builder(c, journal, false, new ArrayList<>()).build().start())
        {
            final long row;
            try (EventJournal writer = EventJournal.openOrCreate(journal))
            {
                final TableAppender cards = writer.table("cards");
                final TableRow card = cards.row();
                row = cards.upsert(card.validFrom(0).setString(card.column("card"), "card-0"));
            }
            assertTrue(running.awaitOffset(row, 60, TimeUnit.SECONDS),
                "awaitOffset returns for a journal document that is a table row (offset " + row + ")");
            running.stop();
        }
    }

    /** Starts (or resumes) the live follower, appends entries from..to in chunks, each awaited, then stops it. */
    private static void follow(final JoinCase c, final Path journal, final boolean keep, final List<String> rows, final int from, final int to,
        final SplittableRandom r) throws Exception
    {
        try (Pipeline running = builder(c, journal, keep, rows).checkpointEvery(1 + r.nextInt(9)).build().start())
        {
            int next = from;
            while (next < to)
            {
                final int end = Math.min(to, next + 1 + r.nextInt(12));
                final long lastEvent = TableJournal.append(c, journal, next, end);
                next = end;
                if (lastEvent >= 0)
                {
                    assertTrue(running.awaitOffset(lastEvent, 120, TimeUnit.SECONDS), "the follower read the chunk");
                }
            }
            running.stop();
        }
    }

    private static PipelineBuilder builder(final JoinCase c, final Path journal, final boolean keep, final List<String> rows)
    {
        final ModelConfig config = c.config();
        return Weir.pipeline().journal(journal).keyColumn(c.keyColumn())
            .join("cards").join("fx", "ccy", "tier").joinMissing(keep ? JoinMissing.KEEP : JoinMissing.DROP)
            .where("country != cards.home").value("amount * fx.rate")
            .window(EngineRun.windowSpec(config)).outOfOrderness(config.outOfOrderness()).allowedLateness(config.allowedLateness())
            .latePolicy(config.sideOutput() ? LatePolicy.SIDE : LatePolicy.DROP).ringSize(64)
            .onResult(x -> rows.add(row(x)))
            .onLate(e -> rows.add("late," + e.eventId() + "," + e.eventTime() + "," + e.keyId() + "," + e.value()));
    }

    private static String row(final WindowResult r)
    {
        return r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum() + "," + r.min() + "," + r.max() + ","
            + r.version() + "," + r.kind().label();
    }

    /** The case with a last heartbeat past every window's end and lateness: the follower fires all the replay fires at the end. */
    private static JoinCase closed(final JoinCase c)
    {
        long newest = 0;
        for (final JournalEntry e : c.journal())
        {
            if (e instanceof JoinEvent event)
            {
                newest = Math.max(newest, event.event().eventTime());
            }
        }
        final List<JournalEntry> entries = new ArrayList<>(c.journal());
        entries.add(JoinEvent.heartbeat(newest + c.horizonLag() + 1));
        return c.withJournal(entries);
    }
}
