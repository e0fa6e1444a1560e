package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.schema.NewerFormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator state codec: the bytes it writes are the ones {@code WindowAggregator.snapshot} wrote before
 * the format moved into the codec (SHA-256 of each, recorded from commit 6214004 on the same seeded
 * stream), a restore rebuilds a state that writes the same bytes and goes on exactly as the uninterrupted
 * one, and {@code peek} reads the head a restore reads.
 */
class OperatorStateCodecTest
{
    private static final int EVENTS = 5_000;

    /** Configurations whose state covers every part of the format; each with the SHA-256 of its bytes before the move. */
    enum Case
    {
        /** Sliding windows (chains of several windows per start), dedupe, side output, a one-long user aggregation. */
        SLIDING("af584e901ec7cb4c03e7c10b3109fecce0fbd2713d7ccb06e617ef1a498352fc", 7_390)
        {
            @Override
            OperatorConfiguration configuration()
            {
                return OperatorConfiguration.builder(SlidingWindows.of(100, 30)).outOfOrderness(50).allowedLateness(70)
                    .latePolicy(LatePolicy.SIDE).dedupe(true).aggregation(new Average()).build();
            }
        },
        /** Tumbling windows, no dedupe (-1 remembered ids), no user aggregation. */
        TUMBLING("8fb9668e4aaa879ace1818467adda7b5fab58bbd5091636c4b61193b0a7ca909", 768)
        {
            @Override
            OperatorConfiguration configuration()
            {
                return OperatorConfiguration.builder(TumblingWindows.of(100)).build();
            }
        },
        /** Sessions (slot order), dedupe, a multi-long user aggregation. */
        SESSIONS("3c8f4901f16ba6f57a50009737b80b087ea86deaa1f00025afba63108c70b36e", 4_311)
        {
            @Override
            OperatorConfiguration configuration()
            {
                return OperatorConfiguration.builder(SessionWindows.withGap(40)).outOfOrderness(50).allowedLateness(70).dedupe(true)
                    .aggregation(new ApproxDistinct()).build();
            }
        };

        final String sha256;
        final int length;

        Case(final String sha256, final int length)
        {
            this.sha256 = sha256;
            this.length = length;
        }

        abstract OperatorConfiguration configuration();
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void writesTheBytesTheAggregatorWroteBeforeTheCodec(final Case c)
    {
        final Stage stage = new Stage(c.configuration());
        stage.feed(0, EVENTS);
        final byte[] bytes = snapshot(stage.aggregator);
        assertEquals(c.length, bytes.length);
        assertEquals(c.sha256, sha256(bytes));
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void aRestoredStateWritesTheSameBytesAndGoesOnAsTheUninterruptedOne(final Case c)
    {
        final Stage uninterrupted = new Stage(c.configuration());
        uninterrupted.feed(0, EVENTS / 2);
        final byte[] bytes = snapshot(uninterrupted.aggregator);

        final Stage restored = new Stage(c.configuration());
        restored.feed(0, 100); // a state to be replaced
        OperatorStateCodec.restore(StateBuffer.reading(ByteBuffer.wrap(bytes)), restored.aggregator);
        restored.assigner.restoreWatermark(restored.aggregator.watermark());
        restored.results.clear();
        assertArrayEquals(bytes, snapshot(restored.aggregator));

        uninterrupted.results.clear();
        uninterrupted.feed(EVENTS / 2, EVENTS);
        uninterrupted.end();
        restored.feed(EVENTS / 2, EVENTS);
        restored.end();
        assertTrue(uninterrupted.results.size() > 100, "results: " + uninterrupted.results.size());
        for (int i = 0, n = Math.min(uninterrupted.results.size(), restored.results.size()); i < n; i++)
        {
            assertEquals(uninterrupted.results.get(i), restored.results.get(i), "output " + i);
        }
        assertEquals(uninterrupted.results.size(), restored.results.size(), "outputs");
        assertArrayEquals(snapshot(uninterrupted.aggregator), snapshot(restored.aggregator));
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void peekReadsTheHeadOfTheState(final Case c)
    {
        final Stage stage = new Stage(c.configuration());
        stage.feed(0, EVENTS);
        final StateSummary summary = OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(snapshot(stage.aggregator))));
        assertEquals(stage.aggregator.watermark(), summary.watermark());
        assertEquals(EVENTS - 1, summary.lastOffset());
        assertEquals(stage.aggregator.rememberedIds(), summary.rememberedIds());
        assertEquals(stage.aggregator.openWindows(), summary.openWindows());
        assertTrue(summary.openWindows() > 0, "open windows");
        assertEquals(EVENTS, summary.counters().events());
        assertEquals(stage.aggregator.counters().duplicates(), summary.counters().duplicates());
        assertEquals(stage.aggregator.counters().windowsFired(), summary.counters().windowsFired());
        assertEquals(stage.aggregator.counters().windowsOpened(), summary.counters().windowsOpened());
        assertEquals(stage.aggregator.counters().dropped() + stage.aggregator.counters().sideOutput(),
            summary.counters().dropped() + summary.counters().sideOutput());
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void aStateWithFilteredEventsRecordsTheirCountInFormat3AndRestoresIt(final Case c)
    {
        final Stage uninterrupted = new Stage(c.configuration());
        uninterrupted.filterEvery = 4;
        uninterrupted.feed(0, EVENTS / 2);
        final byte[] bytes = snapshot(uninterrupted.aggregator);
        assertEquals(OperatorStateCodec.STATE_VERSION_FILTERED, StateBuffer.reading(ByteBuffer.wrap(bytes)).getInt(), "format 3 once an event was filtered");
        assertEquals(EVENTS / 2 / 4, uninterrupted.aggregator.counters().filtered());

        final StateSummary summary = OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(bytes)));
        assertEquals(EVENTS / 2 / 4, summary.counters().filtered());
        assertEquals(EVENTS / 2 - EVENTS / 2 / 4, summary.counters().events());
        assertEquals(uninterrupted.aggregator.openWindows(), summary.openWindows());

        restoreAndGoOn(c, uninterrupted, bytes);
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void aStateWithWrappedValuesAndSumsRecordsTheirCountsInFormat4AndRestoresThem(final Case c)
    {
        final Stage uninterrupted = new Stage(c.configuration());
        uninterrupted.wrapEvery = 5;
        uninterrupted.filterEvery = 7;
        uninterrupted.feed(0, EVENTS / 2);
        final byte[] bytes = snapshot(uninterrupted.aggregator);
        assertEquals(OperatorStateCodec.STATE_VERSION_WRAPPED, StateBuffer.reading(ByteBuffer.wrap(bytes)).getInt(), "format 4 once a value wrapped");
        final long values = uninterrupted.aggregator.counters().valuesWrapped();
        final long sums = uninterrupted.aggregator.counters().sumsWrapped();
        assertTrue(values > 0 && sums > 0, values + " values, " + sums + " sums wrapped");

        final StateSummary summary = OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(bytes)));
        assertEquals(values, summary.counters().valuesWrapped());
        assertEquals(sums, summary.counters().sumsWrapped());
        assertEquals(uninterrupted.aggregator.counters().filtered(), summary.counters().filtered());
        assertEquals(uninterrupted.aggregator.openWindows(), summary.openWindows());

        final Stage restored = restoreAndGoOn(c, uninterrupted, bytes);
        assertTrue(restored.aggregator.counters().valuesWrapped() > values, "counted on after the restore");
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void aStateWithUnmatchedEventsRecordsTheirCountInFormat5AndRestoresIt(final Case c)
    {
        final Stage uninterrupted = new Stage(c.configuration());
        uninterrupted.unmatchEvery = 6;
        uninterrupted.filterEvery = 7;
        uninterrupted.feed(0, EVENTS / 2);
        final byte[] bytes = snapshot(uninterrupted.aggregator);
        assertEquals(OperatorStateCodec.STATE_VERSION_UNMATCHED, StateBuffer.reading(ByteBuffer.wrap(bytes)).getInt(), "format 5 once an event was unmatched");
        final long unmatched = uninterrupted.aggregator.counters().unmatched();
        final long filtered = uninterrupted.aggregator.counters().filtered();
        assertTrue(unmatched > 0 && filtered > 0, unmatched + " unmatched, " + filtered + " filtered");

        final StateSummary summary = OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(bytes)));
        assertEquals(unmatched, summary.counters().unmatched());
        assertEquals(filtered, summary.counters().filtered(), "counted apart");
        assertEquals(EVENTS / 2 - unmatched - filtered, summary.counters().events());

        final Stage restored = restoreAndGoOn(c, uninterrupted, bytes);
        assertTrue(restored.aggregator.counters().unmatched() > unmatched, "counted on after the restore");
    }

    /**
     * Restore {@code bytes}, taken from {@code uninterrupted} after half the stream, into a new stage fed the same
     * way; check it writes the same bytes, then that both go on to the same outputs and the same final state.
     *
     * @return the restored stage, at the end of the stream.
     */
    private static Stage restoreAndGoOn(final Case c, final Stage uninterrupted, final byte[] bytes)
    {
        final Stage restored = new Stage(c.configuration());
        restored.filterEvery = uninterrupted.filterEvery;
        restored.wrapEvery = uninterrupted.wrapEvery;
        restored.unmatchEvery = uninterrupted.unmatchEvery;
        OperatorStateCodec.restore(StateBuffer.reading(ByteBuffer.wrap(bytes)), restored.aggregator);
        restored.assigner.restoreWatermark(restored.aggregator.watermark());
        assertArrayEquals(bytes, snapshot(restored.aggregator));
        uninterrupted.results.clear();
        uninterrupted.feed(EVENTS / 2, EVENTS);
        uninterrupted.end();
        restored.feed(EVENTS / 2, EVENTS);
        restored.end();
        assertEquals(uninterrupted.results, restored.results);
        assertArrayEquals(snapshot(uninterrupted.aggregator), snapshot(restored.aggregator));
        return restored;
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void aStateOfANewerFormatIsRefusedNamingBothVersions(final Case c)
    {
        final byte[] bytes = snapshot(new Stage(c.configuration()).aggregator);
        bytes[0] = (byte)(OperatorStateCodec.NEWEST_READ + 1); // the format version, little-endian
        final NewerFormatException restore = assertThrows(NewerFormatException.class,
            () -> OperatorStateCodec.restore(StateBuffer.reading(ByteBuffer.wrap(bytes)), new Stage(c.configuration()).aggregator));
        assertEquals(OperatorStateCodec.NEWEST_READ + 1, restore.found());
        assertEquals(OperatorStateCodec.NEWEST_READ, restore.newestRead());
        assertTrue(restore.getMessage().contains("checkpoint state version 6") && restore.getMessage().contains("up to 5"), restore.getMessage());
        assertThrows(NewerFormatException.class, () -> OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(bytes))));
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void aFormat1StateIsPeekedButNotRestoredAndAFormatNoWeirWroteIsRefused(final Case c)
    {
        final Stage stage = new Stage(c.configuration());
        stage.feed(0, EVENTS);
        final byte[] bytes = snapshot(stage.aggregator);
        bytes[0] = OperatorStateCodec.STATE_VERSION_SLOT_ORDER; // little-endian; format 1 had format 2's layout, windows in slot order
        final StateSummary summary = OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(bytes)));
        assertEquals(stage.aggregator.watermark(), summary.watermark());
        assertEquals(stage.aggregator.openWindows(), summary.openWindows());
        final CheckpointMismatchException refused = assertThrows(CheckpointMismatchException.class,
            () -> OperatorStateCodec.restore(StateBuffer.reading(ByteBuffer.wrap(bytes)), new Stage(c.configuration()).aggregator));
        assertTrue(refused.getMessage().contains("rebuilds it by replaying"), refused.getMessage());
        bytes[0] = 0;
        assertThrows(CheckpointMismatchException.class, () -> OperatorStateCodec.peek(StateBuffer.reading(ByteBuffer.wrap(bytes))));
    }

    /**
     * States of formats 2 and 3 as their bytes are laid out (written here field by field, not by the codec): a
     * restore reads every field, and the state fires its windows from there, then writes the same bytes again.
     */
    @ParameterizedTest
    @ValueSource(ints = {OperatorStateCodec.STATE_VERSION, OperatorStateCodec.STATE_VERSION_FILTERED})
    void aTumblingStateOfFormat2Or3BuiltByHandIsRestored(final int format)
    {
        final StateBuffer out = new StateBuffer(64).clear();
        out.putInt(format).putLong(1_950).putLong(41); // watermark, last offset
        out.putLong(40).putLong(3).putLong(2).putLong(1).putLong(17).putLong(19).putLong(0); // events .. duplicates
        if (format == OperatorStateCodec.STATE_VERSION_FILTERED)
        {
            out.putLong(5); // filtered
        }
        out.putInt(-1); // no dedupe
        out.putInt(2); // open windows, in the order they fire
        out.putInt(7).putLong(1_900).putLong(2_000).putLong(4).putLong(100).putLong(10).putLong(40).putInt(0).putByte((byte)1);
        out.putInt(3).putLong(1_900).putLong(2_000).putLong(1).putLong(-5).putLong(-5).putLong(-5).putInt(0).putByte((byte)1);
        final ByteBuffer written = out.written();
        final byte[] bytes = new byte[written.remaining()];
        written.get(bytes);

        final Stage stage = new Stage(Case.TUMBLING.configuration());
        OperatorStateCodec.restore(StateBuffer.reading(ByteBuffer.wrap(bytes)), stage.aggregator);
        assertEquals(1_950, stage.aggregator.watermark());
        assertEquals(2, stage.aggregator.openWindows());
        assertEquals(40, stage.aggregator.counters().events());
        assertEquals(17, stage.aggregator.counters().windowsFired());
        assertEquals(format == OperatorStateCodec.STATE_VERSION ? 0 : 5, stage.aggregator.counters().filtered());
        assertArrayEquals(bytes, snapshot(stage.aggregator), "writes the format it read");
        stage.assigner.restoreWatermark(stage.aggregator.watermark());
        stage.end();
        assertEquals(List.of("1900,2000,7,4,100,10,40,0,0,41", "1900,2000,3,1,-5,-5,-5,0,0,41"), stage.results);
    }

    private static byte[] snapshot(final WindowAggregator aggregator)
    {
        final StateBuffer out = new StateBuffer(64).clear();
        OperatorStateCodec.snapshot(aggregator, out);
        final ByteBuffer written = out.written();
        final byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        return bytes;
    }

    private static String sha256(final byte[] bytes)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new AssertionError(ex);
        }
    }

    /** The two stages on one thread, fed a seeded stream: disorder, late events, about 5% retried ids, 20 keys. */
    private static final class Stage
    {
        final List<String> results = new ArrayList<>();
        final WindowAssigner assigner;
        final WindowAggregator aggregator;
        final EventSlot slot = new EventSlot();
        /** Every how many events one is a filtered-out event (a {@link EventSlot#FILTERED} slot), or 0 for none. */
        int filterEvery;
        /**
         * Every how many events one's value wrapped ({@link EventSlot#valueWrapped}), or 0 for none; with wraps, every
         * value is scaled up so that window sums wrap too.
         */
        int wrapEvery;
        /** Every how many events one is unmatched by a join (a {@link EventSlot#FILTERED} slot so marked), or 0 for none. */
        int unmatchEvery;

        Stage(final OperatorConfiguration configuration)
        {
            assigner = configuration.newAssigner();
            aggregator = configuration.newAggregator(
                r -> results.add(r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum() + ","
                    + r.min() + "," + r.max() + "," + r.aggregate() + "," + r.version() + "," + r.sourceOffset()),
                e -> results.add("late " + e.eventId() + "," + e.offset()));
        }

        /** Feed events {@code from} (inclusive) to {@code to} (exclusive) of the stream, which is the same whatever the range. */
        void feed(final int from, final int to)
        {
            final Random random = new Random(13);
            long time = 1_000;
            for (int i = 0; i < to; i++)
            {
                time += random.nextInt(7);
                final long id = random.nextInt(20) == 0 ? Math.max(0, i - random.nextInt(50)) : i;
                final long eventTime = time - random.nextInt(120);
                final int key = random.nextInt(20);
                final long value = random.nextInt(1_000) - 200;
                if (i >= from)
                {
                    slot.event(i, id, eventTime, key, wrapEvery > 0 ? value * (Long.MAX_VALUE / 1_000) : value);
                    slot.valueWrapped = wrapEvery > 0 && i % wrapEvery == 0;
                    if (filterEvery > 0 && i % filterEvery == filterEvery - 1)
                    {
                        slot.filtered(i, eventTime);
                    }
                    else if (unmatchEvery > 0 && i % unmatchEvery == 0)
                    {
                        slot.unmatched(i, eventTime);
                    }
                    assigner.assign(slot);
                    aggregator.apply(slot);
                }
            }
        }

        void end()
        {
            slot.endOfInput(EVENTS - 1);
            assigner.assign(slot);
            aggregator.apply(slot);
        }
    }
}
