package dev.weir.engine.operator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.engine.aggregate.Average;
import dev.weir.engine.checkpoint.OperatorStateCodec;
import dev.weir.engine.checkpoint.StateBuffer;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import org.junit.jupiter.api.Test;

/**
 * Sliding windows kept in panes against one aggregate per window, on thousands of seeded streams (disorder, late
 * events within and beyond the allowed lateness, both late policies, heartbeats, many keys or few, values whose sums
 * wrap): the same rows (every field, kinds, versions, offsets, in the same order), the same late rows and counters;
 * checkpoints taken anywhere are the same bytes, and either path resumes from the other's to the rows of an
 * uninterrupted run.
 */
class SlidingPanesTest
{
    private static final int STREAMS = 3_000;

    @Test
    void panesGiveTheRowsCountersAndCheckpointsOfOneAggregatePerWindow()
    {
        int panesUsed = 0;
        long rows = 0;
        long refired = 0;
        long wrapped = 0;
        for (long seed = 1; seed <= STREAMS; seed++)
        {
            final SplittableRandom r = new SplittableRandom(seed);
            final OperatorConfiguration.Builder builder = randomConfiguration(r);
            final OperatorConfiguration panes = builder.panes(true).build();
            final OperatorConfiguration perWindow = builder.panes(false).build();
            assertTrue(panes.panes(), "seed " + seed);
            assertFalse(perWindow.panes(), "seed " + seed);
            assertEquals(panes.describe(), perWindow.describe(), "the configuration string does not say which path");
            final List<Input> inputs = randomStream(r, panes);
            final int cut = r.nextInt(inputs.size() + 1);

            final Stage a = new Stage(panes);
            final Stage b = new Stage(perWindow);
            assertTrue(((AlignedWindowAggregator)a.aggregator).keepsPanes());
            assertFalse(((AlignedWindowAggregator)b.aggregator).keepsPanes());
            a.feed(inputs, 0, cut);
            b.feed(inputs, 0, cut);
            final String where = "seed " + seed + ", " + panes.describe() + ", cut at " + cut + " of " + inputs.size();
            assertEquals(b.rows, a.rows, where);
            final byte[] snapshotA = snapshot(a.aggregator);
            final byte[] snapshotB = snapshot(b.aggregator);
            assertArrayEquals(snapshotB, snapshotA, "a checkpoint of panes is the one of one aggregate per window: " + where);
            final int rowsAtCut = a.rows.size();

            // the panes resume from the per-window checkpoint, and the other way round
            final Stage fromPerWindow = restored(panes, snapshotB);
            final Stage fromPanes = restored(perWindow, snapshotA);
            for (final Stage s : new Stage[] {a, b, fromPerWindow, fromPanes})
            {
                s.feed(inputs, cut, inputs.size());
                s.end(inputs.size());
            }
            assertEquals(b.rows, a.rows, where);
            assertEquals(b.late, a.late, where);
            assertCounters(b.aggregator.counters(), a.aggregator.counters(), where);
            final List<String> rest = a.rows.subList(rowsAtCut, a.rows.size());
            assertEquals(rest, fromPerWindow.rows, "panes resumed from a per-window checkpoint: " + where);
            assertEquals(rest, fromPanes.rows, "one aggregate per window resumed from a checkpoint of panes: " + where);
            assertCounters(b.aggregator.counters(), fromPerWindow.aggregator.counters(), where);
            assertArrayEquals(snapshot(b.aggregator), snapshot(fromPerWindow.aggregator), where);
            panesUsed++;
            rows += a.rows.size();
            refired += a.rows.stream().filter(row -> !row.contains(",v0,")).count();
            wrapped += a.aggregator.counters().sumsWrapped();
        }
        assertEquals(STREAMS, panesUsed);
        assertTrue(rows > 100 * STREAMS, "rows: " + rows);
        assertTrue(refired > STREAMS, "late events re-fire windows: " + refired);
        assertTrue(wrapped > 50, "sums wrap: " + wrapped);
    }

    /**
     * A sliding state of format 2 (the oldest restored) as its bytes are laid out, written field by field as a Weir
     * without panes wrote it: the panes resume from it, re-fire a fired window for a late event, and end with the rows
     * of one aggregate per window, pinned here.
     */
    @Test
    void aSlidingStateOfFormat2BuiltByHandResumesOnPanesWithTheRowsOfOneAggregatePerWindow()
    {
        final StateBuffer out = new StateBuffer(64).clear();
        out.putInt(OperatorStateCodec.STATE_VERSION).putLong(1_950).putLong(41); // watermark, last offset
        out.putLong(40).putLong(3).putLong(2).putLong(1).putLong(17).putLong(19).putLong(0); // events .. duplicates
        out.putInt(-1); // no dedupe
        out.putInt(3); // open windows, in the order they fire
        out.putInt(7).putLong(1_850).putLong(1_950).putLong(2).putLong(30).putLong(10).putLong(20).putInt(1).putByte((byte)0);
        out.putInt(7).putLong(1_900).putLong(2_000).putLong(1).putLong(20).putLong(20).putLong(20).putInt(0).putByte((byte)1);
        out.putInt(3).putLong(1_900).putLong(2_000).putLong(1).putLong(-5).putLong(-5).putLong(-5).putInt(0).putByte((byte)1);
        final ByteBuffer written = out.written();
        final byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        final List<Input> rest = List.of(new Input(false, 100, 1_960, 7, 5), new Input(false, 101, 1_920, 7, 1),
            new Input(false, 102, 1_990, 3, 4), Input.heartbeat(2_010));

        final List<List<String>> rows = new ArrayList<>();
        for (final boolean panes : new boolean[] {true, false})
        {
            final OperatorConfiguration configuration = OperatorConfiguration.builder(SlidingWindows.of(100, 50)).allowedLateness(100)
                .panes(panes).build();
            assertEquals(panes, configuration.panes());
            final Stage stage = restored(configuration, bytes);
            assertEquals(3, stage.aggregator.openWindows());
            assertArrayEquals(bytes, snapshot(stage.aggregator), "writes the state it read");
            stage.feed(rest, 0, rest.size());
            stage.end(rest.size());
            rows.add(stage.rows);
        }
        assertEquals(List.of(
            "1850,1950,7,3,31,1,20,v1,FINAL,1,0", // re-fired by the late event
            "1900,2000,7,3,26,1,20,v0,FINAL,3,0", // the heartbeat's watermark passes 2000: restored windows first
            "1900,2000,3,2,-1,-5,4,v0,FINAL,3,0",
            "1950,2050,7,1,5,5,5,v0,FINAL,3,0", // opened after the checkpoint, by the first event
            "1950,2050,3,1,4,4,4,v0,FINAL,3,0"), rows.get(0));
        assertEquals(rows.get(1), rows.get(0), "the rows of one aggregate per window");
    }

    @Test
    void thePathIsChosenFromTheConfiguration()
    {
        assertTrue(OperatorConfiguration.builder(SlidingWindows.of(10_000, 2_000)).build().panes());
        assertTrue(OperatorConfiguration.builder(SlidingWindows.of(10_000, 2_000)).allowedLateness(5_000).latePolicy(LatePolicy.SIDE)
            .dedupe(true).build().panes());
        assertFalse(OperatorConfiguration.builder(SlidingWindows.of(10_000, 3_000)).build().panes(), "size not a multiple of the slide");
        assertFalse(OperatorConfiguration.builder(SlidingWindows.of(10_000, 10_000)).build().panes(), "one pane a window");
        assertFalse(OperatorConfiguration.builder(TumblingWindows.of(10_000)).build().panes(), "tumbling");
        assertFalse(OperatorConfiguration.builder(SlidingWindows.of(10_000, 2_000)).aggregation(new Average()).build().panes(),
            "user aggregations");
        assertFalse(OperatorConfiguration.builder(SlidingWindows.of(10_000, 2_000)).emitUpdates(true).build().panes(), "update rows");
        assertFalse(OperatorConfiguration.builder(SlidingWindows.of(10_000, 2_000)).earlyWhen(WindowConditions.parse("count>=3", 0, 0))
            .build().panes(), "an early condition");
        assertFalse(OperatorConfiguration.builder(SlidingWindows.of(10_000, 2_000)).panes(false).build().panes(), "panes turned off");
    }

    private static void assertCounters(final OperatorCounters expected, final OperatorCounters actual, final String where)
    {
        assertEquals(expected.events(), actual.events(), where);
        assertEquals(expected.windowsOpened(), actual.windowsOpened(), where);
        assertEquals(expected.windowsFired(), actual.windowsFired(), where);
        assertEquals(expected.sumsWrapped(), actual.sumsWrapped(), where);
        assertEquals(expected.dropped(), actual.dropped(), where);
        assertEquals(expected.sideOutput(), actual.sideOutput(), where);
        assertEquals(expected.ignored(), actual.ignored(), where);
        assertEquals(expected.duplicates(), actual.duplicates(), where);
    }

    private static OperatorConfiguration.Builder randomConfiguration(final SplittableRandom r)
    {
        final long slide = 1 + r.nextInt(r.nextBoolean() ? 5 : 40);
        final long size = slide * (2 + r.nextInt(6));
        final long d = switch (r.nextInt(5))
        {
            case 0 -> 0;
            case 1 -> 1 + r.nextInt(3 * (int)size);
            default -> 1 + r.nextInt(20);
        };
        final long a = switch (r.nextInt(3))
        {
            case 0 -> 0;
            case 1 -> 1 + r.nextInt(20);
            default -> 1 + r.nextInt(4 * (int)size);
        };
        return OperatorConfiguration.builder(SlidingWindows.of(size, slide)).outOfOrderness(d).allowedLateness(a)
            .latePolicy(r.nextBoolean() ? LatePolicy.SIDE : LatePolicy.DROP).dedupe(r.nextInt(4) == 0)
            .indexRingSlides(r.nextInt(4) == 0 ? 1 : 0);
    }

    /** Events and heartbeats: times that mostly move forward, with disorder and some far behind. */
    private static List<Input> randomStream(final SplittableRandom r, final OperatorConfiguration configuration)
    {
        final SlidingWindows windows = (SlidingWindows)configuration.window();
        final int n = 50 + r.nextInt(400);
        final int keys = 1 + r.nextInt(r.nextBoolean() ? 4 : 60);
        final boolean wide = r.nextInt(5) == 0;
        // in one stream of four, key ids spread up to about 3,000: beyond the first size of the arrays kept per key id
        final int keyStride = r.nextInt(4) == 0 ? 53 : 1;
        final long disorder = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt((int)windows.size() * 2);
        final List<Input> inputs = new ArrayList<>(n);
        long cursor = r.nextInt(3) == 0 ? -r.nextInt(50) : r.nextInt(50);
        long id = 1;
        for (int i = 0; i < n; i++)
        {
            cursor += r.nextInt(1 + (int)windows.slide());
            long t = cursor - (disorder == 0 ? 0 : r.nextLong(disorder + 1));
            if (r.nextInt(25) == 0)
            {
                t -= configuration.outOfOrderness() + configuration.lateness().allowedLateness() + r.nextInt(2 * (int)windows.size());
            }
            if (r.nextInt(30) == 0)
            {
                inputs.add(Input.heartbeat(cursor + r.nextInt(3 * (int)windows.slide())));
                continue;
            }
            final long value = wide && r.nextInt(3) == 0 ? (r.nextBoolean() ? Long.MAX_VALUE / 3 : Long.MIN_VALUE / 3) + r.nextInt(1000)
                : r.nextInt(2_001) - 1_000;
            // about one in twelve ids repeats an earlier one (dedupe)
            final long eventId = r.nextInt(12) == 0 && id > 1 ? 1 + r.nextLong(id - 1) : id++;
            inputs.add(new Input(false, eventId, t, r.nextInt(keys) * keyStride, value));
        }
        return inputs;
    }

    private static Stage restored(final OperatorConfiguration configuration, final byte[] state)
    {
        final Stage stage = new Stage(configuration);
        OperatorStateCodec.restore(StateBuffer.reading(ByteBuffer.wrap(state)), stage.aggregator);
        stage.assigner.restoreWatermark(stage.aggregator.watermark());
        return stage;
    }

    static byte[] snapshot(final WindowAggregator aggregator)
    {
        final StateBuffer out = new StateBuffer(64).clear();
        OperatorStateCodec.snapshot(aggregator, out);
        final ByteBuffer written = out.written();
        final byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        return bytes;
    }

    private record Input(boolean heartbeat, long eventId, long eventTime, int keyId, long value)
    {
        static Input heartbeat(final long eventTime)
        {
            return new Input(true, 0, eventTime, 0, 0);
        }
    }

    /** The two stages on this thread, through one slot; rows rendered with every field. */
    private static final class Stage
    {
        final WindowAssigner assigner;
        final WindowAggregator aggregator;
        final EventSlot slot = new EventSlot();
        final List<String> rows = new ArrayList<>();
        final List<String> late = new ArrayList<>();

        Stage(final OperatorConfiguration configuration)
        {
            assigner = configuration.newAssigner();
            aggregator = configuration.newAggregator(this::row,
                e -> late.add(e.eventId() + "," + e.eventTime() + "," + e.keyId() + "," + e.value() + "," + e.offset()));
        }

        private void row(final WindowResult r)
        {
            rows.add(r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum() + "," + r.min() + ","
                + r.max() + ",v" + r.version() + "," + r.kind() + "," + r.sourceOffset() + "," + r.aggregateCount());
        }

        void feed(final List<Input> inputs, final int from, final int to)
        {
            for (int i = from; i < to; i++)
            {
                final Input in = inputs.get(i);
                if (in.heartbeat())
                {
                    slot.heartbeat(i, in.eventTime());
                }
                else
                {
                    slot.event(i, in.eventId(), in.eventTime(), in.keyId(), in.value());
                }
                assigner.assign(slot);
                aggregator.apply(slot);
            }
        }

        void end(final int inputs)
        {
            slot.endOfInput(inputs - 1);
            assigner.assign(slot);
            aggregator.apply(slot);
        }
    }
}
