package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.weir.engine.aggregate.Average;
import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.journal.schema.NewerFormatException;
import dev.weir.test.golden.GoldenBytes;
import dev.weir.test.golden.GoldenBytes.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's files byte for byte: a checkpoint file (the store's header, the envelope, the operator state in
 * formats 2 to 5) and a metrics file, written from fixed inputs (the checkpoint's wall clock injected, the
 * metrics file's pid, start and end times masked; it is little-endian, as Agrona writes it on x86), are the committed bytes of the versions they stamp
 * ({@code src/test/resources/golden-bytes}); and today's readers read every committed version back: the
 * checkpoint restores the state it was written from, the metrics file gives its counters' values.
 */
class EngineGoldenBytesTest
{
    /** The checkpoint's configuration string, as the envelope stores it. */
    private static final String CONFIGURATION = "golden: sliding 100/30, out-of-orderness 50, lateness 70, side, dedupe, avg";
    private static final long WRITTEN_AT = 1_764_613_203_123L;
    private static final int EVENTS = 40;
    /** The checkpoint files' name stem: their store's and envelope's versions; each file is of one state format. */
    private static final String CHECKPOINT = "checkpoint-file" + CheckpointStore.FORMAT_VERSION + "-envelope" + CheckpointCodec.ENVELOPE_VERSION + "-state";

    private final GoldenBytes golden = GoldenBytes.ofThisModule();

    @TempDir
    Path dir;

    /** The state formats, each with the fixed stream that makes the codec write it. */
    private enum StateFormat
    {
        PLAIN(OperatorStateCodec.STATE_VERSION, 0, 0, 0),
        FILTERED(OperatorStateCodec.STATE_VERSION_FILTERED, 4, 0, 0),
        WRAPPED(OperatorStateCodec.STATE_VERSION_WRAPPED, 7, 5, 0),
        UNMATCHED(OperatorStateCodec.STATE_VERSION_UNMATCHED, 7, 0, 6);

        final int version;
        final int filterEvery;
        final int wrapEvery;
        final int unmatchEvery;

        StateFormat(final int version, final int filterEvery, final int wrapEvery, final int unmatchEvery)
        {
            this.version = version;
            this.filterEvery = filterEvery;
            this.wrapEvery = wrapEvery;
            this.unmatchEvery = unmatchEvery;
        }

        static StateFormat of(final int version)
        {
            for (final StateFormat format : values())
            {
                if (format.version == version)
                {
                    return format;
                }
            }
            throw new AssertionError("no fixed stream for state format " + version);
        }
    }

    @Test
    void checkpointFiles() throws IOException
    {
        for (final StateFormat format : StateFormat.values())
        {
            final Stage stage = new Stage(format).feed();
            final StateBuffer payload = new StateBuffer(256).clear();
            CheckpointCodec.write(payload, CONFIGURATION, EVENTS - 1, 12, EVENTS, Checkpointer.RUNNING, WRITTEN_AT, stage.aggregator);
            final StateBuffer envelope = StateBuffer.reading(payload.written());
            envelope.getInt();
            envelope.getString();
            envelope.getLong();
            envelope.getLong();
            envelope.getLong();
            envelope.getByte();
            envelope.getLong();
            assertEquals(format.version, envelope.getInt(), "the state format the fixed stream makes the codec write");
            final CheckpointStore store = new CheckpointStore(dir.resolve("written-" + format), 2);
            store.write(payload.written());
            final byte[] file = Files.readAllBytes(store.files().get(0));
            golden.check(CHECKPOINT, format.version, List.of(new Sample("sequence 1; " + CONFIGURATION + "; offset " + (EVENTS - 1)
                + ", output position 12, applied " + EVENTS + ", running, written at " + WRITTEN_AT + "; state of " + EVENTS + " events, every "
                + format.filterEvery + "th filtered, every " + format.wrapEvery + "th wrapped" + (format.unmatchEvery == 0 ? "" : ", every "
                + format.unmatchEvery + "th unmatched") + " (0: none)", file)));
        }
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions(CHECKPOINT).entrySet())
        {
            final StateFormat format = StateFormat.of(version.getKey());
            final CheckpointStore store = new CheckpointStore(dir.resolve("read-" + format), 2);
            Files.write(store.directory().resolve("checkpoint-00000000000000000001.bin"), version.getValue().get(0));
            final CheckpointStore.Loaded loaded = store.loadNewestValid();
            assertNotNull(loaded, "the committed checkpoint file of state format " + format.version + " is valid");
            final Stage restored = new Stage(format);
            final Checkpoint checkpoint = CheckpointCodec.restore(loaded, CONFIGURATION, restored.aggregator);
            assertEquals(new Checkpoint(1, CONFIGURATION, EVENTS - 1, 12, EVENTS, false, false, WRITTEN_AT), checkpoint);
            final Stage written = new Stage(format);
            written.feed();
            assertEquals(written.aggregator.watermark(), restored.aggregator.watermark());
            assertEquals(written.aggregator.openWindows(), restored.aggregator.openWindows());
            assertEquals(written.aggregator.rememberedIds(), restored.aggregator.rememberedIds());
            assertEquals(written.aggregator.counters().events(), restored.aggregator.counters().events());
            assertEquals(written.aggregator.counters().filtered(), restored.aggregator.counters().filtered());
            assertEquals(written.aggregator.counters().valuesWrapped(), restored.aggregator.counters().valuesWrapped());
            assertEquals(written.aggregator.counters().unmatched(), restored.aggregator.counters().unmatched());
            assertEquals(written.aggregator.counters().windowsFired(), restored.aggregator.counters().windowsFired());
        }
    }

    @Test
    void metricsFile() throws IOException
    {
        final Path file = dir.resolve("metrics.dat");
        final MetricsFile metrics = MetricsFile.create(file, 2); // the layout, not the engine's set of counters (new ones are compatible)
        metrics.counters().newCounter("events applied", CounterTypes.EVENTS_APPLIED).set(42);
        metrics.counters().newCounter(EngineCounters.OFFSET_APPLIED, CounterTypes.OFFSET_APPLIED).set(41);
        metrics.markEnded();
        golden.check("metrics-file", MetricsFile.VERSION, List.of(new Sample("two counters: events applied 42, offset applied 41; ended;"
            + " pid, start and end times zeroed", withoutWallClock(Files.readAllBytes(file)))));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("metrics-file").entrySet())
        {
            final Path copy = Files.write(dir.resolve("read-" + version.getKey() + ".dat"), version.getValue().get(0));
            try (MetricsFile read = MetricsFile.open(copy))
            {
                assertEquals(42, read.value(CounterTypes.EVENTS_APPLIED));
                assertEquals(41, read.value(CounterTypes.OFFSET_APPLIED));
                assertEquals(41, read.value(EngineCounters.OFFSET_APPLIED));
                assertEquals(0, read.pid());
                assertTrue(!read.running(), "ended");
            }
        }
    }

    @Test
    void aMetricsFileOfANewerVersionIsRefused() throws IOException
    {
        final byte[] bytes = golden.records("metrics-file", MetricsFile.VERSION).get(0).clone();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(4, MetricsFile.VERSION + 1);
        final Path file = Files.write(dir.resolve("metrics.dat"), bytes);
        final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> MetricsFile.open(file));
        assertEquals(List.of("metrics file", MetricsFile.VERSION + 1, MetricsFile.VERSION), List.of(refused.format(), refused.found(), refused.newestRead()));
        assertTrue(refused.getMessage().contains(file.toString()), refused.getMessage());
    }

    /** The metrics file's header with the writer's pid and start time (bytes 8 to 24) and its end time (32 to 40) fixed. */
    private static byte[] withoutWallClock(final byte[] file)
    {
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putLong(8, 0).putLong(16, 0).putLong(32, 1);
        return file;
    }

    /** The window stages on one thread, fed a fixed stream of {@link #EVENTS} events. */
    private static final class Stage
    {
        final WindowAssigner assigner;
        final WindowAggregator aggregator;
        final StateFormat format;
        final EventSlot slot = new EventSlot();

        Stage(final StateFormat format)
        {
            final OperatorConfiguration configuration = OperatorConfiguration.builder(SlidingWindows.of(100, 30)).outOfOrderness(50)
                .allowedLateness(70).latePolicy(LatePolicy.SIDE).dedupe(true).aggregation(new Average()).build();
            this.format = format;
            this.assigner = configuration.newAssigner();
            this.aggregator = configuration.newAggregator(r -> { }, e -> { });
        }

        Stage feed()
        {
            for (int i = 0; i < EVENTS; i++)
            {
                final long id = i % 9 == 8 ? i - 3 : i; // a retried id now and then
                final long time = 1_000 + 13L * i - (i % 5 == 0 ? 90 : 0); // out of order, some late
                final long value = i % 2 == 0 ? 10L * i : -3L * i;
                slot.event(i, id, time, i % 4, format.wrapEvery > 0 ? value * (Long.MAX_VALUE / 1_000) : value);
                slot.valueWrapped = format.wrapEvery > 0 && i % format.wrapEvery == 0;
                if (format.filterEvery > 0 && i % format.filterEvery == format.filterEvery - 1)
                {
                    slot.filtered(i, time);
                }
                else if (format.unmatchEvery > 0 && i % format.unmatchEvery == 0)
                {
                    slot.unmatched(i, time);
                }
                assigner.assign(slot);
                aggregator.apply(slot);
            }
            return this;
        }
    }
}
